/**
 * Full-text candidates for a search inside named scopes, chosen and scored from those scopes' rows alone (I4).
 * FTS5's `ORDER BY rank` takes bm25's document count, average length and word frequencies from the whole index,
 * so both which rows came back and their scores moved when a word was written into a scope the caller cannot
 * read. Here every input is readable: the matches come newest first (an order no other scope changes), the
 * collection's size and length from scope_stats, and each word's document frequency from the matches when
 * they were all read, or from a count inside the scopes when there were more than the cap.
 */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import type { SearchCandidate, SearchPlan } from '../port.ts';
import { bm25, idf, QueryTerms, type TermCounts } from '../text/bm25.ts';
import { type Collection, type FtsIndex, readCollection } from './scope-stats.ts';
import { addFilters, type ResolvedScopes, readsHistory } from './search.ts';

type Prepare = (sql: string) => StatementSync;

/**
 * How many matches a scoped search reads and scores itself. Below it the matches are all there is, and the
 * result is exact; past it the search narrows to its rarest words (see `scopedCandidates`). Reading and
 * tokenizing a match costs some 2–4 µs, so a full cap is a few milliseconds.
 */
export const CANDIDATE_CAP = 1000;

/**
 * Up to this many times the cap of documents in the scopes, matches are first read forwards (`scopedCandidates`).
 * Measured on the benchmarks' 100k home (scopes of 512 to 5,304 documents): of 6,000 three-word queries none
 * matched more than the cap, and the 748 in scopes of over 3,000 documents matched at most 233. Past the cap
 * a forward read is wasted, one read of `cap` rows more, so larger scopes go newest first at once.
 */
const FORWARD_READ_DOCS = 5;

export interface ScopedOptions {
  /** Scope tokens inside the MATCH (few scopes), or a join that tests each row's scope (many). */
  useTokens: boolean;
  cap: number;
}

/**
 * Up to `plan.candidates` matches in the scopes, best bm25 first (ties: newest first).
 * When more than `cap` documents match, the candidates are the newest `cap` matches plus every match of the
 * rarest words, rarest first, while their counts fit in another `cap`: the words that weigh most are never
 * cut off by age, and only documents holding nothing but common words are read newest first.
 */
export function scopedCandidates(
  plan: SearchPlan,
  scopes: ResolvedScopes & { toks: string[] },
  prepare: Prepare,
  options: ScopedOptions,
): SearchCandidate[] {
  const q = new ScopedQuery(plan, scopes, prepare, options.useTokens);
  const terms = new QueryTerms(plan.terms);
  const rows = new Map<number, Scored>();
  const add = (found: CandidateRow[]) => {
    for (const row of found) if (!rows.has(row.seq)) rows.set(row.seq, scored(row, terms));
  };
  // Read in the index's own order, the matches cost less than newest first (FTS5 walks its doclists forwards:
  // measured at 100k, one scope, the statement 243 → 199 µs CPU), and when no more than `cap` come back they
  // are all there is, in whatever order. Only more than `cap` need the newest, read again in that order: so the
  // forward read is tried where the scopes are small enough that it nearly always holds them all.
  const stats = q.collection();
  const forward = stats.docs <= FORWARD_READ_DOCS * options.cap;
  const read = { limit: options.cap + 1, fixed: true };
  let newest = forward ? q.matches(plan.match, { ...read, newestFirst: false }) : null;
  if (newest === null || newest.length > options.cap) {
    newest = q.matches(plan.match, { ...read, newestFirst: true });
  }
  add(newest);
  let df: number[];
  if (newest.length <= options.cap) {
    // Every match was read: a word's document frequency is how many of them hold it.
    df = plan.terms.map((_, i) => count(rows.values(), (r) => r.counts.tf[i]! > 0));
  } else {
    df = plan.phrases.map((p) => q.count(p));
    let budget = options.cap;
    for (const i of [...df.keys()].sort((a, b) => df[a]! - df[b]! || a - b)) {
      if (df[i]! > budget) break;
      if (df[i] === 0) continue;
      // All of the word's matches: in whichever order the index gives them.
      add(q.matches(plan.phrases[i]!, { limit: df[i]!, fixed: false, newestFirst: false }));
      budget -= df[i]!;
    }
  }
  const collection = sane(stats, rows.values(), df);
  const idfs = df.map((n) => idf(collection.docs, n));
  const averageLength = collection.tokens / collection.docs;
  const best = [...rows.values()]
    .filter((r) => r.row.keep === 1)
    .map((r) => ({ r, score: bm25(r.counts, idfs, averageLength) }))
    .sort((a, b) => b.score - a.score || b.r.row.seq - a.r.row.seq)
    .slice(0, plan.candidates);
  return best.map(({ r: { row, subjects }, score }) => ({
    memory: {
      id: row.id,
      scope: row.scope,
      key: row.key,
      body: row.body,
      subjects,
      trust: row.trust as SearchCandidate['memory']['trust'],
      confidence: row.confidence,
      activeFrom: row.active_from,
      recordedAt: row.recorded_at,
    },
    // FTS5's sign: lower is better.
    bm25: -score,
  }));
}

