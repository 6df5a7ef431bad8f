/**
 * `node bench/search-identity.ts --home DIR [--scale 100k] [--queries 400] (--write FILE | --compare FILE)`:
 * the check that a change to the search path returns the same results. It builds the benchmarks' serving home
 * in DIR once (the same data set, seed and policy: bench/serving.ts), then runs a fixed mix of searches on it
 * and writes, or compares against, every hit's id, place, score and `why`, and each result's terms and
 * corrections. The mix: one scope as `agent:bench` (the MCP and HTTP benchmarks' query), two scopes, a
 * tenth of the scopes and more (the join path), every scope as the operator (FTS5's own bm25), a kinds filter, a limit
 * of 3, an as-of read (both indexes) and `withCorrections`. Prints the count of searches and hits compared.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openLedger } from '../src/index.ts';
import type { SearchInput, SearchResult } from '../src/ledger/search.ts';
import { parseSettings } from './args.ts';
import { DATA_SHAPE } from './context.ts';
import { Dataset } from './data.ts';
import { BENCH_AGENT, buildServingHome } from './serving.ts';

const { values } = parseArgs({
  options: {
    home: { type: 'string' },
    scale: { type: 'string', default: '100k' },
    queries: { type: 'string', default: '400' },
    write: { type: 'string' },
    compare: { type: 'string' },
  },
});
if (values.home === undefined || (values.write === undefined) === (values.compare === undefined)) {
  process.stderr.write('usage: node bench/search-identity.ts --home DIR (--write FILE | --compare FILE)\n');
  process.exit(2);
}
const settings = parseSettings(['--scale', values.scale], {});
const memories = settings.servingScale;
const dataset = new Dataset({
  memories,
  scopes: Math.max(10, Math.round(memories / 1_000)),
  seed: settings.seed,
  ...DATA_SHAPE,
});
const home = join(values.home, 'serving', 'home');
if (!existsSync(join(home, 'memory.db'))) {
  const built = await buildServingHome({
    settings,
    dir: values.home,
    shape: DATA_SHAPE,
    log: (m) => process.stderr.write(`${m}\n`),
  });
  built.ledger.close();
}

// A fixed clock: recency weights depend on the time, and the same searches must score the same from run to run.
const ledger = openLedger({ home, now: () => '2025-01-01T00:00:00.000Z' });
const agent = ledger.as(ledger.principal(BENCH_AGENT), { surface: 'library', client: 'search-identity' });
const operator = ledger.as(ledger.operator(), { surface: 'library', client: 'search-identity' });
const asOf = '2024-06-01T00:00:00.000Z';
// 12 of the 100 scopes: past a tenth, a scoped search joins instead of matching scope tokens (search.ts).
const many = dataset.scopeNames.slice(0, Math.ceil(dataset.scopeNames.length * 0.12));
const out: { input: SearchInput; as: string; result: unknown }[] = [];
const queries = dataset.queries(Number(values.queries), 7);
for (const [i, q] of queries.entries()) {
  const other = queries[(i + 1) % queries.length]!.scope;
  const inputs: [string, SearchInput][] = [
    ['agent', { query: q.text, scopes: [q.scope] }],
    ['agent', { query: q.text, scopes: [q.scope, other] }],
  ];
  if (i % 4 === 0) inputs.push(['agent', { query: q.text, scopes: many }]);
  if (i % 4 === 1) inputs.push(['operator', { query: q.text }]);
  if (i % 4 === 2)
    inputs.push(['agent', { query: q.text, scopes: [q.scope], kinds: ['fact', 'note'], limit: 3 }]);
  if (i % 4 === 3) inputs.push(['agent', { query: q.text, scopes: [q.scope], asOf, withCorrections: true }]);
  for (const [as, input] of inputs) {
    const result = await (as === 'agent' ? agent : operator).search(input);
    out.push({ input, as, result: view(result) });
  }
}
ledger.close();

const hits = out.reduce((n, o) => n + (o.result as { hits: unknown[] }).hits.length, 0);
if (values.write !== undefined) {
  writeFileSync(values.write, `${JSON.stringify(out)}\n`);
  process.stdout.write(`wrote ${out.length} searches, ${hits} hits to ${values.write}\n`);
} else {
  const before = JSON.parse(readFileSync(values.compare!, 'utf8')) as typeof out;
  let differ = 0;
  for (const [i, o] of out.entries()) {
    const a = JSON.stringify(before[i]);
    const b = JSON.stringify(JSON.parse(JSON.stringify(o)));
    if (a !== b) {
      if (differ < 5)
        process.stdout.write(
          `differs: ${JSON.stringify(o.input)} as ${o.as}\n  before ${a}\n  after  ${b}\n`,
        );
      differ++;
    }
  }
  if (before.length !== out.length) differ++;
  process.stdout.write(
    `compared ${out.length} searches, ${hits} hits (ids, order, scores, why, terms, corrections): ${differ} differ\n`,
  );
  process.exitCode = differ === 0 ? 0 : 1;
}

/** What a caller sees, less what moves from run to run (the memory's own fields stay: they are the rows read). */
function view(r: SearchResult): unknown {
  return {
    terms: r.terms,
    hits: r.hits.map((h) => ({ id: h.memory.id, score: h.score, why: h.why, memory: h.memory })),
    corrections: r.corrections?.map((c) => c.id),
  };
}
