/**
 * "Commitments that came due in (t1, t2]": the one question the commitment trigger asks. A commitment is a memory
 * of kind `commitment`; its due time is `value.due` (an ISO time). The commitments part (h/commitments) owns that
 * shape; this function is the seam to align with it.
 */
import type { Memory } from '../model/memory.ts';
import type { ScopeSet, Store } from '../store/port.ts';

export interface DueCommitment {
  memory: Memory;
  due: string;
}

/** Active commitments in the scope set whose due time falls in (after, until], earliest first. */
export async function dueCommitments(
  store: Store,
  scopes: ScopeSet,
  after: string,
  until: string,
): Promise<DueCommitment[]> {
  const open = await store.list({ scopes, states: ['active'], kinds: ['commitment'], limit: 1000 });
  const out: DueCommitment[] = [];
  for (const memory of open) {
    const due = dueOf(memory);
    if (due !== null && due > after && due <= until) out.push({ memory, due });
  }
  return out.sort((a, b) => a.due.localeCompare(b.due));
}

function dueOf(memory: Memory): string | null {
  const v = memory.value as { due?: unknown } | null;
  if (v === null || typeof v !== 'object' || typeof v.due !== 'string') return null;
  const t = Date.parse(v.due);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}