/**
 * After the index's rowid (the memory's seq): what scoring and ranking read of each match. The row is read for
 * its scope and text anyway; taking ranking's few fields in the same step costs less than a second statement
 * for the returned candidates (measured: one statement and a json_each fewer per search).
 */
const CANDIDATE_COLUMNS =
  'm.scope, m.key, m.body, m.value, m.subjects, m.id, m.trust, m.confidence, m.active_from, m.recorded_at';

interface CandidateRow {
  seq: number;
  scope: string;
  key: string | null;
  body: string;
  value: string | null;
  subjects: string;
  id: string;
  trust: string;
  confidence: number;
  active_from: string | null;
  recorded_at: string;
  /** 1 when the row passes the search's filters; the others still count in the words' frequencies. */
  keep: number;
}

/** How many matches to read, and in which order; `fixed`: the same limit for every search (the cap's read). */
interface MatchRead {
  limit: number;
  fixed: boolean;
  newestFirst: boolean;
}

/** A match as the statement returns it: `seq`, then CANDIDATE_COLUMNS in their order, then `keep`. */
type CandidateColumns = [
  number,
  string,
  string | null,
  string,
  string | null,
  string,
  string,
  string,
  number,
  string | null,
  string,
  number,
];

const candidateRow = (c: CandidateColumns): CandidateRow => ({
  seq: c[0],
  scope: c[1],
  key: c[2],
  body: c[3],
  value: c[4],
  subjects: c[5],
  id: c[6],
  trust: c[7],
  confidence: c[8],
  active_from: c[9],
  recorded_at: c[10],
  keep: c[11],
});

interface Scored {
  row: CandidateRow;
  subjects: string[];
  counts: TermCounts;
}

function scored(row: CandidateRow, terms: QueryTerms): Scored {
  const subjects = row.subjects === '[]' ? [] : (JSON.parse(row.subjects) as string[]);
  const value = row.value === null ? null : (JSON.parse(row.value) as unknown);
  return {
    row,
    subjects,
    counts: terms.counts({ scope: row.scope, body: row.body, key: row.key, subjects, value }),
  };
}

/** The statements of one search: matches newest first, and counts of one word's matches, inside the scopes. */
class ScopedQuery {
  readonly #scopes: ResolvedScopes & { toks: string[] };
  readonly #prepare: Prepare;
  readonly #useTokens: boolean;
  readonly #indexes: readonly FtsIndex[];
  readonly #scopeWhere: string[] = [];
  readonly #scopeParams: Record<string, SQLInputValue> = {};
  readonly #keep: string[] = [];
  readonly #keepParams: Record<string, SQLInputValue> = {};

