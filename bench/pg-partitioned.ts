/**
 * One measured step past one database (issue 10, docs/scaling.md): a throwaway PostgreSQL cluster holding two
 * databases, one with the store's schema as the migrations make it ("plain") and one with memories and search
 * documents hash-partitioned by tenant (pg-partitioned-schema.ts). Tenant t0 (1M memories in 1,000 scopes by
 * default) is COPYed into both and measured; then tenants t1…t9 go into the partitioned one only (10M in 10,000
 * scopes) and t0 is measured again against the plain 1M. Search and remember go through the library as a
 * `memledger_app` login (so row-level security binds the tenant), alternating between the databases call by
 * call. Prints one JSON document; progress on stderr.
 *
 *   nice -n 19 node bench/pg-partitioned.ts [--per-tenant 1m] [--tenants 10] [--scopes 1000] [--queries 500]
 *     [--writes 300] [--seed 1] [--out FILE]
 */
import { writeFileSync } from 'node:fs';
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';
import { performance } from 'node:perf_hooks';
import { type Ledger, type LedgerSession, openLedger } from '../src/index.ts';
import { migratePostgres } from '../src/store/postgres/backend.ts';
import { connect, type Sql } from '../src/store/postgres/database.ts';
import { orQuery } from '../src/store/postgres/rows.ts';
import { startPgCluster } from '../test/support/pg-cluster.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { environment, loadAverage } from './env.ts';
import { createBenchDatabase } from './pg-database.ts';
import { postmasterPid, serverCpuMs } from './pg-cpu.ts';
import { loadTenant } from './pg-partitioned-load.ts';
import { rememberPair, type Side, searchOne, searchPair } from './pg-partitioned-measure.ts';
import { INDEX_NAMES, INDEXES, PARTITIONS, partitionTables } from './pg-partitioned-schema.ts';
import { round } from './stats.ts';

const log = (m: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${m}\n`);

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const raw = (process.argv[at + 1] ?? '').toLowerCase();
  const n = Number.parseFloat(raw) * (raw.endsWith('m') ? 1e6 : raw.endsWith('k') ? 1e3 : 1);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} needs a positive number`);
  return Math.round(n);
}
const outAt = process.argv.indexOf('--out');
/**
 * `--resume URL PARTITIONED_DB PLAIN_DB`: a cluster and the two databases a run left when it was stopped during
 * its second load (its node process killed; the server keeps every committed COPY). Only the tenants given by
 * `--tenants` (the complete ones) are queried; the partitioned indexes are built, then step two is measured.
 * The cluster is not stopped at the end: whoever started it stops it.
 */
const resumeAt = process.argv.indexOf('--resume');
const resume =
  resumeAt < 0
    ? null
    : {
        url: process.argv[resumeAt + 1]!,
        partitioned: process.argv[resumeAt + 2]!,
        plain: process.argv[resumeAt + 3]!,
      };
const settings = {
  perTenant: option('per-tenant', 1_000_000),
  tenants: option('tenants', 10),
  scopesPerTenant: option('scopes', 1_000),
  queries: option('queries', 500),
  queryWarmup: option('query-warmup', 50),
  writes: option('writes', 300),
  writeWarmup: option('write-warmup', 30),
  seed: option('seed', 1),
};
const tenantName = (k: number) => `t${k}`;
const datasets = Array.from(
  { length: settings.tenants },
  (_, k) =>
    new Dataset({
      memories: settings.perTenant,
      scopes: settings.scopesPerTenant,
      seed: settings.seed + k,
      ...DATA_SHAPE,
    }),
);

/** Measurement runs at normal priority, loads at the lowest: this process and every server process. */
function niceness(postmaster: number | null, value: number): void {
  setPriority(process.pid, value);
  if (postmaster === null) return;
  setPriority(postmaster, value);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === postmaster) {
        setPriority(Number(entry), value);
      }
    } catch {
      // gone
    }
  }
}

interface Db {
  name: string;
  /** The database's own name (memledger_bench_…). */
  database: string;
  url: string;
  admin: Sql;
  partitioned: boolean;
  nextSeq: number;
}

