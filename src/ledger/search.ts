/**
 * search: any-word full text within the caller's scopes, ranked by bm25 blended with trust, confidence and
 * recency. Query text is always quoted (I11); secret-shaped memories never leave (I10); default reads are current (I3).
 */
import { z } from 'zod';
import { buildFtsQuery } from '../guard/fts-query.ts';
import { containsSecret } from '../guard/secrets.ts';
import { normaliseText } from '../guard/canonical.ts';
import { KINDS, keySchema, LIMITS, type Memory, subjectSchema, type Trust } from '../model/memory.ts';
import { scopeSchema } from '../model/scope.ts';
import { lazySchema } from '../model/lazy-schema.ts';
import { isoTime } from '../model/time.ts';
import { inFilter, readFilter } from '../policy/access.ts';
import type { SearchFields } from '../store/port.ts';
import { fuse, type VectorUse } from '../embed/hybrid.ts';
import { type Correction, corrections } from './corrections.ts';
import type { Deps } from './deps.ts';
import { type Neighbours, neighboursOf } from './neighbours.ts';
import { eventReference, eventTime } from './search-event.ts';
import { parseInput } from './parse.ts';
import { queryParts } from './query-parts.ts';
import { type QueryTime, resolveQueryTime } from './query-time.ts';
import { SHAPE_WEIGHT, type Shape, shapeOf } from './rank-shape.ts';
import { withReplies } from './search-replies.ts';
import { preferPresent, presentCue } from './search-present.ts';
import { preferTime, type TimePreference } from './search-time.ts';
import { readableScopes } from './scopes.ts';
import { hasSecret } from './visibility.ts';

/** Built on first use (a session hook that never searches never builds it). */
export const searchInputSchema = lazySchema(() =>
  z
    .object({
      query: z.string().max(LIMITS.query, `query is longer than ${LIMITS.query} characters`),
      scopes: z.array(scopeSchema).max(50).optional(),
      kinds: z.array(z.enum(KINDS)).max(KINDS.length).optional(),
      subject: subjectSchema.optional(),
      key: keySchema.optional(),
      asOf: isoTime('asOf').optional(),
      validAt: isoTime('validAt').optional(),
      /** What "yesterday" or "last month" in the query is relative to; default the asOf time, else now. */
      referenceTime: isoTime('referenceTime').optional(),
      /** Return each hit's neighbours in its session (the turn before and after) grouped under it. */
      neighbours: z.boolean().default(false),
      /**
       * Also return the latest corrections of the caller's own writes in these scopes (corrections.ts), in this
       * one audited call: MCP's search_memory shows them beside every result, and a second call cost as much again.
       */
      withCorrections: z.boolean().default(false),
      limit: z.number().int().min(1).max(LIMITS.limit).default(10),
    })
    .strict(),
);
export type SearchInput = z.input<typeof searchInputSchema>;

export interface SearchHit {
  memory: Memory;
  score: number;
  /** With `neighbours: true`: the readable turns said just before and after it in its session (neighbours.ts). */
  neighbours?: Neighbours;
  /** Why it matched and how it was weighed: matched query words, the text score and each weight. */
  why: {
    matched: string[];
    text: number;
    trust: Trust;
    trustWeight: number;
    confidenceWeight: number;
    recencyWeight: number;
    /** The memory is a question or content-free ("ok", "thanks"), weighed by `shapeWeight` (rank-shape.ts). */
    shape?: Shape;
    shapeWeight?: number;
    /** The query named a time: the interval it resolved to, and whether this memory's time falls in it. */
    time?: TimePreference;
    /** The query asked about the present: this memory's weight by its time among the head's (search-present.ts). */
    present?: { expression: string; weight: number };
    /** Cosine similarity to the query's embedding, when search used vectors and the memory has one. */
    vector?: number;
    /** The memory is the turn said just after this hit in its session, ranked for it (search-replies.ts). */
    replyTo?: string;
  };
}

export interface SearchResult {
  hits: SearchHit[];
  /** The words the query was reduced to (stopwords and a time expression dropped), each quoted before it reached the index. */
  terms: string[];
  /** The time expression the query named, resolved against the reference time; absent when it named none. */
  time?: QueryTime;
  /** Present when an embedder is configured: whether vectors were used, and how many candidates lacked one. */
  vectors?: VectorUse;
  /** With `withCorrections: true`: the latest `SEARCH_CORRECTIONS` corrections of the caller's writes, as `corrections()` returns them. */
  corrections?: Correction[];
}

