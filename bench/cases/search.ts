/**
 * search_scoped and search_all_scopes: 3-term queries through session.search against the bare FTS5 query on
 * the raw DB (scope token inside the document, ORDER BY rank LIMIT 10, rows fetched), or on Postgres the bare
 * tsquery on the raw table (scope = any(…), tsv @@ q, ORDER BY ts_rank LIMIT 10). Both sides answer every
 * query in turn, alternating who goes first, and must return the same number of hits.
 */
import { performance } from 'node:perf_hooks';
import type { Context } from '../context.ts';
import type { BenchQuery } from '../data.ts';
import { atMost, type BenchResult, type Check, result } from '../report.ts';
import { type Latency, ratio, round, stopwatch, summarize } from '../stats.ts';

/** ARCHITECTURE.md §6 for the embedded store; issue 10's target on Postgres (no p99 there). */
const SCOPED = {
  sqlite: { p50Ms: 10, p99Ms: 50, ratio: 1.5 },
  postgres: { p50Ms: 15, p99Ms: null, ratio: 2 },
} as const;

export async function benchSearchScoped(ctx: Context): Promise<BenchResult> {
  const { queries, queryWarmup } = ctx.settings;
  const run = await measure(ctx, ctx.dataset.queries(queryWarmup + queries, 1), queryWarmup, true, Infinity);
  const { m, r } = run;
  const target = SCOPED[ctx.backend];
  const checks: Check[] = [
    atMost('p50Ms', m.p50Ms, target.p50Ms),
    ...(target.p99Ms === null ? [] : [atMost('p99Ms', m.p99Ms, target.p99Ms)]),
    atMost('ratio p50', ratio(m.p50Ms, r.p50Ms), target.ratio),
  ];
  return result({
    description:
      ctx.backend === 'sqlite'
        ? 'session.search({ query, scopes: [scope] }) with 3-term queries, one scope each, on N memories, vs the raw scoped FTS5 query MATCH \'scope_tok:X AND ("a" OR "b" OR "c")\' ORDER BY rank LIMIT 10 joined to its rows'
        : "session.search({ query, scopes: [scope] }) with 3-term queries, one scope each, on the Postgres tenant holding N memories, vs the raw query on the raw table: where scope = any($scopes) and tsv @@ ('a' | 'b' | 'c') order by ts_rank limit 10 (the same tsquery memledger builds)",
    memledger: { ...m },
    raw: { ...r },
    ratio: ratio(m.p50Ms, r.p50Ms),
    ratios: {
      p50: ratio(m.p50Ms, r.p50Ms),
      p99: ratio(m.p99Ms, r.p99Ms),
      cpuP50: ratio(m.cpuP50Ms!, r.cpuP50Ms!),
    },
    target:
      target.p99Ms === null
        ? `p50 <= ${target.p50Ms} ms, <= ${target.ratio}x raw`
        : `p50 <= ${target.p50Ms} ms, p99 <= ${target.p99Ms} ms, <= ${target.ratio}x raw`,
    checks,
    notes: run.notes,
  });
}

export async function benchSearchAllScopes(ctx: Context): Promise<BenchResult> {
  const { allScopeQueries, queryWarmup, allScopeBudgetMs } = ctx.settings;
  const warmup = Math.min(queryWarmup, Math.ceil(allScopeQueries / 10));
  const run = await measure(
    ctx,
    ctx.dataset.queries(warmup + allScopeQueries, 2),
    warmup,
    false,
    allScopeBudgetMs,
  );
  const { m, r } = run;
  return result({
    description:
      ctx.backend === 'sqlite'
        ? 'session.search({ query }) by the human operator with no scope filter (every scope), vs the raw unscoped FTS5 query ORDER BY rank LIMIT 10 joined to its rows; for information'
        : 'session.search({ query }) by the human operator with no scope filter (every scope) on the Postgres tenant, vs the raw unscoped tsquery on the raw table ORDER BY ts_rank LIMIT 10; for information',
    memledger: { ...m },
    raw: { ...r },
    ratio: ratio(m.p50Ms, r.p50Ms),
    ratios: {
      p50: ratio(m.p50Ms, r.p50Ms),
      p99: ratio(m.p99Ms, r.p99Ms),
      cpuP50: ratio(m.cpuP50Ms!, r.cpuP50Ms!),
    },
    target: null,
    checks: [],
    notes: run.notes,
  });
}

async function measure(
  ctx: Context,
  queries: BenchQuery[],
  warmup: number,
  scoped: boolean,
  budgetMs: number,
): Promise<{ m: Latency; r: Latency; notes: Record<string, unknown> }> {
  const label = scoped ? 'search_scoped' : 'search_all_scopes';
  ctx.log(`${label}: ${warmup} warm-up + up to ${queries.length - warmup} measured queries per side`);
  const mine: number[] = [];
  const mineCpu: number[] = [];
  const raw: number[] = [];
  const rawCpu: number[] = [];
  let hits = 0;
  let withHits = 0;
  let disagreements = 0;
  const started = performance.now();
  for (let q = 0; q < queries.length; q++) {
    const query = queries[q]!;
    const measured = q >= warmup;
    if (measured && performance.now() - started > budgetMs) break;
    let myHits = 0;
    let rawHits = 0;
    const runMine = async () => {
      const stop = stopwatch();
      const found = await ctx.session.search(
        scoped ? { query: query.text, scopes: [query.scope] } : { query: query.text },
      );
      const { wallMs, cpuMs } = stop();
      myHits = found.hits.length;
      if (measured) {
        mine.push(wallMs);
        mineCpu.push(cpuMs);
      }
    };
    const runRaw = async () => {
      const stop = stopwatch();
      const rows = await ctx.raw.search(query.terms, scoped ? query.scope : null);
      const { wallMs, cpuMs } = stop();
      rawHits = rows.length;
      if (measured) {
        raw.push(wallMs);
        rawCpu.push(cpuMs);
      }
    };
    if (q % 2 === 0) {
      await runMine();
      await runRaw();
    } else {
      await runRaw();
      await runMine();
    }
    if (measured) {
      hits += myHits;
      if (myHits > 0) withHits++;
      if (myHits !== rawHits) disagreements++;
    }
  }
  // Same data, same tokenizer, same match: a different hit count means the baseline is not doing the same work.
  if (disagreements > 0) throw new Error(`${label}: ${disagreements} queries returned different hit counts`);
  return {
    m: summarize(mine, mineCpu),
    r: summarize(raw, rawCpu),
    notes: {
      warmupPerSide: warmup,
      queriesWithHits: withHits,
      meanHits: round(hits / Math.max(1, mine.length), 2),
      hitCountsAgree: true,
      stoppedByTimeBudget: mine.length < queries.length - warmup,
      example: { text: queries[warmup]?.text, scope: scoped ? queries[warmup]?.scope : null },
    },
  };
}
