/** A plain-text table of the modes side by side: recall@k and MRR per mode, per group, on both halves. */
import type { GroupReport } from './harness.ts';
import { MODES, type ModesReport } from './modes.ts';
import { HALVES } from './split.ts';

export function formatModesTable(report: ModesReport, k: number): string {
  const modes = MODES.filter((m) => report.modes[m] !== undefined);
  const header = ['group', 'half', 'n', ...modes.map((m) => `${m} R@${k}`), ...modes.map((m) => `${m} MRR`)];
  const first = report.modes[modes[0]!];
  const rows: string[][] = [];
  if (first !== undefined) {
    const groups = ['overall', ...Object.keys(first.categories)];
    for (const group of groups) {
      for (const half of ['all', ...HALVES] as const) {
        const pick = (m: (typeof modes)[number]): GroupReport | undefined => {
          const r = report.modes[m]!;
          const scope = half === 'all' ? r : r.halves[half];
          return group === 'overall' ? scope.overall : scope.categories[group];
        };
        const g0 = pick(modes[0]!);
        rows.push([
          group,
          half,
          String(g0?.queries ?? 0),
          ...modes.map((m) => fixed(pick(m)?.[`recall@${k}`])),
          ...modes.map((m) => fixed(pick(m)?.mrr)),
        ]);
      }
    }
  }
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  const skipped = Object.entries(report.skipped).map(([m, why]) => `${m} not run: ${why}`);
  return [`${report.set}: modes side by side`, line(header), ...rows.map(line), ...skipped, ''].join('\n');
}

const fixed = (v: number | undefined): string =>
  v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(3);
