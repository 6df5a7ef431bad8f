/** Command-line options of `npm run bench`: scale, smoke mode, one benchmark only, an output file. */
import { parseArgs } from 'node:util';

export const BENCHMARKS = [
  'bulk_import',
  'bulk_import_ingest',
  'disk',
  'search_scoped',
  'search_all_scopes',
  'context',
  'mcp_stdio_search',
  'http_search',
  'hook_process',
  'remember',
  'peers',
  'workspace',
  'workspace_restore',
  'soak',
] as const;
export type BenchName = (typeof BENCHMARKS)[number];

export interface Settings {
  scale: number;
  scopes: number;
  seed: number;
  smoke: boolean;
  only: BenchName[] | null;
  out: string | null;
  /**
   * A `postgres://` URL of a server and a role that may create databases: the run works in a fresh database
   * there (dropped at the end) instead of a temporary home. Null: the embedded SQLite store.
   */
  store: string | null;
  /** Measured single writes per side, after `rememberWarmup` unmeasured ones. */
  remembers: number;
  rememberWarmup: number;
  /** Measured scoped queries per side, after `queryWarmup` unmeasured ones. */
  queries: number;
  queryWarmup: number;
  /** Unscoped queries are far slower: fewer of them, and a time budget per side. */
  allScopeQueries: number;
  allScopeBudgetMs: number;
  /** Measured context calls per side, after `contextWarmup` unmeasured ones (the first is reported as cold). */
  contexts: number;
  contextWarmup: number;
  /**
   * Memories in the serving home the process benchmarks (MCP, HTTP, hook) share: 100k (the §6 data size), never
   * more than the run's scale, 10k in smoke mode.
   */
  servingScale: number;
  /** Measured MCP round trips per side, after `mcpWarmup` unmeasured ones. */
  mcpCalls: number;
  mcpWarmup: number;
  /** Seconds of load per side of the HTTP benchmark (split in two rounds), after `httpWarmupSeconds`. */
  httpSeconds: number;
  httpWarmupSeconds: number;
  httpConnections: number;
  /** Measured hook processes per variant, after `hookWarmup` unmeasured ones. */
  hookRuns: number;
  hookWarmup: number;
  /** Minutes of the `serve` soak (`--soak`: 10, `--soak-minutes N`); null: the soak does not run. */
  soakMinutes: number | null;
}

export const USAGE = `usage: npm run bench -- [--scale N] [--smoke] [--only NAME[,NAME]] [--out FILE] [--seed N] [--scopes N]
  --scale N    memories to generate (default 1,000,000; env BENCH_SCALE); suffixes k and m accepted
  --smoke      10,000 memories and few iterations: keeps the harness working in CI, not a measurement
  --only NAME  run only these benchmarks (${BENCHMARKS.join(', ')}); the stores are always built
  --out FILE   also write the JSON report to FILE
  --store URL  run against PostgreSQL: a postgres:// URL of a role that may create databases (env BENCH_STORE);
               the run works in a fresh database there, dropped at the end
  --seed N     data seed (default 1)
  --scopes N   scopes to spread memories over (default scale / 1,000, at least 10)
  --soak       also hold memledger serve at 80% of its throughput for 10 minutes (RSS and p99 per minute)
  --soak-minutes N  the same for N minutes (a shorter run for trying it)`;

export function parseSettings(argv: string[], env: NodeJS.ProcessEnv): Settings {
  const { values } = parseArgs({
    args: argv,
    options: {
      scale: { type: 'string' },
      smoke: { type: 'boolean', default: false },
      only: { type: 'string', multiple: true },
      out: { type: 'string' },
      store: { type: 'string' },
      seed: { type: 'string' },
      scopes: { type: 'string' },
      soak: { type: 'boolean', default: false },
      'soak-minutes': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const smoke = values.smoke === true;
  const scale = count(values.scale ?? (smoke ? '10000' : (env.BENCH_SCALE ?? '1000000')), 'scale');
  const only = values.only
    ?.flatMap((v) => v.split(','))
    .map((name) => {
      if (!(BENCHMARKS as readonly string[]).includes(name)) {
        throw new Error(`unknown benchmark ${name}; choose from ${BENCHMARKS.join(', ')}`);
      }
      return name as BenchName;
    });
  const store = values.store ?? (env.BENCH_STORE || null);
  if (store !== null && !/^postgres(ql)?:\/\//.test(store)) {
    throw new Error('--store takes a postgres:// or postgresql:// URL');
  }
  return {
    scale,
    scopes:
      values.scopes === undefined ? Math.max(10, Math.round(scale / 1_000)) : count(values.scopes, 'scopes'),
    seed: values.seed === undefined ? 1 : count(values.seed, 'seed'),
    smoke,
    only: only ?? null,
    out: values.out ?? null,
    store,
    remembers: smoke ? 200 : 2_000,
    rememberWarmup: smoke ? 20 : 100,
    queries: smoke ? 200 : 1_000,
    queryWarmup: smoke ? 20 : 100,
    allScopeQueries: smoke ? 50 : 200,
    allScopeBudgetMs: smoke ? 20_000 : 120_000,
    contexts: smoke ? 30 : 300,
    contextWarmup: smoke ? 5 : 30,
    servingScale: Math.min(scale, smoke ? 10_000 : 100_000),
    mcpCalls: smoke ? 50 : 500,
    mcpWarmup: smoke ? 10 : 50,
    httpSeconds: smoke ? 2 : 10,
    httpWarmupSeconds: smoke ? 0.5 : 2,
    httpConnections: 10,
    hookRuns: smoke ? 4 : 30,
    hookWarmup: smoke ? 1 : 3,
    soakMinutes:
      values['soak-minutes'] !== undefined
        ? count(values['soak-minutes'], 'soak-minutes')
        : values.soak === true || only?.includes('soak') === true
          ? 10
          : null,
  };
}

/** `1000000`, `1_000_000`, `1,000,000`, `1e6`, `1000k`, `1m`. */
function count(text: string, what: string): number {
  const t = text.trim().toLowerCase().replace(/[_,]/g, '');
  const factor = t.endsWith('m') ? 1e6 : t.endsWith('k') ? 1e3 : 1;
  const n = Number(factor === 1 ? t : t.slice(0, -1)) * factor;
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`--${what} must be a positive whole number, got ${text}`);
  return n;
}
