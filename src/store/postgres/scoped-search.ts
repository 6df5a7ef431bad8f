/**
 * Full-text candidates on Postgres, chosen and scored from the caller's scopes alone (I4), by the same rule as
 * SQLite's scoped-search.ts: the matches inside the scopes come newest first (memledger.search_matches,
 * migration 11: one GIN scan of the tenant's scope lexemes and the words, before anything is ranked), bm25 is
 * computed here over scope_stats of those scopes and term frequencies re-counted from the rows, so no unreadable
 * row moves a score. The documents hold the tokens FTS5 would index (rows.ts), so matches and scores follow the
 * embedded backend's.
 */
import type { SearchCandidate, SearchPlan } from '../port.ts';
import { bm25, idf, QueryTerms, type TermCounts } from '../text/bm25.ts';
import { CANDIDATE_CAP } from '../sqlite/scoped-search.ts';
import { orQuery, phraseQuery } from './rows.ts';
import type { FtsIndex } from './scope-stats.ts';
import { addFilters, readsHistory, scopeWhere } from './search.ts';
import { Params, type Q, run } from './statements.ts';

export { CANDIDATE_CAP };

interface CandidateRow {
  seq: number;
  id: string;
  scope: string;
  key: string | null;
  body: string;
  value: string | null;
  subjects: string;
  trust: string;
  confidence: number;
  active_from: string | null;
  recorded_at: string;
  keep: boolean;
}

interface Scored {
  row: CandidateRow;
  subjects: string[];
  counts: TermCounts;
}

/** Up to `plan.candidates` matches in the plan's scopes, best bm25 first (ties: newest first). */
export async function scopedCandidates(
  q: Q,
  plan: SearchPlan,
  cap = CANDIDATE_CAP,
): Promise<SearchCandidate[]> {
  const match = orQuery(plan.terms);
  // No scope at all (not every scope): nothing to match, as scopeWhere's `false`.
  if (match === null || noScope(plan)) return [];
  const indexes: FtsIndex[] = readsHistory(plan) ? ['current', 'history'] : ['current'];
  const terms = new QueryTerms(plan.terms);
  const rows = new Map<number, Scored>();
  const add = (found: CandidateRow[]) => {
    for (const row of found) if (!rows.has(row.seq)) rows.set(row.seq, scored(row, terms));
  };
  // One statement in the common case: the newest matches and the scopes' statistics together.
  const first = await matchesWithStats(q, plan, indexes, match, cap + 1);
  const newest = first.rows;
  add(newest);
  let df: number[];
  if (newest.length <= cap) {
    df = plan.terms.map((_, i) => count(rows.values(), (r) => r.counts.tf[i]! > 0));
  } else {
    const phrases = plan.terms.map(phraseQuery);
    df = await countMatches(q, plan, indexes, match, phrases);
    let budget = cap;
    for (const i of [...df.keys()].sort((a, b) => df[a]! - df[b]! || a - b)) {
      if (df[i]! > budget) break;
      if (df[i] === 0) continue;
      add(await matches(q, plan, indexes, phrases[i]!, df[i]!));
      budget -= df[i]!;
    }
  }
  const collection = sane(first.collection, rows.values(), df);
  const idfs = df.map((n) => idf(collection.docs, n));
  const averageLength = collection.tokens / collection.docs;
  return [...rows.values()]
    .filter((r) => r.row.keep)
    .map((r) => ({ r, score: bm25(r.counts, idfs, averageLength) }))
    .sort((a, b) => b.score - a.score || b.r.row.seq - a.r.row.seq)
    .slice(0, plan.candidates)
    .map(({ r, score }) => ({
      memory: {
        id: r.row.id,
        scope: r.row.scope,
        key: r.row.key,
        body: r.row.body,
        subjects: r.subjects,
        trust: r.row.trust as SearchCandidate['memory']['trust'],
        confidence: r.row.confidence,
        activeFrom: r.row.active_from,
        recordedAt: r.row.recorded_at,
      },
      // FTS5's sign: lower is better.
      bm25: -score,
    }));
}

/**
 * The matches of a tsquery inside the plan's scopes, newest first, at most `limit` (null: all), as a FROM item
 * (`seq`, `tsv`). Row-level security keeps `@@` off any index (it is not LEAKPROOF), so the matching runs in
 * migration 11's definer function, which binds the transaction's tenant itself; the tenant's scopes are lexemes
 * of its GIN index, ANDed with the words there, so one index scan finds the scopes' matches.
 */
