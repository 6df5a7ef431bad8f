/**
 * The fusion step of search: the text candidates (already ranked by BM25, coverage and weights) and the
 * nearest vectors of the same scopes, fused by normalised scores (or by reciprocal rank). Every number here
 * comes from memories the caller can read (I4): the vector scan is restricted to the readable scopes before
 * ranking, and normalisation divides by the best of those candidates only.
 */
import { containsSecret } from '../guard/secrets.ts';
import type { ScopeSet, SearchPlan } from '../store/port.ts';
import type { Semantic } from './semantic.ts';
import { spread } from './spread.ts';

/** The part of a ranked text candidate fusion reads and writes (search.ts's RankedHit). */
export interface Fusable {
  memory: { id: string; scope: string; body: string };
  score: number;
  why: {
    matched: string[];
    text: number;
    trustWeight: number;
    confidenceWeight: number;
    recencyWeight: number;
    /** A question or a content-free memory's weight (search.ts rank); absent, 1. */
    shapeWeight?: number;
    vector?: number;
  };
}

/** What search says about vectors: whether it used them, with which model, and how many candidates lacked one. */
export interface VectorUse {
  used: boolean;
  model: string;
  /** Text candidates with no vector of this model yet (written since the queue was drained, or not backfilled). */
  missing: number;
  /** Memories still waiting in the embedding queue when the search ran. */
  pending: number;
  /** Why vectors were not used, when they were not. */
  reason?: string;
}

/** Nearest memories read from the vector scan, besides the text candidates. */
const NEAREST = 50;
const RRF_K = 60;
/**
 * An unscoped search (a reader of every scope: the operator) scans the vectors of the newest this many
 * memories, besides the text candidates' own: a bounded scan (bench/hybrid.ts: every vector of 100k took
 * 567 ms of CPU), at the cost of finding older memories by meaning only through their words.
 */
export const UNSCOPED_SCAN = 10_000;

export interface FuseInput<T extends Fusable> {
  query: string;
  /** How many words the query was reduced to: the share a text candidate matched is its coverage. */
  terms: number;
  scopes: ScopeSet;
  filters: Pick<SearchPlan, 'kinds' | 'subject' | 'key' | 'asOf' | 'validAt'>;
  /** The text candidates, best first. */
  ranked: T[];
  /** Builds a ranked candidate with no text match from a vector hit (text 0, its own weights). */
  fromVector(memory: unknown): T;
  /** The readable-scope test every candidate passes (the same as the text candidates'). */
  readable(scope: string): boolean;
}

export async function fuse<T extends Fusable>(
  semantic: Semantic,
  vectors: import('../store/vectors-port.ts').VectorStore,
  input: FuseInput<T>,
): Promise<{ ranked: T[]; vectors: VectorUse }> {
  const model = semantic.embedder.model;
  let query: Awaited<ReturnType<Semantic['queryVector']>>;
  let pending = 0;
  try {
    // The home records the model first (once per ledger): until then its writes are not queued, and a search
    // would report nothing pending while memories lack their vectors.
    await semantic.queue(vectors, false);
    // The queue of the search's own scopes only: another scope's (its size, the time to embed it) is not the
    // caller's to see (I4).
    pending = await vectors.queued(input.scopes);
    // A short queue (what was written since the last drain) is embedded before the search, so a memory just
    // written is found by meaning as well; a long one (a bulk import, a new model) is left to the background
    // drain or `memledger embed`, and what has no vector yet is found by its words and counted.
    if (pending > 0 && pending <= semantic.catchUp) {
      query = await semantic.queryVectorCatchingUp(vectors, input.query, semantic.catchUp, input.scopes);
      pending = await vectors.queued(input.scopes);
    } else query = await semantic.queryVector(input.query);
  } catch {
    // The embedder is optional: when it fails, search answers by text alone and says so.
    const use = { used: false, model, missing: input.ranked.length, pending, reason: 'the embedder failed' };
    return { ranked: input.ranked, vectors: use };
  }
  const matches = await vectors.nearest({
    ...input.filters,
    scopes: input.scopes,
    model,
    query,
    k: NEAREST,
    ids: input.ranked.map((r) => r.memory.id),
    ...(input.scopes.all ? { scan: UNSCOPED_SCAN } : {}),
  });
  const sims = new Map(matches.similarities);
  const extra: T[] = [];
  const textIds = new Set(input.ranked.map((r) => r.memory.id));
  for (const hit of matches.nearest) {
    sims.set(hit.memory.id, hit.similarity);
    if (textIds.has(hit.memory.id) || hit.similarity < semantic.floor) continue;
    if (!input.readable(hit.memory.scope) || containsSecret(hit.memory.body)) continue;
    extra.push(input.fromVector(hit.memory));
  }
  const missing = input.ranked.filter((r) => !sims.has(r.memory.id)).length;
  const use: VectorUse = { used: true, model, missing, pending };
  const pool =
    semantic.mode === 'embedding'
      ? [...input.ranked.filter((r) => (sims.get(r.memory.id) ?? 0) >= semantic.floor), ...extra]
      : [...input.ranked, ...extra];
  for (const c of pool) {
    const s = sims.get(c.memory.id);
    if (s !== undefined) c.why.vector = Math.round(s * 1e4) / 1e4;
  }
  const scored =
    semantic.fusion === 'rrf' && semantic.mode === 'hybrid'
      ? byRrf(pool, input.ranked, sims)
      : semantic.mode === 'embedding'
        ? byScore(pool, sims, 0, semantic.floor, semantic.ceiling, input.scopes)
        : byScore(pool, sims, textShare(semantic, input), semantic.noise, semantic.ceiling, input.scopes);
  const kept = semantic.mode === 'hybrid' ? keepText(spread(scored), input, semantic.keep) : scored;
  return { ranked: kept, vectors: use };
}