/** How many corrections a search with `withCorrections` returns: the few an agent can act on beside its results. */
export const SEARCH_CORRECTIONS = 5;

export const TRUST_WEIGHT: Record<Trust, number> = { confirmed: 1, accepted: 0.85, unverified: 0.6 };
const RECENCY_HALF_LIFE_DAYS = 90;
/** Text relevance gains this factor when a query word names the memory's key field (`plan` in `acme.plan`). */
const KEY_FIELD_WEIGHT = 1.2;
/**
 * Text candidates read when vectors are fused with them (else 50): a memory the vector scan finds that also
 * holds a common query word but ranks past BM25's 50th would enter fusion with no text score at all. Tuning
 * halves with the local embedder: v2 paraphrase recall@5 0.843 → 0.857, every other category unchanged (v1
 * and v2); 150 scored alike (MRR v1 0.791 → 0.797) for half as many rows again.
 */
const FUSED_TEXT_CANDIDATES = 100;

export async function search(deps: Deps, input: SearchInput): Promise<SearchResult> {
  const f = parseInput(searchInputSchema, input, 'search');
  const reference = f.referenceTime ?? f.asOf ?? deps.now();
  const resolved = resolveQueryTime(f.query, reference);
  // An event ("after the move") keeps its words in the search; only the relation word is not searched.
  // "now", "these days", "current": the newest on the topic is preferred, and the cue itself is not searched.
  const present = resolved.time === null ? presentCue(resolved.text) : null;
  const event = resolved.time === null ? eventReference(present?.rest ?? resolved.text) : null;
  const query = buildFtsQuery(event?.rest ?? present?.rest ?? resolved.text);
  const now = Date.parse(f.asOf ?? deps.now());
  const whole = await rankQuery(deps, f, query, f.query, now);
  let ranked = whole.ranked;
  // With an embedder, a question that asks two things is also ranked part by part (query-parts.ts); without
  // one, search stays exactly BM25's.
  const parts = deps.semantic === undefined ? [] : queryParts(present?.rest ?? resolved.text);
  if (parts.length > 0) {
    const each = await Promise.all(parts.map((p) => rankQuery(deps, f, buildFtsQuery(p), p, now)));
    ranked = mergeParts([ranked, ...each.map((e) => e.ranked)]);
  }
  const fused = whole.fused;
  // A calendar time first; else the event the query names, looked up by its words alone.
  const time =
    resolved.time ??
    (event !== null && f.asOf === undefined && f.validAt === undefined
      ? await eventTime(
          deps,
          event,
          async (q) => (await rankQuery(deps, f, q, q.terms.join(' '), now, false)).ranked,
        )
      : null);
  if (time !== null) ranked = await preferTime(deps, ranked, time);
  else if (present !== null) ranked = await preferPresent(deps, ranked, present, reference);
  // After the time preference, so a reply is weighed by its hit's time match; never on an as-of or valid-time
  // read (neighbours are read as they are now), and without an embedder search stays exactly BM25's.
  if (deps.semantic !== undefined && f.asOf === undefined && f.validAt === undefined) {
    ranked = await withReplies(deps, ranked, {
      scopes: f.scopes,
      kinds: f.kinds,
      subject: f.subject,
      key: f.key,
    });
  }
  // A read on either clock returns versions that are not current now (superseded, or current back then).
  const hits = await readHits(deps, ranked, f.limit, f.asOf === undefined && f.validAt === undefined);
  if (f.neighbours) {
    const around = await neighboursOf(
      deps,
      hits.map((h) => h.memory.id),
      f.scopes,
    );
    for (const h of hits) {
      h.neighbours = around.get(h.memory.id) ?? { before: null, after: null };
      for (const m of [h.neighbours.before, h.neighbours.after]) if (m !== null) deps.trace.targets.add(m.id);
    }
  }
  for (const h of hits) deps.trace.targets.add(h.memory.id);
  return {
    hits,
    terms: query.terms,
    ...(time === null ? {} : { time }),
    ...(fused === null ? {} : { vectors: fused.vectors }),
    ...(f.withCorrections
      ? { corrections: await corrections(deps, { scopes: f.scopes, limit: SEARCH_CORRECTIONS }) }
      : {}),
  };
}

