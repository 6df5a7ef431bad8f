/**
 * Corrections folded into a behavior's next window: when a reviewer edits or rejects one of its outputs, the
 * next run sees the latest correction per key (or per kind for keyless outputs). Older ones drop out, so the
 * prompt never accumulates the whole argument.
 */
import { maskSecrets } from '../guard/secrets.ts';
import type { Memory } from '../model/memory.ts';
import { can } from '../policy/access.ts';
import type { Deps } from '../ledger/deps.ts';
import { maskMemory } from '../ledger/visibility.ts';
import type { StoreTx } from '../store/port.ts';

export interface BehaviorCorrection {
  /** The output that was corrected. */
  proposalId: string;
  scope: string;
  key: string | null;
  action: 'edited' | 'rejected';
  /** The reviewer's edited version, while it is current; null for a rejection. */
  corrected: Memory | null;
  reason: string | null;
  by: string;
  at: string;
}

/** Past runs whose outputs are looked at; a correction of an older output has long been folded in. */
const RUNS_LOOKED_AT = 50;

export async function foldedCorrections(
  deps: Deps,
  tx: StoreTx,
  behavior: string,
): Promise<BehaviorCorrection[]> {
  const runs = await tx.behaviors.runs(behavior, RUNS_LOOKED_AT);
  const latest = new Map<string, BehaviorCorrection>();
  for (const id of runs.flatMap((r) => r.outputs)) {
    const output = await tx.getMemory(id);
    if (output === null || !can(deps.principal, 'read', output.scope)) continue;
    const slot = `${output.scope}\u0000${output.key ?? `kind:${output.kind}`}`;
    for (const e of await tx.eventsOf(id)) {
      if (e.type !== 'corrected') continue;
      const known = latest.get(slot);
      if (known !== undefined && known.at >= e.at) continue;
      const correctedId = typeof e.detail.correctedAs === 'string' ? e.detail.correctedAs : null;
      const version = correctedId === null ? null : await tx.getMemory(correctedId);
      latest.set(slot, {
        proposalId: id,
        scope: output.scope,
        key: output.key,
        action: e.detail.action === 'edited' ? 'edited' : 'rejected',
        corrected: version !== null && version.state === 'active' ? maskMemory(version) : null,
        reason: e.reason === null ? null : maskSecrets(e.reason),
        by: e.actor,
        at: e.at,
      });
    }
  }
  return [...latest.values()].sort((a, b) => b.at.localeCompare(a.at));
}
