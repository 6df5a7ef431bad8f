/** A plain-text table of a mining evaluation report, for a person reading a terminal. */
import type { MiningGroup, MiningReport } from './harness.ts';

export function formatMiningTable(report: MiningReport): string {
  const rows: [string, MiningGroup][] = [
    ['overall', report.overall],
    ...Object.entries(report.halves).map(([n, g]) => [`half ${n}`, g] as [string, MiningGroup]),
    ...Object.entries(report.origins).map(([n, g]) => [`origin ${n}`, g] as [string, MiningGroup]),
    ...Object.entries(report.connectors).map(([n, g]) => [`connector ${n}`, g] as [string, MiningGroup]),
  ];
  const header = ['group', 'fragments', 'keeps', 'candidates', 'correct', 'precision', 'recall', 'leaks'];
  const cells = rows.map(([name, g]) => [
    name,
    String(g.fragments),
    String(g.keeps),
    String(g.candidates),
    String(g.correct),
    g.precision.toFixed(3),
    g.recall.toFixed(3),
    String(g.leaks),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i]!.length)));
  const line = (c: string[]) => c.map((x, i) => x.padEnd(widths[i]!)).join('  ');
  const misses = (report.misses ?? []).map(
    (m) =>
      `  ${m.type.padEnd(6)} ${m.fragment} [${m.kind}${m.rule === undefined ? '' : `/${m.rule}`}] ${m.body}`,
  );
  return [
    `${report.set}: mining, overlap ≥ ${report.threshold}, ${report.ms} ms`,
    line(header),
    ...cells.map(line),
    ...(misses.length === 0 ? [] : ['', 'misses:', ...misses]),
    '',
  ].join('\n');
}