/**
 * The fused places BM25's kept candidates are never pushed below (the first three). Tuning halves: the first
 * three rather than five brought next-turn context recall with an embedder to BM25's (v2 0.786 → 0.929): a found
 * question turn, weighed down for its shape, fell to fifth under memories only about the same topic, out of the
 * three hits whose neighbours context assembly places beside them, so its answer (the turn after) was lost;
 * every recall@5 stayed as it was (v1, v2), MRR 0.789 → 0.789 / 0.702 → 0.703. Second place changed nothing more.
 */
const KEEP_WITHIN = 3;

/**
 * A kept text candidate holds at least this share of the query's words. Tuning halves, with cosines counted
 * from 0.375: a third rather than half kept BM25's answer to a long question whose words are spread over two
 * memories (v2 multi-hop recall@5 0.400 → 0.500, v2 paraphrase 0.807 → 0.814, v1 unchanged); counted from 0.3,
 * keeping BM25's best whatever its share lost paraphrase (v1 0.829 → 0.821: a best match on one word of
 * six is often a wrong one).
 */
const KEEP_SHARE = 1 / 3;

/**
 * BM25's best `keep` candidates with at least KEEP_SHARE of the query's words, moved up to the last places of the
 * first KEEP_WITHIN when fusion put them lower (in their text order): vectors may reorder what text found
 * well, not bury it under memories that are only about the same topic.
 */
function keepText<T extends Fusable>(fused: T[], input: FuseInput<T>, keep: number): T[] {
  if (keep === 0 || input.terms === 0) return fused;
  const strong = input.ranked
    .slice(0, keep)
    .filter((c) => c.why.matched.length >= KEEP_SHARE * input.terms && fused.indexOf(c) >= KEEP_WITHIN);
  if (strong.length === 0) return fused;
  const rest = fused.filter((c) => !strong.includes(c));
  const at = Math.max(0, KEEP_WITHIN - strong.length);
  const kept = [...rest.slice(0, at), ...strong, ...rest.slice(at)];
  // The place is kept in the score too: search re-sorts by score after fusion (a question's parts merged, a
  // named time preferred), and a moved candidate keeping its fused score fell back below the vector-only hits
  // it had been placed above, so BM25's answer was protected only when nothing re-sorted.
  for (let i = at + strong.length - 1; i >= at; i--) {
    const below = kept[i + 1]?.score ?? 0;
    const above = i === 0 ? Number.POSITIVE_INFINITY : kept[i - 1]!.score;
    kept[i]!.score = Math.min(above, Math.max(kept[i]!.score, round(below + 1e-6)));
  }
  return kept;
}

/**
 * The text's share of the fused score for this query: `weight` when no text candidate matched every query
 * word (a paraphrase: the words are not the memory's), rising to `fullWeight` as the best coverage reaches
 * all of them (the words are there: vectors only reorder what text found, and pull in less noise).
 */
function textShare(semantic: Semantic, input: FuseInput<Fusable>): number {
  if (input.terms === 0) return semantic.weight;
  const coverage = Math.max(0, ...input.ranked.map((r) => r.why.matched.length / input.terms));
  return semantic.weight + (semantic.fullWeight - semantic.weight) * Math.min(1, coverage);
}

