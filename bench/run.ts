/**
 * `npm run bench`: builds a memledger home and a raw node:sqlite baseline from the same generated memories,
 * runs each benchmark against its baseline in the same process, and prints one JSON report on stdout
 * (progress goes to stderr). Exit code 1 means the harness failed, never that a target was missed.
 */
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type BenchName, parseSettings, USAGE } from './args.ts';
import { benchBulkImport } from './cases/bulk-import.ts';
import { benchBulkImportIngest } from './cases/bulk-import-ingest.ts';
import { benchContext } from './cases/context.ts';
import { benchDisk } from './cases/disk.ts';
import { benchHookProcess } from './cases/hook-process.ts';
import { benchHttpReplicas } from './cases/http-replicas.ts';
import { benchHttpSearch } from './cases/http-search.ts';
import { benchMcpStdio } from './cases/mcp-stdio.ts';
import { benchPeers } from './cases/peers.ts';
import { benchRemember } from './cases/remember.ts';
import { benchSoak } from './cases/soak.ts';
import { benchSearchAllScopes, benchSearchScoped } from './cases/search.ts';
import { benchWorkspace } from './cases/workspace.ts';
import { benchWorkspaceRestore } from './cases/workspace-restore.ts';
import {
  closeContext,
  type Context,
  DATA_SHAPE,
  makeWorkDir,
  openContext,
  removeWorkDir,
} from './context.ts';
import { environment, loadAverage } from './env.ts';
import { killChildren } from './procs.ts';
import type { BenchResult } from './report.ts';
import { round } from './stats.ts';
import { targetTable } from './table.ts';

// Order matters: the import builds both stores, disk is measured right after it, writes come last. The
// process benchmarks (MCP, HTTP, hook) share a smaller serving home, built by the first of them that runs.
const CASES: [BenchName, (ctx: Context) => Promise<BenchResult>][] = [
  ['bulk_import', benchBulkImport],
  ['bulk_import_ingest', benchBulkImportIngest],
  ['disk', benchDisk],
  ['search_scoped', benchSearchScoped],
  ['search_all_scopes', benchSearchAllScopes],
  ['context', benchContext],
  ['mcp_stdio_search', benchMcpStdio],
  ['http_search', benchHttpSearch],
  ['hook_process', benchHookProcess],
  ['remember', benchRemember],
  ['peers', benchPeers],
  ['workspace', benchWorkspace],
  ['workspace_restore', benchWorkspaceRestore],
  // Only with --soak or --soak-minutes: it takes minutes of wall time by design.
  ['soak', benchSoak],
];

/**
 * What does not run on a Postgres store, and why: the report carries these reasons in `skipped`. The other
 * cases run on the bench's database, http_search as replicas (cases/http-replicas.ts).
 */
const POSTGRES_SKIPS: Partial<Record<BenchName, string>> = {
  bulk_import_ingest:
    'its raw baseline is a node:sqlite file; on a database the restore (bulk_import) is what is measured',
  disk: 'bytes per memory of memory.db: a home file; a database has no per-store file to weigh',
  mcp_stdio_search:
    'a stdio MCP server is one local process per client on a home; on a database MCP is served over HTTP by the replicas (http_search)',
  hook_process: 'the session hook reads the home of a local client: a file-based, single-machine path',
  soak: 'the serve soak runs on an embedded home; on a database, issue 10 owns the replicas under load',
  peers:
    'the peer (the MCP reference memory server) is a local stdio process on a file; it is compared with memledger on embedded homes',
  workspace:
    'the workspace engine runs on a local SQLite file whatever the store; measured on the embedded run',
};

/** The benchmarks that run only on the serving home (serving.ts), not on the main one. */
const SERVING_CASES: ReadonlySet<BenchName> = new Set([
  'mcp_stdio_search',
  'http_search',
  'hook_process',
  'soak',
]);
/** Benchmarks that build their own homes or data and need neither the main nor the serving one. */
const OWN_HOME_CASES: ReadonlySet<BenchName> = new Set([
  'bulk_import_ingest',
  'workspace',
  'workspace_restore',
  'peers',
]);

