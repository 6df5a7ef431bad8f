/**
 * `node bench/hybrid.ts [--scale 100k] [--queries 200] [--keep DIR]`: semantic search figures (issue 13) on a generated home
 * of N memories in N/1,000 scopes (the density of 1M in 1,000), each with a 512-dimension int8 vector:
 * hybrid scoped search including the query's embedding by the local model (p50/p99) beside BM25-only search
 * and two raw baselines of the vector part (the bare int8 scan of one scope with node:sqlite, and the same scan
 * ranked in SQL by sqlite-vec's vec_distance_cosine); unscoped hybrid search by the operator; remember p50 with
 * and without the embedder; hybrid scoped search just after a write in its scope (the search embeds that
 * memory first); backfill throughput with the real model; the process RSS with the model loaded, and
 * that of a real `memledger serve` after one search (bench/serve-rss.ts).
 * The stored vectors are seeded random unit vectors (embedding N texts with the real model here would take an
 * hour; a scan's cost does not depend on the values); the query's vector is the model's. Prints JSON.
 * `--keep DIR` builds the home in DIR once and reuses it on later runs of the same scale (a 1M build takes many
 * minutes on this machine); the measured writes then add a few hundred memories per run.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { cosine, int8View, quantise } from '../src/embed/int8.ts';
import { LOCAL_MODEL, LocalEmbedder } from '../src/embed/local.ts';
import { openLedger } from '../src/index.ts';
import { keepTop } from '../src/store/sqlite/vectors.ts';
import { Dataset } from './data.ts';
import { mulberry32 } from './prng.ts';
import { serveRss } from './serve-rss.ts';
import { stopwatch, summarize } from './stats.ts';

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '100k' },
    queries: { type: 'string', default: '200' },
    keep: { type: 'string' },
    'build-only': { type: 'boolean', default: false },
  },
});
const scale = Number(values.scale.replace(/k$/i, '000').replace(/m$/i, '000000'));
const queries = Number(values.queries);
const scopes = Math.max(10, Math.round(scale / 1000));
const log = (m: string) => process.stderr.write(`hybrid bench: ${m}\n`);

const dir = values.keep ?? mkdtempSync(join(tmpdir(), 'ml-bench-hybrid-'));
const home = join(dir, 'home');
const builtMarker = join(dir, `built-${scale}.json`);
const dataset = new Dataset({
  memories: scale,
  scopes,
  seed: 13,
  vocabulary: 30_000,
  zipfS: 1.1,
  scopeS: 0.5,
});
const report: Record<string, unknown> = { memories: scale, scopes, queries, model: LOCAL_MODEL };
try {
  const started = performance.now();
  const reused = existsSync(builtMarker);
  if (!reused) rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  const plain = openLedger({ home });
  const store = plain.store;
  if (!reused) {
    for (let i = 0; i < scale; i += 5000) {
      const ids: string[] = [];
      await store.transaction(async (tx) => {
        for (let j = i; j < Math.min(scale, i + 5000); j++) {
          const memory = dataset.memory(j);
          ids.push(memory.id);
          await tx.insertMemory(memory);
        }
      });
      await store.vectors.put(
        LOCAL_MODEL,
        ids.map((id, k) => ({ memoryId: id, ...quantise(randomUnit(i + k)) })),
      );
      if (i % 100_000 === 0) log(`built ${i + ids.length}`);
    }
    report.buildMs = Math.round(performance.now() - started);
    if (values.keep !== undefined) writeFileSync(builtMarker, JSON.stringify({ buildMs: report.buildMs }));
  } else report.buildMs = (JSON.parse(readFileSync(builtMarker, 'utf8')) as { buildMs: number }).buildMs;
  log(`${reused ? 'reused' : 'built'} ${scale} memories with vectors (${report.buildMs} ms to build)`);
  if (values['build-only']) {
    plain.close();
    process.exit(0);
  }

  const qs = dataset.queries(queries + 20, 1);
  const me = plain.as(plain.operator());
  report.bm25Scoped = await time(qs, (q) => me.search({ query: q.text, scopes: [q.scope] }));
  log(`bm25 scoped ${JSON.stringify(report.bm25Scoped)}`);

  const rssBefore = process.memoryUsage().rss;
  const embedder = new LocalEmbedder();
  const semantic = openLedger({ home, semantic: { embedder } });
  const sm = semantic.as(semantic.operator());
  await sm.search({ query: 'warm the model up' });
  report.rssMb = { withoutModel: mb(rssBefore), withModel: mb(process.memoryUsage().rss) };
  report.hybridScoped = await time(qs, (q) => sm.search({ query: q.text, scopes: [q.scope] }));
  log(`hybrid scoped ${JSON.stringify(report.hybridScoped)}`);
  // The same queries again: their vectors are in the ledger's query cache, so this is search without embedding.
  report.hybridScopedRepeated = await time(qs, (q) => sm.search({ query: q.text, scopes: [q.scope] }));
  report.queryEmbedding = await time(qs, (q) => embedder.embed([q.text]));

  // The raw vector part: the scope's vectors read by node:sqlite and ranked in JS, and ranked by sqlite-vec.
  const raw = new DatabaseSync(join(home, 'memory.db'), { readOnly: true, allowExtension: true });
  // The same layout memledger reads (migration 16): a scope's vectors keyed by (scope, seq, model).
  const scan = raw.prepare(`SELECT m.seq, v.norm, v.vec FROM memories m
    JOIN memory_vectors v ON v.scope = m.scope AND v.memory_seq = m.seq
    WHERE m.scope = ? AND m.state = 'active' AND v.model = ?`);
  const vectorsOf = new Map<string, ReturnType<typeof quantise>>();
  for (const q of qs) vectorsOf.set(q.text, quantise((await embedder.embed([q.text]))[0]!));
  report.rawScan = await time(qs, async (q) => {
    const query = vectorsOf.get(q.text)!;
    const top: { id: string; similarity: number }[] = [];
    for (const r of scan.all(q.scope, LOCAL_MODEL) as { seq: number; norm: number; vec: Uint8Array }[]) {
      keepTop(top, { id: String(r.seq), similarity: cosine(query, int8View(r.vec), r.norm) }, 50);
    }
  });
  try {
    const sqliteVec = createRequire(import.meta.url)('sqlite-vec') as { getLoadablePath(): string };
    raw.loadExtension(sqliteVec.getLoadablePath());
    const ranked = raw.prepare(`SELECT m.seq, vec_distance_cosine(vec_int8(v.vec), vec_int8(?)) AS d
      FROM memories m JOIN memory_vectors v ON v.scope = m.scope AND v.memory_seq = m.seq
      WHERE m.scope = ? AND m.state = 'active' AND v.model = ? ORDER BY d LIMIT 50`);
    report.sqliteVecScan = await time(qs, async (q) => {
      const b = vectorsOf.get(q.text)!.bytes;
      ranked.all(new Uint8Array(b.buffer, b.byteOffset, b.byteLength), q.scope, LOCAL_MODEL);
    });
  } catch (error) {
    report.sqliteVecScan = `not measured: ${(error as Error).message}`;
  }
  raw.close();

  report.hybridAllScopes = await time(qs.slice(0, 40), (q) => sm.search({ query: q.text }), 5);
  log(`hybrid unscoped ${JSON.stringify(report.hybridAllScopes)}`);

  // remember with and without the embedder: the write only adds a queue row (embedding is asynchronous).
  let n = scale + 1;
  report.rememberOff = await time(qs.slice(0, 200), () =>
    me.remember({ body: `bench write ${n++}`, scope: 'shared' }),
  );
  report.rememberOn = await time(qs.slice(0, 200), () =>
    sm.remember({ body: `bench write ${n++}`, scope: 'shared' }),
  );
  await semantic.embedPending();
  // A search just after a write in its scope, with nothing draining: the search embeds that one memory first
  // (catchUp), then searches; hybridScoped above is the same search with nothing queued.
  // Queries the query cache has not seen (another seed), so the query is embedded as in hybridScoped.
  report.hybridAfterWrite = await time(
    dataset.queries(120, 2),
    (q) => sm.search({ query: q.text, scopes: [q.scope] }),
    20,
    (q) => sm.remember({ body: `bench note ${n++}: ${q.text}`, scope: q.scope }),
  );
  log(`hybrid scoped after a write ${JSON.stringify(report.hybridAfterWrite)}`);

  // Backfill throughput with the real model: 300 memories' own bodies.
  const sample = 300;
  const t0 = performance.now();
  const fresh = openLedger({ home: join(dir, 'backfill'), semantic: { embedder: 'local' } });
  await fresh.store.transaction(async (tx) => {
    for (let j = 0; j < sample; j++) await tx.insertMemory(dataset.memory(j));
  });
  const t1 = performance.now();
  const cpu1 = process.cpuUsage();
  const done = await fresh.embedPending({ backfill: true });
  const cpuUsed = process.cpuUsage(cpu1);
  report.backfill = {
    memories: done.embedded,
    perSecond: Math.round((done.embedded / (performance.now() - t1)) * 1000),
    // Every thread's CPU (the model's worker included): what the machine's load does not inflate.
    perCpuSecond: Math.round((done.embedded / ((cpuUsed.user + cpuUsed.system) / 1000)) * 1000),
    insertMs: Math.round(t1 - t0),
  };
  fresh.close();

  // A real `memledger serve` on this home, without and with the model: VmRSS after one scoped search.
  const one = { query: qs[0]!.text, scopes: [qs[0]!.scope] };
  report.serveRss = [await serveRss(home, 'off', one), await serveRss(home, 'local', one)];
  log(`serve RSS ${JSON.stringify(report.serveRss)}`);
  semantic.close();
  plain.close();
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
} finally {
  if (values.keep === undefined) rmSync(dir, { recursive: true, force: true });
  else rmSync(join(dir, 'backfill'), { recursive: true, force: true });
}

/** `before` runs ahead of each timed call, untimed (the write a search follows). */
async function time<T>(
  items: T[],
  fn: (q: T) => Promise<unknown>,
  warmup = 20,
  before?: (q: T) => Promise<unknown>,
) {
  for (const q of items.slice(0, warmup)) {
    await before?.(q);
    await fn(q);
  }
  const ms: number[] = [];
  const cpu: number[] = [];
  for (const q of items.slice(warmup)) {
    await before?.(q);
    const watch = stopwatch();
    await fn(q);
    const { wallMs, cpuMs } = watch();
    ms.push(wallMs);
    cpu.push(cpuMs);
  }
  // CPU time of the process (every thread, the embedder's worker included): what contention does not inflate.
  const l = summarize(ms, cpu);
  return { n: ms.length, p50Ms: l.p50Ms, p99Ms: l.p99Ms, cpuP50Ms: l.cpuP50Ms };
}

function randomUnit(i: number): Float32Array {
  const rng = mulberry32(i * 2654435761);
  const v = new Float32Array(512);
  let n = 0;
  for (let k = 0; k < 512; k++) {
    v[k] = rng() - 0.5;
    n += v[k]! * v[k]!;
  }
  for (let k = 0; k < 512; k++) v[k]! /= Math.sqrt(n);
  return v;
}

function mb(bytes: number): number {
  return Math.round(bytes / 1048576);
}
