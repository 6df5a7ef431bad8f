/** Full-text candidates and filtered listing over memory.db. Ranking beyond bm25 happens in the ledger. */
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { STATES } from '../../model/memory.ts';
import type { ListFilter, SearchCandidate, SearchPlan } from '../port.ts';
import { perKindList, perScopeList } from './list-per-scope.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';

export type ResolvedScopes = { toks: string[] | null; exact: string[]; prefixes: string[] };
type Prepare = (sql: string) => StatementSync;

/**
 * Two ways to keep a search inside its scopes, which return the same rows with the same scores
 * (scoped-search.ts):
 * - tokens: `scope_tok : (t1 OR …) AND (terms)`, so the index intersects the scopes' posting lists with the
 *   terms' before anything is read. It reads every document of those scopes: cheap for a few, linear in their size.
 * - join: the terms alone, with the scope tested on each matching row, newest first, until enough pass. It
 *   walks the documents holding a term, about the cost of an unscoped search, whatever the scopes.
 * Measured at 100k memories (100 and 300 scopes, 3-term queries): tokens cost 0.9 ms for one scope and grow by
 * 0.15–0.25 ms per scope; the join costs 2.5–3.5 ms and falls as the scopes' share grows. They cross when the
 * scopes are some 8–12% of the home's, so tokens are used below a tenth. An agent reading `project:*` in a
 * home of 100 projects took 25 ms with tokens and 2.5 ms with the join.
 */
const TOKEN_SHARE = 0.1;
/** Never more tokens than this in one MATCH, whatever their share. */
const MAX_SCOPE_TOKENS = 256;

/** What ranking reads of each candidate: no value or provenance to parse, no lifecycle columns. */
const SEARCH_COLUMNS =
  'm.id, m.scope, m.key, m.body, m.subjects, m.trust, m.confidence, m.active_from, m.recorded_at';

interface SearchRow {
  id: string;
  scope: string;
  key: string | null;
  body: string;
  subjects: string;
  trust: string;
  confidence: number;
  active_from: string | null;
  recorded_at: string;
  score: number;
}

/** Which way a scoped search keeps to its scopes (above): tokens for one or a few, the join for a large share. */
export function usesScopeTokens(toks: readonly string[], scopeCount: () => number): boolean {
  // One scope, the common case, always takes the tokens: the scopes need not be counted for it.
  return toks.length === 1 || (toks.length <= MAX_SCOPE_TOKENS && toks.length < TOKEN_SHARE * scopeCount());
}

/**
 * Candidates for a principal who reads every scope, ranked by FTS5's own bm25: its index-wide statistics are
 * exactly what this caller may read (I4). A search inside named scopes goes to scoped-search.ts instead.
 */
export function indexWideCandidates(plan: SearchPlan, prepare: Prepare): SearchCandidate[] {
  const where: string[] = [];
  const params: Record<string, SQLInputValue> = { match: plan.match, n: plan.candidates };
  addFilters(where, params, plan, EVERY_SCOPE, false);
  const needsJoinFilter = where.length > 0;

  // As of a past time, what was current then may be current now or history now; valid at a time, what was
  // true then may be a superseded version: read both indexes.
  const source = !readsHistory(plan)
    ? `(SELECT rowid, rank FROM fts_current WHERE fts_current MATCH :match)`
    : `(SELECT rowid, rank FROM fts_current WHERE fts_current MATCH :match
          UNION ALL SELECT rowid, rank FROM fts_history WHERE fts_history MATCH :match)`;
  const sql = needsJoinFilter
    ? `SELECT ${SEARCH_COLUMNS}, f.rank AS score FROM ${source} f JOIN memories m ON m.seq = f.rowid
       WHERE ${where.join(' AND ')} ORDER BY f.rank LIMIT :n`
    : `SELECT ${SEARCH_COLUMNS}, f.score FROM (SELECT rowid, rank AS score FROM fts_current WHERE fts_current MATCH :match ORDER BY rank LIMIT :n) f
       JOIN memories m ON m.seq = f.rowid ORDER BY f.score`;
  const rows = prepare(sql).all(params) as unknown as SearchRow[];
  return rows.map((r) => ({
    memory: {
      id: r.id,
      scope: r.scope,
      key: r.key,
      body: r.body,
      subjects: JSON.parse(r.subjects) as string[],
      trust: r.trust as SearchCandidate['memory']['trust'],
      confidence: r.confidence,
      activeFrom: r.active_from,
      recordedAt: r.recorded_at,
    },
    bm25: r.score,
  }));
}

const EVERY_SCOPE: ResolvedScopes = { toks: null, exact: [], prefixes: [] };