async function main(): Promise<void> {
  let settings: ReturnType<typeof parseSettings>;
  try {
    settings = parseSettings(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
  const t0 = performance.now();
  // Taken before any work: the code measured is the code loaded now, whatever the tree holds at the end.
  const env = environment();
  const loadAtStart = loadAverage();
  const log = (message: string) =>
    process.stderr.write(`[bench ${((performance.now() - t0) / 1000).toFixed(1).padStart(6)}s] ${message}\n`);
  const dir = makeWorkDir();
  let ctx: Context | null = null;
  const abort = () => {
    try {
      killChildren();
      // The process is ending: closing (and a Postgres run's database drop) gets what time it has.
      if (ctx !== null) void closeContext(ctx).catch(() => undefined);
    } finally {
      removeWorkDir(dir);
      setTimeout(() => process.exit(130), ctx?.database ? 2_000 : 0);
    }
  };
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);

  const benchmarks: Partial<Record<BenchName, BenchResult>> = {};
  const skipped: Partial<Record<BenchName, string>> = {};
  let generation: Context['generation'];
  let store: { backend: string; server?: string; serverVersion?: string } = { backend: 'sqlite' };
  // The whole report, or (`partial`) the cases done so far: a long run (5M) that is stopped keeps what it measured.
  const compose = (partial: boolean) => {
    const judged = Object.entries(benchmarks).filter(([, b]) => b.pass !== null);
    return {
      harness: 'memledger bench',
      mode: settings.smoke ? 'smoke' : 'full',
      partial: partial ? true : undefined,
      note: settings.smoke
        ? 'smoke run: targets are defined at 1M memories; pass/fail here only shows the harness works'
        : undefined,
      finishedAt: new Date().toISOString(),
      durationSeconds: round((performance.now() - t0) / 1000, 1),
      environment: { ...env, loadAverage: { atStart: loadAtStart, atEnd: loadAverage() } },
      store,
      scale: {
        memories: settings.scale,
        scopes: settings.scopes,
        seed: settings.seed,
        ...DATA_SHAPE,
        bodyWords: '8-30',
        importFile: generation,
        servingHomeMemories: settings.store === null ? settings.servingScale : undefined,
      },
      benchmarks,
      skipped: Object.keys(skipped).length > 0 ? skipped : undefined,
      summary: {
        passed: judged.filter(([, b]) => b.pass).map(([name]) => name),
        failed: judged.filter(([, b]) => !b.pass).map(([name]) => name),
      },
    };
  };
  try {
    // The import builds the main home every benchmark but the process ones stands on: it runs whenever one of
    // those is chosen. The process benchmarks build their own serving home. Without it the 5M-line import file is
    // not written either (`--only bulk_import_ingest` writes its own plain lines).
    const needsMainHome =
      settings.store !== null ||
      (settings.only?.some((name) => !SERVING_CASES.has(name) && !OWN_HOME_CASES.has(name)) ?? true);
    ctx = await openContext(settings, dir, log, { importFile: needsMainHome });
    generation = ctx.generation;
    if (ctx.database !== null) store = { ...storeOf(settings), serverVersion: ctx.database.serverVersion };
    const onPostgres = ctx.backend === 'postgres';
    for (const [name, run] of CASES) {
      const chosen = settings.only === null || settings.only.includes(name);
      if (!chosen && !(name === 'bulk_import' && needsMainHome)) continue;
      if (name === 'soak' && settings.soakMinutes === null) continue;
      const skip =
        name === 'bulk_import' && ctx.template !== null
          ? `both stores were cloned from ${ctx.template}, loaded by bench/pg-template.ts (its output has this figure)`
          : onPostgres
            ? POSTGRES_SKIPS[name]
            : undefined;
      if (skip !== undefined) {
        if (chosen) skipped[name] = skip;
        log(`${name}: skipped on postgres (${skip})`);
        continue;
      }
      const figures = await (onPostgres && name === 'http_search' ? benchHttpReplicas : run)(ctx);
      if (chosen) benchmarks[name] = figures;
      if (chosen && settings.out !== null)
        writeFileSync(settings.out, `${JSON.stringify(compose(true), null, 2)}\n`);
    }
  } finally {
    process.off('SIGINT', abort);
    process.off('SIGTERM', abort);
    try {
      killChildren();
      if (ctx !== null) await closeContext(ctx);
    } finally {
      removeWorkDir(dir);
    }
  }

  const report = compose(false);
  const json = JSON.stringify(report, null, 2);
  process.stdout.write(`${json}\n`);
  if (settings.out !== null) writeFileSync(settings.out, `${json}\n`);
  process.stderr.write(
    `\nTargets (load average ${loadAtStart.join(', ')} at start, ${report.environment.loadAverage.atEnd.join(', ')} at end):\n${targetTable(benchmarks, report.store.backend === 'postgres' ? 'postgres' : 'sqlite')}\n\n`,
  );
  log(`done: ${report.summary.passed.length} targets met, ${report.summary.failed.length} missed`);
}

/** The store measured, as the report names it: the backend and, for Postgres, the server without credentials. */
function storeOf(settings: ReturnType<typeof parseSettings>): { backend: string; server?: string } {
  if (settings.store === null) return { backend: 'sqlite' };
  const url = new URL(settings.store);
  return { backend: 'postgres', server: `${url.hostname}:${url.port || '5432'}` };
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
