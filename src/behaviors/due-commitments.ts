/**
 * "Commitments that came due in (t1, t2]": the one question the commitment trigger asks, answered by the
 * commitments part of the store (src/store/commitments-port.ts): live (open or doing) commitments of active
 * memories whose due time or one-off reminder falls in the window. Done and cancelled ones never fire.
 */
import type { Memory } from '../model/memory.ts';
import type { ScopeSet, Store } from '../store/port.ts';

export interface DueCommitment {
  memory: Memory;
  /** The instant it came due: its due time, else its reminder, whichever falls in the window. */
  due: string;
  /** Who is to do it, as a principal label (the commitment_due notification names them). */
  owner: string;
}

/** How many due commitments one tick looks at; more wait for the next tick's window (they stay due). */
const SCAN = 1_000;

/** Live commitments in the scope set that came due in (after, until], earliest first. */
export async function dueCommitments(
  store: Store,
  scopes: ScopeSet,
  after: string,
  until: string,
): Promise<DueCommitment[]> {
  const rows = await store.commitments.dueBetween(scopes, after, until, SCAN);
  const memories = await store.getMemories(rows.map((r) => r.memoryId));
  const out: DueCommitment[] = [];
  rows.forEach((row, i) => {
    const memory = memories[i];
    if (memory === null || memory === undefined || memory.state !== 'active') return;
    const inWindow = (t: string | null) => t !== null && t > after && t <= until;
    const due = inWindow(row.dueAt) ? row.dueAt : inWindow(row.remindAt) ? row.remindAt : null;
    if (due !== null) out.push({ memory, due, owner: row.owner });
  });
  return out.sort((a, b) => a.due.localeCompare(b.due));
}
