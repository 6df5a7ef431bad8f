/**
 * The closing table of `npm run bench` (stderr, Markdown): each benchmark's headline figure beside its baseline
 * from the same run, the ratio, the target and pass/fail per check, so the README's table is this output.
 */
import type { BenchResult } from './report.ts';

/** How one benchmark's headline is read from its entry: a figure on each side and its unit. */
interface Headline {
  unit: string;
  mine: (b: BenchResult) => unknown;
  raw: (b: BenchResult) => unknown;
  rawName: string;
}

const p50 = (side: unknown) => (side as { p50Ms?: number } | undefined)?.p50Ms;
const field = (name: string) => (side: Record<string, unknown>) => side[name];

// One line per benchmark; a case without a line here is listed with its ratio only.
const HEADLINES: Record<string, Headline> = {
  bulk_import: {
    unit: 'memories/s',
    mine: (b) => field('memoriesPerSecond')(b.memledger),
    raw: (b) => field('memoriesPerSecond')(b.raw),
    rawName: 'raw inserts',
  },
  bulk_import_ingest: {
    unit: 'memories/s',
    mine: (b) => field('memoriesPerSecond')(b.memledger),
    raw: (b) => field('memoriesPerSecond')(b.raw),
    rawName: 'raw inserts',
  },
  disk: {
    unit: 'bytes/memory',
    mine: (b) => field('bytesPerMemory')(b.memledger),
    raw: (b) => field('bytesPerMemory')(b.raw),
    rawName: 'raw DB',
  },
  search_scoped: {
    unit: 'p50 ms',
    mine: (b) => p50(b.memledger),
    raw: (b) => p50(b.raw),
    rawName: 'raw FTS5',
  },
  search_all_scopes: {
    unit: 'p50 ms',
    mine: (b) => p50(b.memledger),
    raw: (b) => p50(b.raw),
    rawName: 'raw FTS5',
  },
  context: { unit: 'p50 ms', mine: (b) => p50(b.memledger), raw: (b) => p50(b.raw), rawName: 'raw FTS5' },
  mcp_stdio_search: {
    unit: 'p50 ms',
    mine: (b) => p50(b.memledger),
    raw: (b) => p50(b.raw),
    rawName: 'library call',
  },
  http_search: {
    unit: 'req/s',
    mine: (b) => field('requestsPerSecond')(b.memledger),
    raw: (b) => field('requestsPerSecond')(b.raw),
    rawName: 'bare node:http',
  },
  hook_process: {
    unit: 'p50 ms',
    mine: (b) => p50(b.memledger.installed),
    raw: (b) => p50(b.raw.nodeSqliteQuery),
    rawName: 'node:sqlite query process',
  },
  soak: {
    unit: 'p99 ms, worst later window',
    mine: (b) => Math.max(...(b.memledger.windows as { p99Ms: number }[]).slice(1).map((w) => w.p99Ms)),
    raw: (b) => (b.raw.firstWindow as { p99Ms: number }).p99Ms,
    rawName: 'first window',
  },
  remember: { unit: 'p50 ms', mine: (b) => p50(b.memledger), raw: (b) => p50(b.raw), rawName: 'raw insert' },
};

const show = (value: unknown): string =>
  typeof value === 'number' ? value.toLocaleString('en', { maximumFractionDigits: 3 }) : '–';

/** On Postgres the text baselines are the raw tsquery on the raw table (bench/raw-postgres.ts), not FTS5. */
const rawName = (h: Headline, backend: 'sqlite' | 'postgres'): string =>
  backend === 'postgres'
    ? h.rawName
        .replace('raw FTS5', 'raw tsquery')
        .replace('raw inserts', 'raw COPY')
        .replace('raw insert', 'raw Postgres insert')
    : h.rawName;

/** The Markdown table of every benchmark that ran, with a `met`/`MISSED` per check. */
export function targetTable(
  benchmarks: Partial<Record<string, BenchResult>>,
  backend: 'sqlite' | 'postgres' = 'sqlite',
): string {
  const lines = [
    '| bench | memledger | baseline, same run | ratio | cpu ratio | target | result |',
    '|---|---|---|---|---|---|---|',
  ];
  for (const [name, b] of Object.entries(benchmarks)) {
    if (b === undefined) continue;
    const h = HEADLINES[name];
    const cpu = b.ratios?.cpuP50 ?? b.ratios?.cpu ?? b.ratios?.cpuP50OverNodeSqliteQuery;
    const verdict =
      b.checks.length === 0
        ? 'information'
        : b.checks.map((c) => `${c.pass ? 'met' : 'MISSED'} ${c.name} (${show(c.value)})`).join('; ');
    lines.push(
      `| ${name} | ${h === undefined ? '–' : `${show(h.mine(b))} ${h.unit}`} | ${
        h === undefined ? '–' : `${rawName(h, backend)} ${show(h.raw(b))}`
      } | ${show(b.ratio)}× | ${cpu === undefined ? '–' : `${show(cpu)}×`} | ${b.target ?? '–'} | ${verdict} |`,
    );
  }
  return lines.join('\n');
}
