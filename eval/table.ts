/** A plain-text table of an evaluation report, for a person reading a terminal (C@k: every expected id in the top k). */
import type { EvalReport, GroupReport } from './harness.ts';

export function formatTable(report: EvalReport): string {
  const ks = report.options.k.map((k) => `R@${k}`);
  const header = [
    'group',
    'n',
    ...ks,
    'MRR',
    ...report.options.k.map((k) => `C@${k}`),
    'conf ok/wrong',
    'leak/err',
    'search p50/p95 ms',
    'ctx R',
    'ctx tok',
    'ctx p50/p95 ms',
  ];
  const rows = [
    row('overall', report.overall, report),
    ...Object.entries(report.categories).map(([n, g]) => row(n, g, report)),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [
    `${report.set}: ${report.memories} memories, ${report.queries} queries, loaded in ${report.load.ms} ms; context ${report.context}`,
    line(header),
    ...rows.map(line),
    '',
  ].join('\n');
}

function row(name: string, g: GroupReport, report: EvalReport): string[] {
  const c = g.context;
  return [
    name,
    String(g.queries),
    ...report.options.k.map((k) => fixed(g[`recall@${k}`])),
    fixed(g.mrr),
    ...report.options.k.map((k) => fixed(g[`complete@${k}`])),
    `${fixed(g.confidentRight ?? undefined)}/${fixed(g.confidentWrong ?? undefined)}`,
    `${g.leaks}/${g.errors}`,
    `${fixed(g.searchMs.p50, 2)}/${fixed(g.searchMs.p95, 2)}`,
    c === null ? '-' : fixed(c.recall),
    c === null ? '-' : fixed(c.meanTokens, 0),
    c === null ? '-' : `${fixed(c.ms.p50, 2)}/${fixed(c.ms.p95, 2)}`,
  ];
}

const fixed = (v: number | undefined, places = 3): string =>
  v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(places);
