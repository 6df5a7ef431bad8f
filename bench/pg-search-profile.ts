/**
 * `node [--cpu-prof] bench/pg-search-profile.ts URL TEMPLATE --scale N [--queries N] [--write F | --compare F]`:
 * the bench's scoped search loop (search_scoped's queries, one scope each, as the operator) on a fresh clone of
 * a Postgres template, for a CPU profile of the bench process and for the check that a change to the Postgres
 * search path returns the same ids in the same order (with scores and why) for the same queries. Prints the
 * search's CPU p50 in this process; drops the clone at the end.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { openLedger } from '../src/index.ts';
import { parseSettings } from './args.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { createBenchDatabase } from './pg-database.ts';

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    scale: { type: 'string', default: '100k' },
    queries: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    write: { type: 'string' },
    compare: { type: 'string' },
  },
});
const [url, template] = positionals;
if (url === undefined || template === undefined) {
  process.stderr.write('usage: node bench/pg-search-profile.ts URL TEMPLATE --scale N\n');
  process.exit(2);
}
const settings = parseSettings(['--scale', values.scale], {});
const dataset = new Dataset({
  memories: settings.scale,
  scopes: settings.scopes,
  seed: settings.seed,
  ...DATA_SHAPE,
});
const queries = dataset.queries(Number(values.queries), 1);
const db = await createBenchDatabase(url, (m) => process.stderr.write(`${m}\n`), template);
try {
  const store = await db.appUrl('bench');
  // A fixed clock: recency weights depend on the time, and the same searches must score the same each run.
  const ledger = openLedger({ store, maintenanceUrl: db.url, now: () => '2025-01-01T00:00:00.000Z' });
  await ledger.ready;
  const session = ledger.as(ledger.operator(), { surface: 'library', client: 'pg-search-profile' });
  const out: unknown[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const q of queries) {
      const start = process.cpuUsage();
      const found = await session.search({ query: q.text, scopes: [q.scope] });
      const used = process.cpuUsage(start);
      if (round > 0) cpu.push((used.user + used.system) / 1000);
      if (round === 0) out.push(found.hits.map((h) => ({ id: h.memory.id, score: h.score, why: h.why })));
    }
  }
  ledger.close();
  cpu.sort((a, b) => a - b);
  const hits = out.reduce((n: number, o) => n + (o as unknown[]).length, 0);
  process.stdout.write(
    `${queries.length} queries x ${values.rounds} rounds, ${hits} hits; CPU p50 ${cpu[Math.floor(cpu.length / 2)]!.toFixed(3)} ms\n`,
  );
  if (values.write !== undefined) writeFileSync(values.write, `${JSON.stringify(out)}\n`);
  if (values.compare !== undefined) {
    const before = JSON.parse(readFileSync(values.compare, 'utf8')) as unknown[];
    const differ = out.filter((o, i) => JSON.stringify(o) !== JSON.stringify(before[i])).length;
    process.stdout.write(`compared ${out.length} searches: ${differ} differ\n`);
    process.exitCode = differ === 0 && before.length === out.length ? 0 : 1;
  }
} finally {
  await db.drop();
}
