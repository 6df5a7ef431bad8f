/**
 * A listing inside a few named scopes, newest first, as one statement that walks each scope's partial index
 * (`memories_active_scope` or `memories_held`: scope, seq) from its newest row and stops at the limit, instead
 * of one range over every scope at once. With `m.scope IN (…)` the planner either takes the kind index and
 * tests the scope on every row of the kind (context's rules: every active preference and decision of the home,
 * then a sort), or scans the log; per scope, each arm reads at most `limit` matching rows. The arms return
 * sequence numbers only, merged and cut to the limit before any whole row is read.
 * The cost follows the scopes' size, not the home's: context's two listings (rules: preference and decision,
 * limit 200; commitments: valid now, limit 100) for `shared` plus one scope, 300 calls on the bench's 100k home,
 * cost 3.6 and 3.9 ms of CPU a call as one range (the kind index; a scan of the log) and 2.2 and 2.6 ms this way;
 * on the 1M home (1,000 scopes) 12.9 and 14.6 ms as one range, 5.1 and 5.2 ms this way. With the pools' own
 * index (migration 17: only active preferences, decisions and commitments, scope, kind, seq) each scope and kind
 * is one ordered range: 1.2 and 0.8 ms at 100k, 1.3 and 1.1 ms at 1M. (The kind index these figures name was
 * dropped by migration 18; the pools' kinds over every scope read ranges of their own, `perKindList` below.)
 */
import type { SQLInputValue } from 'node:sqlite';

/**
 * The partial indexes on (scope, seq), by the condition on the one state each holds (migration 1). Named, not
 * left to the planner: with one kind it preferred the kind index (kind, seq; dropped by migration 18), whose walk
 * tests the scope on every row of the kind until enough pass, the whole kind for a small scope.
 */
const SCOPE_INDEX: ReadonlyMap<string, string> = new Map([
  ["m.state = 'active'", 'memories_active_scope'],
  ["m.state = 'held'", 'memories_held'],
]);
/**
 * The kinds of the pools' index (migration 17) and its condition as written there: SQLite uses a partial index
 * only when the query's text contains each term of the index's WHERE (`kind = 'decision'` does not imply an IN
 * list), so each arm on it carries the same term beside its own kind. Kinds are written as literals from this
 * list only, never from the filter's text.
 */
export const POOL_KINDS: readonly string[] = ['preference', 'decision', 'commitment'];
const POOL_CONDITION = `m.kind IN (${POOL_KINDS.map((k) => `'${k}'`).join(', ')})`;
/** Past this many scopes the arms cost more than one range; the planner's own choice stands. */
const MAX_ARMS = 8;

/**
 * The statement, or null when the listing does not take this form: scopes by prefix, too many scopes, or
 * states no partial index holds. `where` holds every condition but the scopes; `state` is one of them. Active
 * memories of the pools' kinds only (`kinds`, each one of POOL_KINDS) get one arm per scope and kind on the
 * pools' index: an ordered range each, no kind tested row by row.
 */
export function perScopeList(
  columns: string,
  exact: readonly string[],
  where: readonly string[],
  params: Record<string, SQLInputValue>,
  kinds?: readonly string[],
): string | null {
  if (exact.length === 0 || exact.length > MAX_ARMS) return null;
  const index = where.map((w) => SCOPE_INDEX.get(w)).find((i) => i !== undefined);
  if (index === undefined) return null;
  const pool =
    index === 'memories_active_scope' &&
    kinds !== undefined &&
    kinds.length > 0 &&
    kinds.every((k) => POOL_KINDS.includes(k));
  const arms = exact.flatMap((scope, i) => {
    params[`sx${i}`] = scope;
    if (!pool) return [arm(index, [`m.scope = :sx${i}`, ...where])];
    // The filter's own `m.kind IN (:k0, …)` stays in `where`: the arm's literal kind implies it.
    return POOL_KINDS.filter((k) => kinds.includes(k)).map((k) =>
      arm(null, [`m.scope = :sx${i}`, `m.kind = '${k}'`, POOL_CONDITION, ...where]),
    );
  });
  return `SELECT ${columns} FROM memories m WHERE m.seq IN (${arms.join(' UNION ALL ')} ORDER BY seq DESC LIMIT :n)
    ORDER BY m.seq DESC`;
}

/**
 * The kind ranges of migration 18 (`memories_active_<kind>`: seq, for the active memories of one pool kind), by
 * the kind they hold. Each arm names its range and carries the range's condition as written there.
 */
const KIND_RANGE: ReadonlyMap<string, string> = new Map(POOL_KINDS.map((k) => [k, `memories_active_${k}`]));

/**
 * A listing of active memories of the pools' kinds over every scope, scopes by prefix or more than MAX_ARMS
 * scopes, newest first, as one statement: per kind, its own range from the newest row, testing the other
 * conditions (the scopes among them) row by row until the limit, merged and cut to the limit before any whole
 * row is read. Null when the listing is not of that form (another kind, another state); `where` holds every
 * condition, the scopes' included.
 * Why not one range for all kinds: without an index of every kind (dropped by migration 18) the log is walked
 * until enough rows match, which is the whole log at 1M (152 ms) when the kind is rare, as rules and
 * commitments are in most homes; context reads them on every call.
 */
export function perKindList(
  columns: string,
  where: readonly string[],
  kinds?: readonly string[],
): string | null {
  if (kinds === undefined || kinds.length === 0 || !kinds.every((k) => KIND_RANGE.has(k))) return null;
  if (!where.includes("m.state = 'active'")) return null;
  const arms = POOL_KINDS.filter((k) => kinds.includes(k)).map((k) =>
    arm(KIND_RANGE.get(k)!, [`m.kind = '${k}'`, ...where]),
  );
  return `SELECT ${columns} FROM memories m WHERE m.seq IN (${arms.join(' UNION ALL ')} ORDER BY seq DESC LIMIT :n)
    ORDER BY m.seq DESC`;
}

/**
 * One arm: the newest `:n` sequence numbers under the conditions, on the named index, or (null) on the planner's
 * choice: it takes the pools' index by itself for a pool arm (equality on scope and kind beats the scope index;
 * test/store/list-per-scope.test.ts asserts the plan).
 */
function arm(index: string | null, conditions: readonly string[]): string {
  const on = index === null ? '' : `INDEXED BY ${index} `;
  return `SELECT seq FROM (SELECT m.seq FROM memories m ${on}WHERE ${conditions.join(' AND ')} ORDER BY m.seq DESC LIMIT :n)`;
}
