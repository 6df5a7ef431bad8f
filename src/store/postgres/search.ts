/** Filtered listing over the Postgres store, and the filters search and listing share (SQLite's search.ts). */
import { STATES } from '../../model/memory.ts';
import type { ListFilter, ScopeSet, SearchPlan } from '../port.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { type Params, type Q, run } from './statements.ts';
import { Params as P } from './statements.ts';

/** The scope restriction on a column: exact scopes and `kind:*` prefixes, or nothing for every scope. */
export function scopeWhere(column: string, scopes: ScopeSet, p: Params): string | null {
  if (scopes.all) return null;
  if (scopes.exact.length === 0 && scopes.prefixes.length === 0) return 'false';
  // Only the parts there are: an `or` with an empty prefix list kept the planner off the scope index (a
  // parallel seq scan of every search document, 80 ms at 100k; EXPLAIN in docs/scaling.md).
  const parts: string[] = [];
  if (scopes.exact.length > 0) parts.push(`${column} = any(${p.add(scopes.exact)}::text[])`);
  if (scopes.prefixes.length > 0) parts.push(`${column} ^@ any(${p.add(scopes.prefixes)}::text[])`);
  return parts.length === 1 ? parts[0]! : `(${parts.join(' or ')})`;
}

export function addFilters(
  where: string[],
  p: Params,
  f: Pick<SearchPlan, 'kinds' | 'subject' | 'key' | 'asOf' | 'validAt'>,
): void {
  if (f.kinds !== undefined && f.kinds.length > 0) where.push(`m.kind = any(${p.add(f.kinds)}::text[])`);
  if (f.key !== undefined) where.push(`m.key_folded = lower(${p.add(f.key)})`);
  if (f.subject !== undefined) {
    where.push(
      `exists (select 1 from memledger.memory_subjects s where s.memory_seq = m.seq and s.subject = ${p.add(f.subject)})`,
    );
  }
  clockFilters(where, p, f);
}

/** The two clocks (I12), exactly as SQLite's clockFilters (see there for what each reads). */
function clockFilters(where: string[], p: Params, f: Pick<SearchPlan, 'asOf' | 'validAt'>): void {
  const asOf = f.asOf === undefined ? '' : p.add(f.asOf);
  const validAt = f.validAt === undefined ? '' : p.add(f.validAt);
  const validFrom = `(m.valid_start is null or m.valid_start <= ${validAt})`;
  if (f.asOf !== undefined && f.validAt === undefined) {
    where.push(
      `m.active_from <= ${asOf} and (m.active_until is null or m.active_until > ${asOf}) and m.state <> 'erased'`,
    );
  } else if (f.asOf === undefined && f.validAt !== undefined) {
    where.push(
      `m.active_from is not null and ${validFrom} and (
         (m.state = 'active' and (m.valid_end is null or m.valid_end > ${validAt}))
         or (m.state = 'superseded' and m.valid_end > ${validAt}))`,
    );
  } else if (f.asOf !== undefined && f.validAt !== undefined) {
    where.push(
      `m.active_from <= ${asOf} and m.state <> 'erased' and ${validFrom} and (
         ((m.active_until is null or m.active_until > ${asOf}) and (m.valid_to is null or m.valid_to > ${validAt}))
         or (m.state = 'superseded' and m.active_until <= ${asOf} and m.valid_end > ${validAt}))`,
    );
  }
}

/** Both clocks read versions that are not current now: the history index holds those. */
export const readsHistory = (f: Pick<SearchPlan, 'asOf' | 'validAt'>): boolean =>
  f.asOf !== undefined || f.validAt !== undefined;

export async function listMemories(q: Q, filter: ListFilter): Promise<ReturnType<typeof toMemory>[]> {
  const p = new P();
  const where: string[] = [];
  addFilters(where, p, { ...filter, kinds: undefined });
  let states: string[] | null = null;
  if (!readsHistory(filter) || filter.states !== undefined) {
    states = (filter.states ?? ['active']).filter((s) => (STATES as readonly string[]).includes(s));
    where.push(states.length === 0 ? 'false' : `m.state = any(${p.add(states)}::text[])`);
  }
  if (filter.before !== undefined) {
    where.push(`m.seq < (select seq from memledger.memories where id = ${p.add(filter.before)})`);
  }
  const s = filter.scopes;
  const kinds = [...new Set(filter.kinds ?? [])];
  const exact = s.all ? [] : [...new Set(s.exact)];
  if (
    states?.length === 1 &&
    states[0] === 'active' &&
    !s.all &&
    s.prefixes.length === 0 &&
    exact.length > 0
  ) {
    if (kinds.length > 0 && exact.length * kinds.length <= PAIRS) {
      return (await run<MemoryRow>(q, byPairs(p, where, exact, kinds, filter.limit), p.values)).map(toMemory);
    }
  }
  const scope = scopeWhere('m.scope', s, p);
  if (scope !== null) where.push(scope);
  if (kinds.length > 0) where.push(`m.kind = any(${p.add(kinds)}::text[])`);
  const sql = `select ${MEMORY_COLUMNS} from memledger.memories m
    ${where.length > 0 ? `where ${where.join(' and ')}` : ''} order by m.seq desc limit ${p.add(filter.limit)}`;
  return (await run<MemoryRow>(q, sql, p.values)).map(toMemory);
}

/** At most this many (scope, kind) pairs are listed one by one; more take the one statement. */
const PAIRS = 64;

/**
 * The newest `limit` active memories of some kinds in some scopes, as the newest `limit` of each (scope, kind)
 * pair, merged: each pair is one backward walk of migration 11's `memories_active_kind_scope` that stops at
 * `limit`, where one statement over all of them walked the tenant's newest memories (the primary key) testing
 * each, or read every memory of the kinds (context's commitments listing at 1M: 219 ms, 12,141 buffers a call).
 * The union of each pair's newest `limit` holds the newest `limit` of all, so the answer is the same.
 */
function byPairs(p: P, where: string[], scopes: string[], kinds: string[], limit: number): string {
  const l = p.add(limit);
  const rest = where.length > 0 ? `and ${where.join(' and ')}` : '';
  return `select x.* from unnest(${p.add(scopes)}::text[]) s(scope) cross join unnest(${p.add(kinds)}::text[]) k(kind)
    cross join lateral (select ${MEMORY_COLUMNS} from memledger.memories m
      where m.scope = s.scope and m.kind = k.kind ${rest} order by m.seq desc limit ${l}) x
    order by x.seq desc limit ${l}`;
}
