/**
 * The part of the Store port that reads a memory's neighbours: the turns said just before and just after it in
 * the same session (the call context's session id, stamped in provenance: an MCP session, a hook's or a feed's
 * transcript session), in the order they were recorded. Kept apart from port.ts: a read beside search.
 */
import type { Memory } from '../model/memory.ts';
import type { ScopeSet } from './port.ts';

export interface Neighbours {
  before: Memory | null;
  after: Memory | null;
}

export interface NeighbourStore {
  /**
   * For each id, the nearest current memory of the same session recorded before it and after it, among the
   * memories in `scopes` only: a turn outside them is passed over as if it were never said (I4), so neither
   * it nor a gap where it stood can be seen. Ids with no session, or unknown, map to two nulls.
   */
  around(ids: readonly string[], scopes: ScopeSet): Promise<Map<string, Neighbours>>;
}