export function listMemories(
  filter: ListFilter,
  scopes: ResolvedScopes,
  prepare: Prepare,
): ReturnType<typeof toMemory>[] {
  if (scopes.toks !== null && scopes.toks.length === 0) return [];
  const where: string[] = [];
  const params: Record<string, SQLInputValue> = { n: filter.limit };
  // A few named scopes are listed scope by scope (list-per-scope.ts); their condition is added there.
  const perScope = scopes.toks !== null && scopes.prefixes.length === 0;
  addFilters(where, params, { ...filter, asOf: filter.asOf }, scopes, !perScope);
  // The clocks choose the states themselves; otherwise current memories unless the caller names states.
  if (!readsHistory(filter) || filter.states !== undefined) {
    // States are written into the SQL, not bound: SQLite uses a partial index (`WHERE state = 'active'`) only
    // when the query's own text implies its condition, and a bound parameter never does. Each is checked
    // against the closed list first, so nothing but those words can reach the statement.
    const states = (filter.states ?? ['active']).filter((s) => (STATES as readonly string[]).includes(s));
    const literals = states.map((s) => `'${s}'`);
    // `= 'active'`, not `IN ('active')`: only the equality lets the planner see the partial index applies.
    where.push(
      literals.length === 0
        ? '0'
        : literals.length === 1
          ? `m.state = ${literals[0]}`
          : `m.state IN (${literals.join(', ')})`,
    );
  }
  if (filter.before !== undefined) {
    where.push('m.seq < (SELECT seq FROM memories WHERE id = :before)');
    params.before = filter.before;
  }
  let sql = perScope ? perScopeList(MEMORY_COLUMNS, scopes.exact, where, params, filter.kinds) : null;
  if (sql === null && perScope) where.unshift(scopeCondition(scopes, params));
  sql ??= perKindList(MEMORY_COLUMNS, where, filter.kinds);
  sql ??= `SELECT ${MEMORY_COLUMNS} FROM memories m ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY m.seq DESC LIMIT :n`;
  return (prepare(sql).all(params) as unknown as MemoryRow[]).map(toMemory);
}

export function addFilters(
  where: string[],
  params: Record<string, SQLInputValue>,
  f: Pick<SearchPlan, 'kinds' | 'subject' | 'key' | 'asOf' | 'validAt'>,
  scopes: ResolvedScopes,
  filterScopes: boolean,
): void {
  if (filterScopes && scopes.toks !== null) where.push(scopeCondition(scopes, params));
  if (f.kinds !== undefined && f.kinds.length > 0) {
    where.push(`m.kind IN (${f.kinds.map((_, i) => `:k${i}`).join(', ')})`);
    f.kinds.forEach((k, i) => {
      params[`k${i}`] = k;
    });
  }
  if (f.key !== undefined) {
    where.push('lower(m.key) = lower(:key)');
    params.key = f.key;
  }
  if (f.subject !== undefined) {
    where.push(
      'EXISTS (SELECT 1 FROM memory_subjects s WHERE s.memory_seq = m.seq AND s.subject = :subject)',
    );
    params.subject = f.subject;
  }
  clockFilters(where, params, f);
}

/** The scopes as one condition on `column`: exact ones in an IN list, prefixes compared by substr. */
export function scopeCondition(
  scopes: Pick<ResolvedScopes, 'exact' | 'prefixes'>,
  params: Record<string, SQLInputValue>,
  column = 'm.scope',
): string {
  const parts: string[] = [];
  // An IN list, not a chain of ORs: a search filtering by hundreds of scopes tests each row once.
  if (scopes.exact.length > 0) {
    parts.push(`${column} IN (${scopes.exact.map((_, i) => `:sx${i}`).join(', ')})`);
    scopes.exact.forEach((s, i) => {
      params[`sx${i}`] = s;
    });
  }
  scopes.prefixes.forEach((s, i) => {
    parts.push(`substr(${column}, 1, length(:sp${i})) = :sp${i}`);
    params[`sp${i}`] = s;
  });
  return parts.length > 0 ? `(${parts.join(' OR ')})` : '0';
}

/**
 * The two clocks (I12). As of A: what we believed at A: versions landed by A and not yet superseded, retracted
 * or rejected by A. Valid at B: what was true in the world at B, from every version we still believe (active,
 * or superseded: a superseded version stays believed for its valid period, while retracted, rejected, held
 * and erased ones are not believed at all), each over its valid time as the versions imply it (`valid_start`
 * to `valid_end`). A superseded version with no end to its valid time is left out: its successor replaced it
 * and nothing says until when it held. Together, what we believed at A about B: the versions current at A over
 * their own valid time (what was known then), and those superseded by A over the valid time their supersede
 * gave them.
 */
function clockFilters(
  where: string[],
  params: Record<string, SQLInputValue>,
  f: Pick<SearchPlan, 'asOf' | 'validAt'>,
): void {
  const validFrom = '(m.valid_start IS NULL OR m.valid_start <= :validAt)';
  if (f.asOf !== undefined) params.asOf = f.asOf;
  if (f.validAt !== undefined) params.validAt = f.validAt;
  if (f.asOf !== undefined && f.validAt === undefined) {
    where.push(
      `m.active_from <= :asOf AND (m.active_until IS NULL OR m.active_until > :asOf) AND m.state <> 'erased'`,
    );
  } else if (f.asOf === undefined && f.validAt !== undefined) {
    where.push(
      `m.active_from IS NOT NULL AND ${validFrom} AND (
         (m.state = 'active' AND (m.valid_end IS NULL OR m.valid_end > :validAt))
         OR (m.state = 'superseded' AND m.valid_end > :validAt))`,
    );
  } else if (f.asOf !== undefined && f.validAt !== undefined) {
    where.push(
      `m.active_from <= :asOf AND m.state <> 'erased' AND ${validFrom} AND (
         ((m.active_until IS NULL OR m.active_until > :asOf) AND (m.valid_to IS NULL OR m.valid_to > :validAt))
         OR (m.state = 'superseded' AND m.active_until <= :asOf AND m.valid_end > :validAt))`,
    );
  }
}

/** Both clocks read versions that are not current now: the history index holds those. */
export const readsHistory = (f: Pick<SearchPlan, 'asOf' | 'validAt'>): boolean =>
  f.asOf !== undefined || f.validAt !== undefined;
