/**
 * Round trips per remember on Postgres (`node bench/pg-round-trips.ts postgres://superuser@… [N]`): the ledger
 * reaches the server through a loopback proxy in this process that counts, per connection, every time the
 * client writes while the server has answered everything it sent: a wait for the network and the server (an
 * upper bound: a client that sends its next statements a moment late is counted too). N remembers
 * (default 200, after 20 warm-up ones) as the application role into a fresh database of PLANS_MEMORIES restored
 * lines; it prints round trips, statements (pg_stat_statements, if the server preloads it) and commits per
 * remember, and the wall p50 beside the load.
 */
import { createConnection, createServer, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openLedger } from '../src/index.ts';
import { connect } from '../src/store/postgres/database.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { createBenchDatabase } from './pg-database.ts';

const url = process.argv[2] ?? process.env.BENCH_STORE;
if (url === undefined) throw new Error('usage: node bench/pg-round-trips.ts postgres://… [remembers]');
const OPS = Number(process.argv[3] ?? 200);
const N = Number(process.env.PLANS_MEMORIES ?? 5000);
const log = (m: string) => process.stderr.write(`${m}\n`);

let trips = 0;
const target = new URL(url);

/** Counts the protocol messages of some types in a byte stream cut into chunks anywhere. */
function counter(types: string, startup: boolean): (chunk: Buffer) => number {
  let pending = Buffer.alloc(0);
  let untyped = startup; // the client's first message (startup) has no type byte
  const codes = new Set([...types].map((t) => t.charCodeAt(0)));
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    let n = 0;
    for (;;) {
      const head = untyped ? 0 : 1;
      if (pending.length < head + 4) return n;
      const size = head + pending.readUInt32BE(head);
      if (pending.length < size) return n;
      if (!untyped && codes.has(pending[0]!)) n++;
      untyped = false;
      pending = pending.subarray(size);
    }
  };
}

const proxy = createServer((client: Socket) => {
  const server = createConnection({ host: target.hostname, port: Number(target.port || 5432) });
  // Nagle's delay on a relayed small packet would be counted as the server's time.
  client.setNoDelay(true);
  server.setNoDelay(true);
  // A round trip: the client writes while nothing it sent is unanswered, so it had waited for every answer.
  // Each statement postgres.js sends ends in Sync ('S') or is a simple query ('Q'), each answered by
  // ReadyForQuery ('Z'), as the startup is.
  const syncs = counter('SQ', true);
  const readies = counter('Z', false);
  let open = 1;
  client.on('data', (chunk) => {
    if (open === 0) trips++;
    open += syncs(chunk);
    server.write(chunk);
  });
  server.on('data', (chunk) => {
    open -= readies(chunk);
    client.write(chunk);
  });
  const end = () => {
    client.destroy();
    server.destroy();
  };
  client.on('close', end);
  server.on('close', end);
  client.on('error', end);
  server.on('error', end);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const port = (proxy.address() as { port: number }).port;

const db = await createBenchDatabase(url, log);
const admin = connect(db.url, { max: 1 });
try {
  const dataset = new Dataset({ memories: N, scopes: Math.max(10, N / 1000), seed: 1, ...DATA_SHAPE });
  const app = new URL(await db.appUrl('bench'));
  app.port = String(port);
  const ledger = openLedger({ store: app.toString(), maintenanceUrl: db.url });
  await ledger.ready;
  const s = ledger.as(ledger.operator(), { surface: 'library', client: 'pg-round-trips' });
  await s.import(
    (async function* () {
      for (let i = 0; i < N; i++) yield dataset.line(i);
    })(),
    { mode: 'restore' },
  );
  for (let i = 0; i < 20; i++) await s.remember(dataset.rememberInput(N + i));
  const statements = await admin`create extension if not exists pg_stat_statements`
    .then(() => admin`select pg_stat_statements_reset()`)
    .then(
      () => true,
      () => false,
    );
  const [before] = await admin<{ c: number }[]>`
    select xact_commit::float8 as c from pg_stat_database where datname = current_database()`;
  const load = loadavg()[0]!;
  trips = 0;
  const walls: number[] = [];
  for (let i = 0; i < OPS; i++) {
    const started = performance.now();
    await s.remember(dataset.rememberInput(N + 20 + i));
    walls.push(performance.now() - started);
  }
  const counted = trips;
  ledger.close();
  walls.sort((a, b) => a - b);
  let perOp = 'n/a';
  if (statements) {
    const [row] = await admin<{ n: number }[]>`
      select coalesce(sum(calls), 0)::float8 as n from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database())
        and query not like '%pg_stat%'`;
    perOp = (Number(row?.n ?? 0) / OPS).toFixed(1);
  }
  // The statistics of an idle backend reach pg_stat_database within 10 s (PGSTAT_IDLE_INTERVAL).
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  await admin`select pg_stat_clear_snapshot()`;
  const [after] = await admin<{ c: number }[]>`
    select xact_commit::float8 as c from pg_stat_database where datname = current_database()`;
  const commits = ((Number(after?.c) - Number(before?.c)) / OPS).toFixed(2);
  console.log(
    `remember at ${N.toLocaleString('en')} memories: ${(counted / OPS).toFixed(2)} round trips, ${perOp} statements, ${commits} commits per remember; wall p50 ${walls[Math.floor(OPS / 2)]!.toFixed(2)} ms (${OPS} calls through the counting proxy; load ${load.toFixed(2)} -> ${loadavg()[0]!.toFixed(2)})`,
  );
} finally {
  await admin.end({ timeout: 5 });
  await db.drop();
  proxy.close();
}
