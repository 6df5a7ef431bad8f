/** erase: remove every version of every memory about a subject, keep tombstones and the audit (I9). */
import { z } from 'zod';
import { sha256Hex } from '../guard/canonical.ts';
import { newId } from '../model/ids.ts';
import { subjectSchema } from '../model/memory.ts';
import { principalLabel } from '../model/principal.ts';
import { assertCan, assertHumanWithRole } from '../policy/access.ts';
import { type Deps, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';

export const eraseInputSchema = z.object({ subject: subjectSchema }).strict();

export interface EraseResult {
  erasureId: string;
  /** How many memory versions lost their content. */
  erased: number;
  /** False when another process kept the write-ahead log open; the bytes leave at its next checkpoint. */
  checkpointed: boolean;
}

export async function erase(deps: Deps, input: { subject: string }): Promise<EraseResult> {
  const { subject } = parseInput(eraseInputSchema, input, 'erasure');
  assertHumanWithRole(deps.principal, 'admin', 'erase a subject');
  const erasureId = newId('era');
  const erased = await deps.store.transaction(async (tx) => {
    const ids = new Set<string>();
    for (const m of await tx.memoriesAboutSubject(subject)) {
      // Every version: a later correction that forgot to name the subject is still about it.
      for (const v of await tx.component(m.id)) ids.add(v.id);
    }
    const targets = [...ids];
    for (const id of targets) {
      const m = await tx.getMemory(id);
      if (m === null || m.state === 'erased') continue;
      assertCan(deps.principal, 'write', m.scope);
      await recordEvent(
        deps,
        tx,
        'erased',
        id,
        { from: m.state, to: 'erased' },
        { detail: { erasure: erasureId } },
      );
    }
    await tx.erase({
      id: erasureId,
      subjectHash: sha256Hex(subject),
      memoryIds: targets,
      by: principalLabel(deps.principal),
      at: deps.now(),
    });
    return targets.length;
  });
  const { checkpointed } = await deps.store.compactAfterErasure();
  return { erasureId, erased, checkpointed };
}
