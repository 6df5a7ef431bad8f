/**
 * erase: remove the content of every memory a selector names, keep tombstones and the audit (I9). A subject
 * takes every version of everything about it; a principal, a session or a source prefix takes exactly the
 * writes whose provenance it names, so an agent's own attributions can be purged without touching what people
 * wrote about the same things.
 */
import { z } from 'zod';
import { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import { LIMITS, type Memory, subjectSchema } from '../model/memory.ts';
import { principalLabel, principalRefSchema } from '../model/principal.ts';
import { assertCan, assertHumanWithRole } from '../policy/access.ts';
import type { StoreTx } from '../store/port.ts';
import { type Deps, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { staleSummaries } from './plans/summary-erasure.ts';
import type { WorkspaceErasure } from '../workspace/erase-rows.ts';

export const eraseInputSchema = z
  .object({
    subject: subjectSchema.optional(),
    principal: principalRefSchema.optional(),
    sessionId: z.string().min(1).max(LIMITS.sourceField).optional(),
    sourcePrefix: z
      .string()
      .min(3, 'a source prefix needs at least 3 characters')
      .max(LIMITS.sourceField)
      .optional(),
  })
  .strict()
  .refine((v) => Object.values(v).filter((x) => x !== undefined).length === 1, {
    message: 'name exactly one of subject, principal, sessionId or sourcePrefix',
  });
export type EraseInput = z.input<typeof eraseInputSchema>;
export type EraseSelector = z.output<typeof eraseInputSchema>;

export interface EraseResult {
  erasureId: string;
  /** What chose the memories: subject, principal, session or source. */
  selector: SelectorKind;
  /** How many memory versions lost their content. */
  erased: number;
  /**
   * False when another process kept reading the write-ahead log through every checkpoint attempt: then the
   * erased bytes stay in memory.db-wal until a later checkpoint succeeds.
   */
  checkpointed: boolean;
  /** By subject: the rows deleted from agent workspaces (counts only). */
  workspaces?: WorkspaceErasure;
}

export type SelectorKind = 'subject' | 'principal' | 'session' | 'source';

export async function erase(deps: Deps, input: EraseInput): Promise<EraseResult> {
  const selector = parseInput(eraseInputSchema, input, 'erasure');
  assertHumanWithRole(deps.principal, 'admin', 'erase memories');
  const erasureId = newId('era');
  const kind = selectorKind(selector);
  const erased = await deps.store.transaction(async (tx) => {
    const found = (await selected(tx, selector)).filter((m) => m.state !== 'erased');
    // Summaries built on what goes: stale, and erased too where they name the subject (plans/summary-erasure.ts).
    const targets = [...found, ...(await staleSummaries(deps, tx, found, selector.subject))];
    for (const m of targets) {
      assertCan(deps.principal, 'write', m.scope);
      await recordEvent(
        deps,
        tx,
        'erased',
        m.id,
        { from: m.state, to: 'erased' },
        { detail: { erasure: erasureId, selector: kind } },
      );
    }
    const at = deps.now();
    await tx.erase({
      id: erasureId,
      selector: kind,
      memoryIds: targets.map((m) => m.id),
      by: principalLabel(deps.principal),
      at,
    });
    // Audit argument hashes are keyed by the home's secret: a new one makes every hash made before (including
    // this call's own, of the erased subject) impossible to test against a guess.
    await tx.rotateHashKey(at);
    return targets.length;
  });
  // Workspaces before the compaction: their re-snapshots replace bytes the compaction then removes for good.
  const workspaces =
    selector.subject === undefined || deps.workspaces === undefined
      ? undefined
      : await (await import('../workspace/erase-rows.ts')).eraseFromWorkspaces(
          deps.workspaces,
          selector.subject,
          principalLabel(deps.principal),
        );
  const { checkpointed } = await deps.store.compactAfterErasure();
  return {
    erasureId,
    selector: kind,
    erased,
    checkpointed,
    ...(workspaces === undefined ? {} : { workspaces }),
  };
}

/**
 * The memories a selector names, found the same way by erase and its preview. By subject: every memory naming
 * it and every version linked to one (a later correction that forgot the subject is still about it). By
 * provenance: the writes it names, each alone.
 */
export async function selected(tx: StoreTx, selector: EraseSelector): Promise<Memory[]> {
  if (selector.subject !== undefined) {
    const byId = new Map<string, Memory>();
    for (const m of await tx.memoriesAboutSubject(selector.subject)) {
      for (const v of await tx.component(m.id)) byId.set(v.id, v);
    }
    return [...byId.values()];
  }
  if (selector.principal !== undefined) return tx.memoriesByProvenance({ principal: selector.principal });
  if (selector.sessionId !== undefined) return tx.memoriesByProvenance({ sessionId: selector.sessionId });
  if (selector.sourcePrefix !== undefined)
    return tx.memoriesByProvenance({ sourcePrefix: selector.sourcePrefix });
  throw new MemoryError('invalid_input', 'name exactly one of subject, principal, sessionId or sourcePrefix');
}

export function selectorKind(selector: EraseSelector): SelectorKind {
  if (selector.subject !== undefined) return 'subject';
  if (selector.principal !== undefined) return 'principal';
  if (selector.sessionId !== undefined) return 'session';
  return 'source';
}