async function dropIndexes(db: Db): Promise<void> {
  for (const name of INDEX_NAMES) await db.admin.unsafe(`drop index if exists memledger.${name}`);
}

/** Secondary indexes (as migrations 1, 8 and 10 define them), then VACUUM ANALYZE. */
async function buildIndexes(db: Db): Promise<{ indexSeconds: number; vacuumSeconds: number }> {
  const t0 = performance.now();
  await db.admin.unsafe(INDEXES);
  const t1 = performance.now();
  await db.admin.unsafe(
    'vacuum (analyze) memledger.memories, memledger.search_docs, memledger.memory_subjects, memledger.scope_stats',
  );
  const seconds = (a: number, b: number) => round((b - a) / 1000, 1);
  return { indexSeconds: seconds(t0, t1), vacuumSeconds: seconds(t1, performance.now()) };
}

/** Loads tenants `from`…`to-1` into `db`, timed in wall, this process's CPU and the server's CPU. */
async function load(db: Db, from: number, to: number, postmaster: number | null) {
  await dropIndexes(db);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const server = serverCpuMs(postmaster);
  let nextLog = 0;
  for (let k = from; k < to; k++) {
    db.nextSeq = await loadTenant(
      db.admin,
      tenantName(k),
      datasets[k]!,
      settings.perTenant,
      db.nextSeq,
      (t, d, n) => {
        if (d < nextLog && d !== n) return;
        log(`  ${db.name}: ${t} ${d.toLocaleString('en')}/${n.toLocaleString('en')}`);
        nextLog = d + 250_000;
        if (d === n) nextLog = 0;
      },
    );
  }
  await db.admin.unsafe(
    `select setval(pg_get_serial_sequence('memledger.memories', 'seq'), ${db.nextSeq - 1})`,
  );
  const copySeconds = round((performance.now() - wall) / 1000, 1);
  log(`  ${db.name}: COPY done in ${copySeconds} s; building indexes`);
  const built = await buildIndexes(db);
  const used = process.cpuUsage(cpu);
  const serverAfter = serverCpuMs(postmaster);
  const memories = (to - from) * settings.perTenant;
  const totalSeconds = round((performance.now() - wall) / 1000, 1);
  log(`  ${db.name}: loaded ${memories.toLocaleString('en')} in ${totalSeconds} s`);
  return {
    memories,
    copySeconds,
    ...built,
    totalSeconds,
    copyPerSecond: Math.round(memories / copySeconds),
    benchCpuSeconds: round((used.user + used.system) / 1e6, 1),
    serverCpuSeconds:
      server === null || serverAfter === null ? null : round((serverAfter - server) / 1000, 1),
  };
}

/** Row counts and sizes of the two tables, per partition on the partitioned database. */
async function sizes(db: Db) {
  const rows = await db.admin<{ rel: string; rows: number; bytes: number }[]>`
    select c.relname as rel, c.reltuples::float8 as rows, pg_total_relation_size(c.oid)::float8 as bytes
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'memledger' and c.relkind in ('r', 'p')
      and (c.relname like 'memories%' or c.relname like 'search_docs%')
    order by c.relname`;
  const [size] = await db.admin<{ b: number }[]>`select pg_database_size(current_database())::float8 as b`;
  const tenants = await db.admin<{ p: string; tenant: string; n: number }[]>`
    select tableoid::regclass::text as p, tenant, count(*)::float8 as n from memledger.memories
    group by 1, 2 order by 1, 2`;
  return {
    databaseGB: round(size!.b / 1e9, 2),
    relations: rows.map((r) => ({ rel: r.rel, rows: r.rows, MB: round(r.bytes / 1e6, 1) })),
    memoriesByPartitionAndTenant: tenants.map((t) => ({ partition: t.p, tenant: t.tenant, memories: t.n })),
  };
}

/**
 * The scoped match as memledger.search_matches runs it (its statement, with the partitioned schema's tenant
 * test, pg-partitioned-schema.ts), EXPLAINed as the schema's owner with sequential scans off as the function
 * sets them, in tenant t0: which partitions and which index a scoped search reads.
 */
