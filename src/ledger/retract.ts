/**
 * retract: forget a memory while keeping its history. A non-human may not retract what a human owns. Retracting
 * a memory that is already retracted changes nothing and says so (`unchanged`): the caller's intent holds, so
 * a retried forget succeeds; the call is audited like any other, naming the memory, and writes no event.
 */
import { z } from 'zod';
import { assertNoSecrets } from '../guard/limits.ts';
import { MemoryError } from '../model/errors.ts';
import { LIMITS, memoryIdSchema, type WriteResult } from '../model/memory.ts';
import { principalLabel } from '../model/principal.ts';
import { assertCan } from '../policy/access.ts';
import { decide, ownerOf } from '../policy/gate.ts';
import { type Deps, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { visibleOr404 } from './visibility.ts';

export const retractInputSchema = z
  .object({ id: memoryIdSchema, reason: z.string().min(1, 'a retraction needs a reason').max(LIMITS.reason) })
  .strict();

export async function retract(deps: Deps, input: { id: string; reason: string }): Promise<WriteResult> {
  const { id, reason } = parseInput(retractInputSchema, input, 'retraction');
  assertNoSecrets({ reason });
  return deps.store.transaction(async (tx) => {
    const m = visibleOr404(deps.principal, await tx.getMemory(id), id);
    assertCan(deps.principal, 'write', m.scope);
    if (m.state === 'retracted') {
      deps.trace.targets.add(id);
      return { id, state: 'retracted', unchanged: true };
    }
    if (m.state !== 'active' && m.state !== 'held') {
      throw new MemoryError(
        'conflict',
        `memory ${id} is ${m.state}; only an active or held memory can be retracted`,
      );
    }
    if (deps.principal.kind !== 'human') {
      // A current keyed memory is owned by its key's claim (released keys are not); anything else as derived.
      const owner =
        m.state === 'active' && m.key !== null
          ? ((await tx.claimFor(m.scope, m.key))?.owner ?? null)
          : ownerOf(m);
      if (owner !== null)
        throw new MemoryError(
          'permission',
          `memory ${id} is owned by ${owner}; ask a reviewer to retract it`,
        );
      const own = m.provenance.principal === principalLabel(deps.principal);
      const gate = decide(deps.policy, {
        principal: deps.principal,
        scope: m.scope,
        kind: m.kind,
        key: m.key,
        replaces: null,
      });
      if (!own && gate.action !== 'allow') {
        throw new MemoryError(
          'permission',
          `${principalLabel(deps.principal)} may only retract its own memories in ${m.scope} (${gate.rule})`,
        );
      }
    }
    const wasActive = m.state === 'active';
    await tx.setLifecycle(
      id,
      wasActive ? { state: 'retracted', activeUntil: deps.now() } : { state: 'retracted' },
    );
    await recordEvent(deps, tx, 'retracted', id, { from: m.state, to: 'retracted' }, { reason });
    return { id, state: 'retracted' };
  });
}
