/** Human verdicts (I5, I7): confirm a memory, approve a held write (optionally edited), reject a claim for good. */
import { z } from 'zod';
import { fingerprint } from '../guard/fingerprint.ts';
import { assertNoSecrets } from '../guard/limits.ts';
import { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import {
  kindSchema,
  keySchema,
  LIMITS,
  type Memory,
  memoryIdSchema,
  subjectSchema,
  type WriteResult,
} from '../model/memory.ts';
import { principalLabel } from '../model/principal.ts';
import { isoTime } from '../model/time.ts';
import { assertCan, assertHumanWithRole } from '../policy/access.ts';
import type { StoreTx } from '../store/port.ts';
import { claimByHuman } from './claims.ts';
import { recordCorrection } from './corrections.ts';
import { type Deps, provenanceOf, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { checkContent, landSuccessor } from './remember.ts';
import { visibleOr404 } from './visibility.ts';

export const approveInputSchema = z
  .object({
    id: memoryIdSchema,
    body: z.string().min(1).max(LIMITS.body).optional(),
    value: z.json().optional(),
    kind: kindSchema.optional(),
    key: keySchema.optional(),
    subjects: z.array(subjectSchema).max(LIMITS.subjects).optional(),
    validFrom: isoTime('validFrom').optional(),
    validTo: isoTime('validTo').optional(),
    note: z.string().max(LIMITS.reason).optional(),
  })
  .strict();
export type ApproveInput = z.input<typeof approveInputSchema>;

export const rejectInputSchema = z
  .object({ id: memoryIdSchema, reason: z.string().min(1, 'a rejection needs a reason').max(LIMITS.reason) })
  .strict();
export const confirmInputSchema = z.object({ id: memoryIdSchema }).strict();

/** confirm: a human vouches for a current memory; it ranks as confirmed and its key becomes theirs. */
export async function confirm(deps: Deps, input: { id: string }): Promise<WriteResult> {
  const { id } = parseInput(confirmInputSchema, input, 'confirm');
  assertHumanWithRole(deps.principal, 'reviewer', 'confirm a memory');
  return deps.store.transaction(async (tx) => {
    const m = await loadForVerdict(deps, tx, id);
    if (m.state !== 'active') {
      throw new MemoryError(
        'conflict',
        `memory ${id} is ${m.state}; only an active memory can be confirmed${m.state === 'held' ? ' (use review approve)' : ''}`,
      );
    }
    await tx.setLifecycle(id, { trust: 'confirmed', confirmedBy: principalLabel(deps.principal) });
    await recordEvent(deps, tx, 'confirmed', id, { from: 'active', to: 'active' });
    await claimByHuman(deps, tx, m, 'confirm');
    return { id, state: 'active' };
  });
}

/**
 * approve: a held write lands. With edits, the edited version lands as a new memory by the reviewer
 * (`editOf` the proposal) and the proposal stays in history, superseded by it.
 */
export async function approve(deps: Deps, input: ApproveInput): Promise<WriteResult> {
  const fields = parseInput(approveInputSchema, input, 'approval');
  assertNoSecrets({ note: fields.note });
  assertHumanWithRole(deps.principal, 'reviewer', 'approve a write');
  const { id, note, ...edits } = fields;
  const edited = Object.values(edits).some((v) => v !== undefined);
  return deps.store.transaction(async (tx) => {
    const m = await loadForVerdict(deps, tx, id);
    if (m.state !== 'held')
      throw new MemoryError('conflict', `memory ${id} is ${m.state}; only a held write can be approved`);
    return edited ? approveEdited(deps, tx, m, edits, note) : approveAsProposed(deps, tx, m, note);
  });
}

async function approveAsProposed(
  deps: Deps,
  tx: StoreTx,
  m: Memory,
  note: string | undefined,
): Promise<WriteResult> {
  const replaces = m.supersedes === null ? null : await tx.getMemory(m.supersedes);
  if (replaces === null && m.key !== null) {
    const holder = await tx.currentHolder(m.scope, m.key);
    if (holder !== null) {
      throw new MemoryError(
        'conflict',
        `key ${m.key} was written by ${holder.id} after this proposal; approve with edits to supersede it`,
        {
          details: { winner: holder.id },
        },
      );
    }
  }
  await landSuccessor(deps, tx, replaces, m.id);
  const now = deps.now();
  await tx.setLifecycle(m.id, {
    state: 'active',
    trust: 'confirmed',
    confirmedBy: principalLabel(deps.principal),
    activeFrom: now,
  });
  await recordEvent(
    deps,
    tx,
    'approved',
    m.id,
    { from: 'held', to: 'active' },
    { reason: note ?? null, detail: { edited: false } },
  );
  await claimByHuman(deps, tx, m, 'approve');
  return { id: m.id, state: 'active', supersedes: m.supersedes };
}

async function approveEdited(
  deps: Deps,
  tx: StoreTx,
  m: Memory,
  edits: Omit<z.output<typeof approveInputSchema>, 'id' | 'note'>,
  note: string | undefined,
): Promise<WriteResult> {
  const body = edits.body ?? m.body;
  const value = edits.value === undefined ? m.value : edits.value;
  const key = edits.key ?? m.key;
  const kind = edits.kind ?? m.kind;
  const subjects = edits.subjects ?? m.subjects;
  checkContent({ body, value, key: key ?? undefined, subjects, source: undefined });
  // The edited version replaces whatever holds the slot now, not what held it when the agent proposed.
  let replaces = key === null ? null : await tx.currentHolder(m.scope, key);
  if (replaces === null && m.supersedes !== null) {
    const target = await tx.getMemory(m.supersedes);
    if (target?.state === 'active') replaces = target;
  }
  const now = deps.now();
  const editedId = newId('mem');
  await landSuccessor(deps, tx, replaces, editedId);
  await tx.insertMemory({
    id: editedId,
    scope: m.scope,
    kind,
    key,
    body,
    value,
    subjects,
    validFrom: edits.validFrom ?? m.validFrom,
    validTo: edits.validTo ?? m.validTo,
    confidence: m.confidence,
    supersedes: replaces?.id ?? null,
    editOf: m.id,
    fingerprint: fingerprint({ scope: m.scope, key, kind, body, value }),
    provenance: {
      ...provenanceOf(deps),
      ...(m.provenance.source === undefined ? {} : { source: m.provenance.source }),
    },
    recordedAt: now,
    state: 'active',
    trust: 'confirmed',
    activeFrom: now,
    confirmedBy: principalLabel(deps.principal),
    rule: 'review',
  });
  await tx.setLifecycle(m.id, { state: 'superseded', supersededBy: editedId });
  await recordEvent(
    deps,
    tx,
    'approved',
    m.id,
    { from: 'held', to: 'superseded' },
    { reason: note ?? null, detail: { edited: true, editedAs: editedId } },
  );
  await recordEvent(
    deps,
    tx,
    'appended',
    editedId,
    { from: null, to: 'active' },
    { detail: { rule: 'review', editOf: m.id, supersedes: replaces?.id ?? null } },
  );
  await claimByHuman(deps, tx, { id: editedId, scope: m.scope, key }, 'approve with edits');
  await recordCorrection(deps, tx, m, { action: 'edited', correctedId: editedId, reason: note ?? null });
  return { id: editedId, state: 'active', supersedes: replaces?.id ?? null };
}

/** reject: the claim is withheld and its fingerprint recorded, so it never lands again in this scope (I5). */
export async function reject(deps: Deps, input: { id: string; reason: string }): Promise<WriteResult> {
  const { id, reason } = parseInput(rejectInputSchema, input, 'rejection');
  assertNoSecrets({ reason });
  assertHumanWithRole(deps.principal, 'reviewer', 'reject a write');
  return deps.store.transaction(async (tx) => {
    const m = await loadForVerdict(deps, tx, id);
    if (m.state !== 'held' && m.state !== 'active') {
      throw new MemoryError(
        'conflict',
        `memory ${id} is ${m.state}; only a held or active memory can be rejected`,
      );
    }
    const now = deps.now();
    await tx.setLifecycle(
      id,
      m.state === 'active' ? { state: 'rejected', activeUntil: now } : { state: 'rejected' },
    );
    await tx.insertRejection({
      scope: m.scope,
      fingerprint: m.fingerprint,
      memoryId: id,
      reason,
      by: principalLabel(deps.principal),
      at: now,
    });
    await recordEvent(deps, tx, 'rejected', id, { from: m.state, to: 'rejected' }, { reason });
    await recordCorrection(deps, tx, m, { action: 'rejected', correctedId: null, reason });
    return { id, state: 'rejected', reason };
  });
}

async function loadForVerdict(deps: Deps, tx: StoreTx, id: string): Promise<Memory> {
  const m = visibleOr404(deps.principal, await tx.getMemory(id), id);
  assertCan(deps.principal, 'write', m.scope);
  return m;
}
