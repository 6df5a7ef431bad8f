/**
 * The restore of the bench's lines on Postgres by COPY beside the per-line statements, in the same run
 * (`node bench/pg-copy-compare.ts postgres://… [N] [copy|perLine|both]`): lines per second, this process's CPU
 * per line and the server's (its processes' CPU from /proc when it runs on this machine), each side into a
 * tenant of its own, rounds alternating so a change of the machine's load falls on both. `copy` alone profiles
 * the bulk path (`node --cpu-prof bench/pg-copy-compare.ts URL 20000 copy`).
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { openLedger } from '../src/index.ts';
import type { PostgresStore } from '../src/store/postgres/store.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { postmasterPid, serverCpuMs } from './pg-cpu.ts';
import { createBenchDatabase } from './pg-database.ts';

const url = process.argv[2] ?? process.env.BENCH_STORE;
if (url === undefined)
  throw new Error('usage: node bench/pg-copy-compare.ts postgres://… [lines per round] [copy|perLine|both]');
const N = Number(process.argv[3] ?? 10_000);
const only = process.argv[4] ?? 'both';
const ROUNDS = 2;
const log = (m: string) => process.stderr.write(`${m}\n`);

const db = await createBenchDatabase(url, log);
try {
  const dataset = new Dataset({ memories: N * ROUNDS * 2, scopes: 100, seed: 1, ...DATA_SHAPE });
  // Made before any clock starts, as the bench's file is: the process's CPU is the restore's, not the data's.
  const all = Array.from({ length: N * ROUNDS * 2 }, (_, i) => dataset.line(i));
  const postmaster = await postmasterPid(db.url);
  const loads: number[] = [];
  const sides = {
    copy: { lines: 0, ms: 0, cpuMs: 0, dbCpuMs: 0 },
    perLine: { lines: 0, ms: 0, cpuMs: 0, dbCpuMs: 0 },
  };
  let next = 0;
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of ['copy', 'perLine'] as const) {
      if (only !== 'both' && only !== side) continue;
      const ledger = openLedger({
        store: await db.appUrl(side === 'copy' ? 'copy' : 'per_line'),
        maintenanceUrl: db.url,
      });
      await ledger.ready;
      (ledger.store as PostgresStore).copyBatches = side === 'copy';
      const session = ledger.as(ledger.operator(), { surface: 'library', client: 'pg-copy-compare' });
      const from = next;
      next += N;
      const lines = (async function* () {
        for (let i = from; i < from + N; i++) yield all[i]!;
      })();
      loads.push(loadavg()[0]!);
      const dbBefore = serverCpuMs(postmaster);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const result = await session.import(lines, { mode: 'restore' });
      const s = sides[side];
      s.ms += performance.now() - started;
      const used = process.cpuUsage(cpu);
      s.cpuMs += (used.user + used.system) / 1000;
      const dbAfter = serverCpuMs(postmaster);
      if (dbBefore !== null && dbAfter !== null) s.dbCpuMs += dbAfter - dbBefore;
      s.lines += result.imported + result.held + result.rejected + result.skipped;
      if (result.failed.length > 0) throw new Error(`${side}: ${result.failed.length} lines failed`);
      ledger.close();
      await (ledger.store as PostgresStore).end();
    }
  }
  const out = Object.fromEntries(
    Object.entries(sides)
      .filter(([, s]) => s.lines > 0)
      .map(([k, s]) => [
        k,
        {
          lines: s.lines,
          perSecond: Math.round((s.lines / s.ms) * 1000),
          processCpuMsPerLine: Number((s.cpuMs / s.lines).toFixed(4)),
          serverCpuMsPerLine: postmaster === null ? null : Number((s.dbCpuMs / s.lines).toFixed(4)),
        },
      ]),
  );
  const load = `load average ${Math.min(...loads).toFixed(2)}-${Math.max(...loads).toFixed(2)} at the rounds' starts`;
  console.log(JSON.stringify({ ...out, load }, null, 2));
} finally {
  await db.drop();
}