type Parsed = ReturnType<typeof parseInput<typeof searchInputSchema>>;

/**
 * One query's ranking: its text candidates within the caller's scopes, ranked by bm25 and the weights, then,
 * with an embedder, fused with the nearest vectors of the same scopes (src/embed) by `vectorText`'s embedding.
 */
async function rankQuery(
  deps: Deps,
  f: Parsed,
  query: ReturnType<typeof buildFtsQuery>,
  vectorText: string,
  now: number,
  withVectors = true,
): Promise<{ ranked: RankedHit[]; fused: Awaited<ReturnType<typeof fuse>> | null }> {
  const filter = readFilter(deps.principal, f.scopes);
  const candidates = await deps.store.search({
    match: query.match,
    terms: query.terms,
    // Each word quoted on its own by the same guard, so the store never quotes anything itself (I11).
    phrases: query.terms.map((t) => buildFtsQuery(t).match),
    scopes: readableScopes(deps.principal, f.scopes),
    kinds: f.kinds,
    subject: f.subject,
    key: f.key,
    asOf: f.asOf,
    validAt: f.validAt,
    candidates: Math.max(f.limit * 5, deps.semantic === undefined ? 50 : FUSED_TEXT_CANDIDATES),
  });
  const best = Math.max(1e-9, ...candidates.map((c) => -c.bm25));
  // Every candidate is ranked on the fields ranking reads; whole rows are read only for the best few.
  const textRanked = candidates
    .filter((c) => inFilter(filter, c.memory.scope) && !containsSecret(c.memory.body))
    .map((c) => rank(c.memory, -c.bm25 / best, now, query.terms))
    .sort((a, b) => b.score - a.score);
  if (deps.semantic === undefined || !withVectors) return { ranked: textRanked, fused: null };
  const fused = await fuse(deps.semantic, deps.store.vectors, {
    query: vectorText,
    terms: query.terms.length,
    scopes: readableScopes(deps.principal, f.scopes),
    filters: { kinds: f.kinds, subject: f.subject, key: f.key, asOf: f.asOf, validAt: f.validAt },
    ranked: textRanked,
    fromVector: (memory) => rank(memory as SearchFields, 0, now, query.terms),
    readable: (scope) => inFilter(filter, scope),
  });
  return { ranked: fused.ranked, fused };
}

/**
 * The whole question's ranking and each part's, merged: a candidate scores its best share of its list's top
 * score, on the whole ranking's scale, so the best answer to each part stands level with the whole
 * question's best, and one part's topic cannot fill the head; among equal scores, the better place in its own
 * list goes first (each list's first, then each list's second). Every list is of the same readable scopes (I4).
 */
function mergeParts(lists: RankedHit[][]): RankedHit[] {
  const scale = lists[0]![0]?.score ?? 1;
  const merged = new Map<string, { hit: RankedHit; place: number }>();
  for (const list of lists) {
    const top = Math.max(1e-9, list[0]?.score ?? 0);
    for (const [place, hit] of list.entries()) {
      const score = Math.round((hit.score / top) * scale * 1e6) / 1e6;
      const seen = merged.get(hit.memory.id);
      if (seen === undefined || score > seen.hit.score || (score === seen.hit.score && place < seen.place)) {
        merged.set(hit.memory.id, { hit: { ...hit, score }, place });
      }
    }
  }
  return [...merged.values()]
    .sort(
      (a, b) =>
        b.hit.score - a.hit.score ||
        a.place - b.place ||
        (a.hit.memory.id < b.hit.memory.id ? -1 : a.hit.memory.id > b.hit.memory.id ? 1 : 0),
    )
    .map((m) => m.hit);
}

/** Candidates read past the limit in one go, for those the egress check on values drops. */
const READ_MARGIN = 2;

/**
 * The whole rows of the best-ranked candidates, in rank order, until `limit` pass the egress check (I10): the
 * body was checked before ranking, the value is checked here. A memory erased since it was ranked, or for a
 * current read no longer active, is left out (I3, I9), as a search a moment later would have left it out.
 */