async function explain(url: string, scope: string, terms: string): Promise<string[]> {
  const sql = connect(url, { max: 1 });
  try {
    return await sql.begin(async (tx) => {
      await tx`set local enable_seqscan = off`;
      const rows = await tx.unsafe(
        `explain (analyze, buffers, costs off)
         select d.seq, d.tsv from memledger.search_docs d
         where d.tenant = $1 and d.tenant || '' = $1 and d.idx = any($2::text[])
           and (d.tsv || array_to_tsvector(array[' ' || d.tenant || ' ' || d.scope])) @@ ($3::tsquery && $4::tsquery)
         order by d.seq desc limit 101`,
        ['t0', ['current'], `' t0 ${scope}'`, terms],
      );
      return rows.map((r) => String(Object.values(r)[0]));
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
}

async function main(): Promise<void> {
  const startedAt = new Date().toISOString();
  const report: Record<string, unknown> = { startedAt, settings, partitions: PARTITIONS, env: environment() };
  report.loadStart = loadAverage();
  log(`settings ${JSON.stringify(settings)}`);
  const cluster = resume === null ? await startPgCluster() : { url: resume.url, stop() {} };
  const ledgers: Ledger[] = [];
  const dbs: Db[] = [];
  try {
    const postmaster = await postmasterPid(cluster.url);
    niceness(postmaster, 19);
    const root = connect(cluster.url, { max: 1 });
    const [version] = await root<{ v: string }[]>`select version() as v`;
    report.server = version!.v;
    if (resume === null) {
      // Fewer checkpoints during the load; bigger sorts for the index builds. Reloadable settings only.
      await root.unsafe(`alter system set max_wal_size = '8GB'`);
      await root.unsafe(`alter system set checkpoint_timeout = '30min'`);
      await root.unsafe(`alter system set maintenance_work_mem = '1GB'`);
      await root.unsafe('select pg_reload_conf()');
      for (const partitioned of [true, false]) {
        const created = await createBenchDatabase(cluster.url, log);
        await migratePostgres(created.url, {});
        const admin = connect(created.url, { max: 4 });
        if (partitioned) await partitionTables(admin);
        dbs.push({
          name: partitioned ? 'partitioned' : 'plain',
          database: created.name,
          url: created.url,
          admin,
          partitioned,
          nextSeq: 1,
        });
      }
    } else {
      for (const [name, database] of [
        ['partitioned', resume.partitioned],
        ['plain', resume.plain],
      ] as const) {
        const u = new URL(cluster.url);
        u.pathname = `/${database}`;
        const admin = connect(u.toString(), { max: 4 });
        dbs.push({
          name,
          database,
          url: u.toString(),
          admin,
          partitioned: name === 'partitioned',
          nextSeq: 1,
        });
      }
    }
    await root.unsafe(`do $$ begin create role memledger_server login in role memledger_app;
      exception when duplicate_object then null; end $$`);
    await root.end({ timeout: 5 });
    const [part, plain] = dbs as [Db, Db];
    const appUrl = (db: Db, tenant: string) => {
      const u = new URL(db.url);
      u.username = 'memledger_server';
      u.searchParams.set('tenant', tenant);
      return u.toString();
    };
    const open = async (db: Db, tenant: string): Promise<LedgerSession> => {
      const ledger = openLedger({ store: appUrl(db, tenant) });
      ledgers.push(ledger);
      await ledger.ready;
      return ledger.as(ledger.operator(), { surface: 'library', client: 'memledger-bench' });
    };

    const loads: Record<string, unknown> = {};
    if (resume === null) {
      log(`phase 1: t0 (${settings.perTenant.toLocaleString('en')}) into both databases`);
      loads.partitioned1 = await load(part, 0, 1, postmaster);
      loads.plain1 = await load(plain, 0, 1, postmaster);
    }
    const sides: [Side, Side] = [
      { name: 'partitioned', database: part.database, session: await open(part, 't0') },
      { name: 'plain', database: plain.database, session: await open(plain, 't0') },
    ];
    const queries = datasets[0]!.queries(settings.queryWarmup + settings.queries, 1);
    const inputs = (offset: number) =>
      Array.from({ length: settings.writeWarmup + settings.writes }, (_, j) =>
        datasets[0]!.rememberInput(settings.perTenant + offset + j),
      );
    const measure = async (label: string, extra: boolean) => {
      niceness(postmaster, 0);
      try {
        const at = { loadAverage: loadAverage(), uptime: readFileSync('/proc/loadavg', 'utf8').trim() };
        log(`${label}: search (${settings.queries} measured per side, after ${settings.queryWarmup})`);
        const search = await searchPair(part.admin, sides, queries, settings.queryWarmup);
        log(`${label}: search p50 ${JSON.stringify(Object.values(search.sides).map((s) => s.p50Ms))}`);
        let allTenants: unknown = null;
        if (extra) {
          const sessions = new Map<string, LedgerSession>();
          for (let k = 0; k < settings.tenants; k++)
            sessions.set(tenantName(k), await open(part, tenantName(k)));
          const mixed = datasets.flatMap((d, k) =>
            d
              .queries(Math.ceil((settings.queryWarmup + settings.queries) / settings.tenants), 3)
              .map((q) => ({
                ...q,
                tenant: tenantName(k),
              })),
          );
          allTenants = await searchOne(sessions, mixed, settings.queryWarmup);
        }
        log(`${label}: remember (${settings.writes} measured per side, after ${settings.writeWarmup})`);
        const remember = await rememberPair(
          part.admin,
          sides,
          inputs(extra ? 100_000 : 0),
          settings.writeWarmup,
        );
        log(`${label}: remember p50 ${JSON.stringify(Object.values(remember.sides).map((s) => s.p50Ms))}`);
        const q = queries[settings.queryWarmup]!;
        const plan = await explain(part.url, q.scope, orQuery(q.terms)!);
        return {
          at,
          end: { loadAverage: loadAverage() },
          search,
          searchAllTenantsPartitioned: allTenants,
          remember,
          planPartitioned: plan,
        };
      } finally {
        niceness(postmaster, 19);
      }
    };
    const steps: Record<string, unknown> = {};
    if (resume !== null) {
      log('resumed: building the partitioned indexes');
      const [top] = await part.admin<{ m: number; n: number }[]>`
        select coalesce(max(seq), 0)::float8 as m, count(*)::float8 as n from memledger.memories`;
      await part.admin.unsafe(
        `select setval(pg_get_serial_sequence('memledger.memories', 'seq'), ${top!.m})`,
      );
      const wall = performance.now();
      loads.partitionedResumedIndexes = {
        ...(await buildIndexes(part)),
        totalSeconds: round((performance.now() - wall) / 1000, 1),
      };
      steps.allTenants = {
        partitionedMemories: top!.n,
        plainMemories: settings.perTenant,
        ...(await measure(`${settings.tenants} tenants (resumed)`, true)),
      };
    } else {
      steps.oneTenant = {
        partitionedMemories: settings.perTenant,
        plainMemories: settings.perTenant,
        ...(await measure('t0 alone', false)),
      };
    }
    if (resume === null && settings.tenants > 1) {
      log(`phase 2: t1…t${settings.tenants - 1} into the partitioned database`);
      loads.partitionedRest = await load(part, 1, settings.tenants, postmaster);
      steps.allTenants = {
        partitionedMemories: settings.perTenant * settings.tenants,
        plainMemories: settings.perTenant,
        ...(await measure(`${settings.tenants} tenants`, true)),
      };
    }
    report.loads = loads;
    report.steps = steps;
    report.sizes = { partitioned: await sizes(part), plain: await sizes(plain) };
  } finally {
    for (const l of ledgers) l.close();
    for (const db of dbs) await db.admin.end({ timeout: 5 }).catch(() => {});
    cluster.stop();
  }
  report.loadEnd = loadAverage();
  report.endedAt = new Date().toISOString();
  const text = `${JSON.stringify(report, null, 2)}\n`;
  if (outAt >= 0) writeFileSync(process.argv[outAt + 1]!, text);
  process.stdout.write(text);
}

main().catch((error: unknown) => {
  process.stderr.write(`pg-partitioned: ${(error as Error).stack ?? String(error)}\n`);
  process.exitCode = 1;
});
