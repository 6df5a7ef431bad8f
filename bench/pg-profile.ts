/**
 * Statements per operation on Postgres (`node bench/pg-profile.ts postgres://…`): counts what the server ran for
 * one restore batch, one remember and one scoped search, from `pg_stat_statements` (the server must preload it:
 * `-c shared_preload_libraries=pg_stat_statements`), and each operation's wall time. The counts are the round
 * trips the store makes (BEGIN and COMMIT included); the bench's figures say what they cost.
 */
import { performance } from 'node:perf_hooks';
import { openLedger } from '../src/index.ts';
import { connect } from '../src/store/postgres/database.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { createBenchDatabase } from './pg-database.ts';

const url = process.argv[2] ?? process.env.BENCH_STORE;
if (url === undefined) throw new Error('usage: node bench/pg-profile.ts postgres://…');
const N = Number(process.env.PROFILE_MEMORIES ?? 5000);
const OPS = 50;
const log = (m: string) => process.stderr.write(`${m}\n`);

const db = await createBenchDatabase(url, log);
const admin = connect(db.url, { max: 1 });
try {
  await admin`create extension if not exists pg_stat_statements`;
  const dataset = new Dataset({ memories: N, scopes: Math.max(10, N / 1000), seed: 1, ...DATA_SHAPE });
  // As the application role, as serve runs: a superuser bypasses row-level security, and its plans lack the
  // tenant predicate the store's indexes lead with (pg-database.ts appUrl).
  const ledger = openLedger({ store: await db.appUrl('bench'), maintenanceUrl: db.url });
  await ledger.ready;
  const session = ledger.as(ledger.operator(), { surface: 'library', client: 'pg-profile' });
  const lines = (from: number, to: number) =>
    (async function* () {
      for (let i = from; i < to; i++) yield dataset.line(i);
    })();
  await session.import(lines(0, N - 1000), { mode: 'restore' });

  // Commits of this database and WAL fsyncs of the whole server (run on a server nothing else writes to): what
  // the round trips' waits are made of. The statistics are read from a snapshot, cleared first.
  const serverCounts = async () => {
    // An idle backend reports its counts within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL).
    await new Promise((resolve) => setTimeout(resolve, 11_000));
    await admin`select pg_stat_clear_snapshot()`;
    const [row] = await admin<{ commits: number; syncs: number }[]>`
      select (select xact_commit from pg_stat_database where datname = current_database())::float8 as commits,
             (select wal_sync from pg_stat_wal)::float8 as syncs`;
    return { commits: Number(row?.commits ?? 0), syncs: Number(row?.syncs ?? 0) };
  };
  const profile = async (name: string, ops: number, fn: () => Promise<unknown>) => {
    await admin`select pg_stat_statements_reset()`;
    const before = await serverCounts();
    const started = performance.now();
    const cpu = process.cpuUsage();
    await fn();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    const rows = await admin<{ query: string; calls: number }[]>`
      select query, calls::int as calls from pg_stat_statements
      where query not like '%pg_stat_statements%'
        and dbid = (select oid from pg_database where datname = current_database()) order by calls desc`;
    const after = await serverCounts();
    const total = rows.reduce((n, r) => n + r.calls, 0);
    const per = (k: 'commits' | 'syncs') => ((after[k] - before[k]) / ops).toFixed(2);
    console.log(
      `\n## ${name}: ${(total / ops).toFixed(1)} statements per op, ${per('commits')} commits and ${per('syncs')} WAL fsyncs (server-wide) per op, ${(ms / ops).toFixed(2)} ms wall, ${(cpuMs / ops).toFixed(2)} ms CPU of this process per op`,
    );
    for (const r of rows.slice(0, 25)) {
      console.log(`${(r.calls / ops).toFixed(2).padStart(7)}  ${r.query.replace(/\s+/g, ' ').slice(0, 150)}`);
    }
  };
  await profile('restore of 1,000 lines (one batch), per line', 1000, () =>
    session.import(lines(N - 1000, N), { mode: 'restore' }),
  );
  let j = 0;
  await profile('remember', OPS, async () => {
    for (let i = 0; i < OPS; i++) await session.remember(dataset.rememberInput(N + j++));
  });
  const queries = dataset.queries(OPS, 1);
  await profile('scoped search', OPS, async () => {
    for (const q of queries) await session.search({ query: q.text, scopes: [q.scope] });
  });
  ledger.close();
} finally {
  await admin.end({ timeout: 5 });
  // PROFILE_KEEP=1 leaves the database for EXPLAIN (drop it yourself).
  if (process.env.PROFILE_KEEP === '1') log(`kept ${db.name}`);
  else await db.drop();
}