async function readHits(
  deps: Deps,
  ranked: RankedHit[],
  limit: number,
  current: boolean,
): Promise<SearchHit[]> {
  const hits: SearchHit[] = [];
  let next = 0;
  while (hits.length < limit && next < ranked.length) {
    const batch = ranked.slice(next, next + limit - hits.length + READ_MARGIN);
    next += batch.length;
    const rows = await deps.store.getMemories(batch.map((h) => h.memory.id));
    for (const [i, hit] of batch.entries()) {
      const memory = rows[i];
      if (hits.length === limit || memory === null || memory === undefined) continue;
      if (memory.state === 'erased' || (current && memory.state !== 'active') || hasSecret(memory)) continue;
      hits.push({ ...hit, memory });
    }
  }
  return hits;
}

/**
 * Text relevance is bm25 (normalised to the best candidate) scaled by the share of query words present, and
 * by KEY_FIELD_WEIGHT when a query word names the key's field. bm25 rewards a short memory that repeats the
 * rarest word; the share rewards one that answers the whole question, and scaling by it (rather than adding
 * it) keeps a memory with every word above one that matches a single word well. Keys are how entity fields
 * are modelled, so "acme plan" should find the memory holding `acme.plan` before others that name Acme.
 * Measured on eval/sets/memledger-v1.json (npm run eval): recall@5 0.81 → 0.83, MRR 0.70 → 0.75, recall@10
 * unchanged or better in every category.
 */
/** A ranked candidate, before its whole row is read. */
export type RankedHit = Omit<SearchHit, 'memory'> & { memory: SearchFields };

function rank(memory: SearchFields, bm25: number, now: number, terms: string[]): RankedHit {
  const matched = matchedTerms(memory, terms);
  // The index matched at least one word even when its stem escapes the prefix test below ("flies" for "fly").
  const coverage = Math.max(1, matched.length) / terms.length;
  const field = namesKeyField(memory.key, terms) ? KEY_FIELD_WEIGHT : 1;
  const text = Math.max(0, bm25) * coverage * field;
  const trustWeight = TRUST_WEIGHT[memory.trust];
  const confidenceWeight = 0.7 + 0.3 * memory.confidence;
  const ageDays = Math.max(0, (now - Date.parse(memory.activeFrom ?? memory.recordedAt)) / 86_400_000);
  const recencyWeight = 0.8 + 0.2 * 0.5 ** (ageDays / RECENCY_HALF_LIFE_DAYS);
  const shape = shapeOf(memory.body);
  const shapeWeight = shape === null ? 1 : SHAPE_WEIGHT[shape];
  const score = text * trustWeight * confidenceWeight * recencyWeight * shapeWeight;
  return {
    memory,
    score: Math.round(score * 1e6) / 1e6,
    why: {
      matched,
      text: Math.round(text * 1e4) / 1e4,
      trust: memory.trust,
      trustWeight,
      confidenceWeight,
      recencyWeight: Math.round(recencyWeight * 1e4) / 1e4,
      ...(shape === null ? {} : { shape, shapeWeight }),
    },
  };
}

/** Which query words the memory contains, allowing the stem's inflections ("deploys" for "deploying"). */
function matchedTerms(memory: SearchFields, terms: string[]): string[] {
  const words = spaced(`${memory.body} ${memory.key ?? ''} ${memory.subjects.join(' ')}`);
  return terms.filter((t) => containsTerm(words, t));
}

/** Does a query word name the key's last segment, its field (`plan` in `acme.plan`, `timezone` in `user.timezone`)? */
function namesKeyField(key: string | null, terms: string[]): boolean {
  if (key === null) return false;
  const field = spaced(key.slice(key.lastIndexOf('.') + 1));
  return terms.some((t) => containsTerm(field, t));
}

/**
 * The normalised words with a space before each: normaliseText leaves exactly one space between words, so a
 * word starts with a stem where ` stem` occurs. One search of a string instead of a set of words built for
 * each of the (up to 50) candidates ranked: the same answer, as a query word holds letters and digits only.
 */
const spaced = (text: string): string => ` ${normaliseText(text)}`;

function containsTerm(words: string, term: string): boolean {
  const stem = term.length > 4 ? term.slice(0, Math.max(4, term.length - 3)) : term;
  return words.includes(` ${stem}`);
}