function matchesFrom(
  p: Params,
  plan: SearchPlan,
  indexes: FtsIndex[],
  tsquery: string,
  limit: number | null,
): string {
  const s = plan.scopes;
  return `memledger.search_matches(${p.add(indexes)}::text[], ${p.add(tsquery)}::tsquery,
    ${p.add(s.all ? null : s.exact)}::text[], ${p.add(s.all ? null : s.prefixes)}::text[], ${p.add(limit)}::bigint)`;
}

/** The candidate row's columns, and whether it passes the plan's filters (which decide what is returned, not
 * what is counted: the statistics are the scopes'). */
function candidateColumns(p: Params, plan: SearchPlan): string {
  const keep: string[] = [];
  addFilters(keep, p, plan);
  return `d.seq::float8 as seq, m.id, m.scope, m.key, m.body, m.value, m.subjects, m.trust, m.confidence,
       m.active_from, m.recorded_at, ${keep.length === 0 ? 'true' : keep.join(' and ')} as keep`;
}

/** Matches of a tsquery inside the scopes, newest first, each with whether it passes the plan's filters. */
async function matches(
  q: Q,
  plan: SearchPlan,
  indexes: FtsIndex[],
  tsquery: string,
  limit: number,
): Promise<CandidateRow[]> {
  const p = new Params();
  const columns = candidateColumns(p, plan);
  const found = matchesFrom(p, plan, indexes, tsquery, limit);
  return run<CandidateRow>(
    q,
    `select ${columns} from ${found} d join memledger.memories m on m.seq = d.seq order by d.seq desc`,
    p.values,
  );
}

/**
 * `matches` and the scopes' statistics (readCollection's sums) in one statement: the statistics row always
 * comes back, joined to the matches if there are any (null columns when none).
 */
async function matchesWithStats(
  q: Q,
  plan: SearchPlan,
  indexes: FtsIndex[],
  tsquery: string,
  limit: number,
): Promise<{ rows: CandidateRow[]; collection: { docs: number; tokens: number } }> {
  const p = new Params();
  const columns = candidateColumns(p, plan);
  const matched = matchesFrom(p, plan, indexes, tsquery, limit);
  const statsScope = scopeWhere('s.scope', plan.scopes, p);
  const found = await run<CandidateRow & { c_docs: number; c_tokens: number }>(
    q,
    `with hits as (
       select ${columns} from ${matched} d join memledger.memories m on m.seq = d.seq),
     stats as (
       select coalesce(sum(s.docs), 0)::float8 as c_docs, coalesce(sum(s.tokens), 0)::float8 as c_tokens
       from memledger.scope_stats s where s.idx = any(${p.add(indexes)}::text[])
       ${statsScope === null ? '' : `and ${statsScope}`})
     select stats.c_docs, stats.c_tokens, hits.* from stats left join hits on true order by hits.seq desc`,
    p.values,
  );
  const head = found[0];
  return {
    rows: found.filter((r) => r.seq !== null),
    collection: { docs: Number(head?.c_docs ?? 0), tokens: Number(head?.c_tokens ?? 0) },
  };
}

/** How many matches inside the scopes each word has (df), in one pass over the matches of any of them. */
async function countMatches(
  q: Q,
  plan: SearchPlan,
  indexes: FtsIndex[],
  any: string,
  phrases: (string | null)[],
): Promise<number[]> {
  const p = new Params();
  const counts = phrases.map((ph, i) =>
    ph === null
      ? `0::float8 as n${i}`
      : `count(*) filter (where d.tsv @@ ${p.add(ph)}::tsquery)::float8 as n${i}`,
  );
  const matched = matchesFrom(p, plan, indexes, any, null);
  const [row] = await run<Record<string, number>>(
    q,
    `select ${counts.join(', ')} from ${matched} d`,
    p.values,
  );
  return phrases.map((_, i) => Number(row?.[`n${i}`] ?? 0));
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

/** The statistics as read, unless fewer documents than were just matched: then the matches are the estimate. */
function sane(
  collection: { docs: number; tokens: number },
  rows: Iterable<Scored>,
  df: readonly number[],
): { docs: number; tokens: number } {
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

const noScope = ({ scopes: s }: SearchPlan): boolean =>
  !s.all && s.exact.length === 0 && s.prefixes.length === 0;

function count<T>(items: Iterable<T>, test: (item: T) => boolean): number {
  let n = 0;
  for (const item of items) if (test(item)) n++;
  return n;
}
