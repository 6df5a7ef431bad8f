/**
 * A hit's neighbours: the turn said just before it and just after it in the same session, in recording order.
 * More than half of the misses on conversational memory are the reply to a turn that was found, so search can
 * return them grouped under each hit (`neighbours: true`) and context assembly places them beside it. The store
 * reads only the caller's scopes; the egress check here applies again what every read applies: current, in the
 * grants, no secret (I3, I4, I10). A neighbour that fails it is left out without a trace, never hinted.
 */
import type { Memory } from '../model/memory.ts';
import { inFilter, readFilter } from '../policy/access.ts';
import type { Neighbours } from '../store/neighbours-port.ts';
import type { Deps } from './deps.ts';
import { readableScopes } from './scopes.ts';
import { hasSecret } from './visibility.ts';

export type { Neighbours };

/** The neighbours of each memory, readable ones only; memories with no session map to two nulls. */
export async function neighboursOf(
  deps: Deps,
  ids: readonly string[],
  scopes: readonly string[] | undefined,
): Promise<Map<string, Neighbours>> {
  if (ids.length === 0) return new Map();
  const filter = readFilter(deps.principal, scopes);
  const found = await deps.store.neighbours.around(ids, readableScopes(deps.principal, scopes));
  const shown = (m: Memory | null): Memory | null =>
    m !== null && m.state === 'active' && inFilter(filter, m.scope) && !hasSecret(m) ? m : null;
  const out = new Map<string, Neighbours>();
  for (const id of ids) {
    const n = found.get(id);
    out.set(id, { before: shown(n?.before ?? null), after: shown(n?.after ?? null) });
  }
  return out;
}