  constructor(
    plan: SearchPlan,
    scopes: ResolvedScopes & { toks: string[] },
    prepare: Prepare,
    useTokens: boolean,
  ) {
    this.#scopes = scopes;
    this.#prepare = prepare;
    this.#useTokens = useTokens;
    // As of a past time, what was current then may be current now or history now: both indexes are the collection.
    this.#indexes = readsHistory(plan) ? ['current', 'history'] : ['current'];
    if (!useTokens) addFilters(this.#scopeWhere, this.#scopeParams, {}, scopes, true);
    // The filters decide which matches are returned, not which are counted: the statistics are the scopes'.
    addFilters(this.#keep, this.#keepParams, plan, scopes, false);
  }

  /**
   * Matches of `match` in the scopes, newest first when `newestFirst` (else in the index's order, for a limit
   * that takes them all); each with its ranking fields and whether it passes the filters.
   */
  matches(match: string, read: MatchRead): CandidateRow[] {
    const keep = this.#keep.length === 0 ? '1' : `(${this.#keep.join(' AND ')})`;
    // Each match's row is read once, for its scope (the join) and its fields together; the index yields rowids
    // newest first, and the two indexes of an as-of read merge in that order, so no sort is needed.
    const arms = this.#indexes.map((index) =>
      this.#arm(index, `fts_${index}.rowid AS seq, ${CANDIDATE_COLUMNS}, ${keep} AS keep`, true),
    );
    const order = arms.length === 1 ? `fts_${this.#indexes[0]}.rowid` : 'seq';
    const sorted = read.newestFirst ? ` ORDER BY ${order} DESC` : '';
    // A fixed limit is written into the statement, which cost less than binding it (the statement alone, at
    // 100k: 196 -> 168 us CPU); one that changes from search to search is bound, so it is one statement.
    const limit = read.fixed && Number.isSafeInteger(read.limit) ? String(read.limit) : ':n';
    const statement = this.#prepare(`${arms.join(' UNION ALL ')}${sorted} LIMIT ${limit}`);
    // Rows as arrays, made into objects here: node:sqlite builds a named row slower than this map does (measured
    // with scopedCandidates, 342 -> 309 us CPU). The statement's text is this function's alone, so no other
    // user of the store's statement cache gets arrays.
    statement.setReturnArrays(true);
    const rows = statement.all({
      ...this.#scopeParams,
      ...this.#keepParams,
      match: this.#match(match),
      ...(limit === ':n' ? { n: read.limit } : {}),
    }) as unknown as CandidateColumns[];
    return rows.map(candidateRow);
  }

  /** How many documents in the scopes match `match`. */
  count(match: string): number {
    const arms = this.#indexes.map((index) => `(SELECT count(*) FROM (${this.#arm(index, '1', false)}))`);
    const row = this.#prepare(`SELECT ${arms.join(' + ')} AS n`).get({
      ...this.#scopeParams,
      match: this.#match(match),
    }) as { n: number };
    return Number(row.n);
  }

  collection(): Collection {
    return readCollection(this.#prepare, this.#scopes, this.#indexes);
  }

  #match(match: string): string {
    // The scope is a column of the document: intersecting with its posting list narrows before anything is read.
    return this.#useTokens ? `scope_tok : (${this.#scopes.toks.join(' OR ')}) AND (${match})` : match;
  }

  /** One index's matches inside the scopes: by the MATCH alone (tokens), or joined to test each row's scope. */
  #arm(index: FtsIndex, columns: string, rows: boolean): string {
    const table = `fts_${index}`;
    if (this.#useTokens && !rows) return `SELECT ${columns} FROM ${table} WHERE ${table} MATCH :match`;
    const scope = this.#useTokens ? '' : ` AND ${this.#scopeWhere.join(' AND ')}`;
    return `SELECT ${columns} FROM ${table} JOIN memories m ON m.seq = ${table}.rowid
      WHERE ${table} MATCH :match${scope}`;
  }
}

/**
 * The statistics as read, unless they cannot be right: fewer documents than were just matched (a home whose
 * statistics were lost, say), where the matches themselves are the best estimate left.
 */
function sane(collection: Collection, rows: Iterable<Scored>, df: readonly number[]): Collection {
  let docs = 0;
  let tokens = 0;
  for (const r of rows) {
    docs++;
    tokens += r.counts.length;
  }
  const least = Math.max(docs, ...df);
  if (collection.docs >= least && collection.tokens > 0) return collection;
  return { docs: Math.max(1, least), tokens: Math.max(1, tokens) };
}

function count<T>(items: Iterable<T>, test: (item: T) => boolean): number {
  let n = 0;
  for (const item of items) if (test(item)) n++;
  return n;
}
