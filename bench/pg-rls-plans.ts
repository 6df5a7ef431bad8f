/**
 * The product's statements under row-level security (`node bench/pg-rls-plans.ts postgres://superuser@… [measure]`):
 * a fresh database, PLANS_MEMORIES restored into tenant `bench`, then through the library as a `memledger_app`
 * login (a superuser bypasses RLS and gets other plans, issue 10) either
 * - (default) a remember, a supersede, a keyed search, a search and a context call with auto_explain (ANALYZE,
 *   BUFFERS) on that role, so every statement is logged with the plan it ran: read them in the server log
 *   (grep `Seq Scan` / `Filter:`); or
 * - `measure`: PLANS_REMEMBERS remembers, their wall p50 and the server's CPU per remember (from /proc, the
 *   postmaster and its children, when the server runs on this machine), the load average beside them.
 */
import { openLedger } from '../src/index.ts';
import { connect } from '../src/store/postgres/database.ts';
import { migratePostgres } from '../src/store/postgres/backend.ts';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { createBenchDatabase } from './pg-database.ts';
import { postmasterPid, serverCpuMs } from './pg-cpu.ts';

const url = process.argv[2];
const measure = process.argv[3] === 'measure';
const REMEMBERS = Number(process.env.PLANS_REMEMBERS ?? 200);
if (url === undefined) throw new Error('usage: node bench/pg-rls-plans.ts postgres://…');
const N = Number(process.env.PLANS_MEMORIES ?? 100_000);
const log = (m: string) => process.stderr.write(`${m}\n`);

const db = await createBenchDatabase(url, log);
const admin = connect(db.url, { max: 1 });
try {
  await migratePostgres(db.url, {});
  const dataset = new Dataset({ memories: N, scopes: Math.max(10, N / 1000), seed: 1, ...DATA_SHAPE });
  const loader = openLedger({ store: `${db.url}?tenant=bench` });
  await loader.ready;
  const lines = async function* () {
    for (let i = 0; i < N; i++) yield dataset.line(i);
  };
  await loader
    .as(loader.operator(), { surface: 'library', client: 'pg-rls-plans' })
    .import(lines(), { mode: 'restore' });
  loader.close();
  await admin.unsafe('analyze');
  const role = `${db.name}_app`;
  await admin.unsafe(`create role ${role} login in role memledger_app`);
  for (const [k, v] of (measure
    ? []
    : [
        ['session_preload_libraries', 'auto_explain'],
        ['auto_explain.log_min_duration', '0'],
        ['auto_explain.log_analyze', 'on'],
        ['auto_explain.log_buffers', 'on'],
        ['auto_explain.log_nested_statements', 'on'],
      ]) as [string, string][]) {
    await admin.unsafe(`alter role ${role} set ${k} = '${v}'`);
  }
  const app = new URL(db.url);
  app.username = role;
  app.searchParams.set('tenant', 'bench');
  const ledger = openLedger({ store: app.toString(), maintenanceUrl: db.url });
  await ledger.ready;
  const s = ledger.as(ledger.operator(), { surface: 'library', client: 'pg-rls-plans' });
  const step = async (name: string, fn: () => Promise<unknown>) => {
    log(`step ${name}`);
    await admin.unsafe(`do $$ begin raise log 'STEP ${name}'; end $$`);
    await fn();
  };
  if (measure) {
    const postmaster = await postmasterPid(db.url);
    for (let i = 0; i < 20; i++) await s.remember(dataset.rememberInput(N + i)); // warm-up
    const walls: number[] = [];
    const cpuBefore = serverCpuMs(postmaster);
    const load = loadavg()[0]!;
    for (let i = 0; i < REMEMBERS; i++) {
      const started = performance.now();
      await s.remember(dataset.rememberInput(N + 20 + i));
      walls.push(performance.now() - started);
    }
    const cpuAfter = serverCpuMs(postmaster);
    walls.sort((x, y) => x - y);
    const p = (q: number) => walls[Math.min(walls.length - 1, Math.floor(q * walls.length))]!.toFixed(2);
    const dbCpu =
      cpuBefore === null || cpuAfter === null ? 'n/a' : ((cpuAfter - cpuBefore) / REMEMBERS).toFixed(2);
    console.log(
      `remember as memledger_app at ${N.toLocaleString('en')} memories: p50 ${p(0.5)} ms, p95 ${p(0.95)} ms wall, database CPU ${dbCpu} ms per remember (${REMEMBERS} calls; load ${load.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)})`,
    );
  } else {
    await step('remember', () => s.remember(dataset.rememberInput(N + 1)));
    const keyed = Array.from({ length: N }, (_, i) => dataset.rememberInput(i)).find(
      (m) => m.key !== undefined,
    )!;
    await step('supersede', () => s.remember({ ...keyed, body: `${keyed.body} (changed)` }));
    await step('search-key', () =>
      s.search({ query: keyed.body.split(' ')[0]!, scopes: [keyed.scope], key: keyed.key! }),
    );
    const [q] = dataset.queries(1, 1);
    await step('search', () => s.search({ query: q!.text, scopes: [q!.scope] }));
    await step('context', () => s.context({ scopes: [q!.scope], task: q!.text }));
  }
  ledger.close();
  await admin.unsafe(`drop owned by ${role}`).catch(() => undefined);
  await admin.unsafe(`drop role ${role}`).catch(() => undefined);
} finally {
  await admin.end({ timeout: 5 });
  if (process.env.PLANS_KEEP === '1') log(`kept ${db.name}`);
  else await db.drop();
}