/**
 * A search over at most this many exact scopes (the caller named them, or its grants are that few; no `kind:*`
 * pattern) asks about each of them, so the text score is also read against the best text candidate of the
 * memory's own scope (SCOPE_SHARE of it).
 */
const NAMED_SCOPES = 5;
/**
 * The share of the text score read per scope when the caller named its scopes: a small scope's memories hold
 * fewer of a vague question's words than a large shared one's ("how does this get deployed" asked in a
 * project: the project's answer names its tool, the shared rules name "deploy" and "production"), so divided
 * by the best of all scopes alone its answer sinks under the shared scope's topic. Every best is of readable
 * candidates only (the pool, after the scope filter), so no score depends on what the caller cannot read
 * (I4). Tuning halves, named scopes only (multi-scope): 0.3, 0.5 and 0.7 all gave recall@5 0.950 → 1.000 (v1
 * and v2, above BM25's 0.950), nothing else moved; multi-scope MRR v1 0.586 → 0.606 / 0.598 / 0.573, v2 0.582
 * → 0.581 / 0.573 / 0.548 at 0.3 / 0.5 / 0.7; the scope's best alone (1.0) lowered overall MRR (v1 0.789 →
 * 0.773, v2 0.703 → 0.690).
 */
const SCOPE_SHARE = 0.3;
/**
 * weight × text / best text + (1 − weight) × the cosine's height above `floor` / the best one's, times the
 * candidate's own weights. Measured from the floor, a cosine near it (unrelated text scores about 0.1–0.3 with
 * this model) adds almost nothing: on the tuning half recall@5 0.886 → 0.900 against dividing by the best alone.
 */
function byScore<T extends Fusable>(
  pool: T[],
  sims: Map<string, number>,
  weight: number,
  floor: number,
  ceiling: number,
  scopes: ScopeSet,
): T[] {
  const bestText = Math.max(1e-9, ...pool.map((c) => c.why.text));
  const inScope = bestTextPerScope(pool, scopes);
  const bestSim = Math.max(1e-9, ceiling, ...pool.map((c) => Math.max(0, sims.get(c.memory.id) ?? 0)));
  for (const c of pool) {
    const v = Math.max(0, (sims.get(c.memory.id) ?? 0) - floor) / Math.max(1e-9, bestSim - floor);
    const own = inScope?.get(c.memory.scope);
    const text =
      own === undefined
        ? c.why.text / bestText
        : (1 - SCOPE_SHARE) * (c.why.text / bestText) + SCOPE_SHARE * (c.why.text / own);
    const fused = weight * text + (1 - weight) * v;
    const weights =
      c.why.trustWeight * c.why.confidenceWeight * c.why.recencyWeight * (c.why.shapeWeight ?? 1);
    c.score = round(fused * weights);
  }
  return pool.sort(order);
}

/** The best text score of each scope in the pool when the caller named few scopes; null otherwise. */
function bestTextPerScope(pool: Fusable[], scopes: ScopeSet): Map<string, number> | null {
  if (scopes.all || scopes.prefixes.length > 0 || scopes.exact.length > NAMED_SCOPES) return null;
  const best = new Map<string, number>();
  for (const c of pool) best.set(c.memory.scope, Math.max(best.get(c.memory.scope) ?? 1e-9, c.why.text));
  return best;
}

/** 1 / (60 + rank) by text plus 1 / (60 + rank) by vector: a candidate absent from a list gains nothing from it. */
function byRrf<T extends Fusable>(pool: T[], textRanked: T[], sims: Map<string, number>): T[] {
  const textRank = new Map(textRanked.map((c, i) => [c.memory.id, i]));
  const byVector = pool
    .filter((c) => sims.has(c.memory.id))
    .sort((a, b) => sims.get(b.memory.id)! - sims.get(a.memory.id)! || (a.memory.id < b.memory.id ? -1 : 1));
  const vectorRank = new Map(byVector.map((c, i) => [c.memory.id, i]));
  for (const c of pool) {
    const t = textRank.get(c.memory.id);
    const v = vectorRank.get(c.memory.id);
    c.score = round((t === undefined ? 0 : 1 / (RRF_K + t)) + (v === undefined ? 0 : 1 / (RRF_K + v)));
  }
  return pool.sort(order);
}

const order = (a: Fusable, b: Fusable): number =>
  b.score - a.score || (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0);
const round = (x: number): number => Math.round(x * 1e6) / 1e6;
