/** Human verdicts (I5, I7): confirm a memory, approve a held write (optionally edited), reject a claim for good. */
import { z } from 'zod';
import { claimIdentity } from '../guard/fingerprint.ts';
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
import { jsonValueSchema } from '../model/json.ts';
import { hasVisibleText, INVISIBLE_BODY_MESSAGE } from '../model/text.ts';
import { isoTime } from '../model/time.ts';
import { assertCan, assertHumanWithRole } from '../policy/access.ts';
import type { StoreTx } from '../store/port.ts';
import { claimByHuman } from './claims.ts';
import { recordCorrection } from './corrections.ts';
import { type Deps, provenanceOf, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { checkContent, identities, landSuccessor, rejectionReason, validStartOf } from './remember.ts';
import { visibleOr404 } from './visibility.ts';
import { carryLifecycle } from './plans/commitments.ts';

export const approveInputSchema = z
  .object({
    id: memoryIdSchema,
    body: z.string().min(1).max(LIMITS.body).refine(hasVisibleText, INVISIBLE_BODY_MESSAGE).optional(),
    value: jsonValueSchema.optional(),
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
  .object({
    id: memoryIdSchema,
    reason: z.string().min(1, 'a rejection needs a reason').max(LIMITS.reason),
    /**
     * The state the reviewer saw: a verdict on a held write (the default) fails once someone else decided it, so
     * an approval and a rejection racing on one proposal cannot both succeed. Rejecting a current memory is a
     * different act, asked for with `active`.
     */
    expect: z.enum(['held', 'active']).default('held'),
  })
  .strict();
export type RejectInput = z.input<typeof rejectInputSchema>;

export const unrejectInputSchema = z
  .object({
    id: memoryIdSchema,
    reason: z.string().min(1, 'lifting a rejection needs a reason').max(LIMITS.reason),
  })
  .strict();
export type UnrejectInput = z.input<typeof unrejectInputSchema>;
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
      throw new MemoryError('conflict', `memory ${id} is ${m.state}; only a held write can be approved`, {
        details: { state: m.state },
      });
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
        { details: { winner: holder.id }, content: [m.key] },
      );
    }
  }
  await refuseRejected(tx, m);
  await landSuccessor(deps, tx, replaces, { id: m.id, validFrom: m.validFrom });
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
  const identity = claimIdentity({ scope: m.scope, key, body, value });
  // I5: an edit that says what a rejected claim says is that claim; a rejection is lifted on purpose only.
  await refuseRejected(tx, { scope: m.scope, id: m.id }, identity);
  const now = deps.now();
  const editedId = newId('mem');
  const validFrom = edits.validFrom ?? m.validFrom;
  await landSuccessor(deps, tx, replaces, { id: editedId, validFrom });
  await tx.insertMemory({
    id: editedId,
    scope: m.scope,
    kind,
    key,
    body,
    value,
    subjects,
    validFrom,
    validTo: edits.validTo ?? m.validTo,
    validStart: validStartOf(validFrom, replaces),
    confidence: m.confidence,
    supersedes: replaces?.id ?? null,
    editOf: m.id,
    fingerprint: identity.text,
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
  // An edited commitment keeps its lifecycle under the edited version's id (plans/commitments.ts).
  if (kind === 'commitment') await carryLifecycle(deps, tx, m.id, { id: editedId, value });
  return { id: editedId, state: 'active', supersedes: replaces?.id ?? null };
}

/**
 * reject: the claim is withheld and its identities recorded (its text, and its value when keyed), so it never
 * lands again in this scope through any path until a reviewer lifts the rejection on purpose (I5).
 */
export async function reject(deps: Deps, input: RejectInput): Promise<WriteResult> {
  const { id, reason, expect } = parseInput(rejectInputSchema, input, 'rejection');
  assertNoSecrets({ reason });
  assertHumanWithRole(deps.principal, 'reviewer', 'reject a write');
  return deps.store.transaction(async (tx) => {
    const m = await loadForVerdict(deps, tx, id);
    if (m.state !== expect) {
      const what = expect === 'held' ? 'a held write (it was decided since)' : 'an active memory';
      throw new MemoryError(
        'conflict',
        `memory ${id} is ${m.state}; this rejection was for ${what}${m.state === 'active' && expect === 'held' ? '; to reject the current memory, reject it as active' : ''}`,
        { details: { state: m.state, expected: expect } },
      );
    }
    const now = deps.now();
    await tx.setLifecycle(
      id,
      m.state === 'active' ? { state: 'rejected', activeUntil: now } : { state: 'rejected' },
    );
    const by = principalLabel(deps.principal);
    for (const fingerprint of identities(claimIdentity(m))) {
      await tx.insertRejection({
        scope: m.scope,
        fingerprint,
        memoryId: id,
        reason,
        by,
        at: now,
        lifted: null,
      });
    }
    await recordEvent(
      deps,
      tx,
      'rejected',
      id,
      { from: m.state, to: 'rejected' },
      { reason, detail: { of: m.state } },
    );
    await recordCorrection(deps, tx, m, { action: 'rejected', correctedId: null, reason });
    return { id, state: 'rejected', reason };
  });
}

/**
 * unreject: a reviewer lifts the rejection of a claim on purpose, so it may land again (I5, I7). `id` is any
 * rejected memory saying the claim: the one a reviewer rejected, or a later copy that landed as rejected.
 * The memory itself stays rejected in history; the next write of the claim goes through the gate as usual.
 */
export async function unreject(deps: Deps, input: UnrejectInput): Promise<RejectionLiftResult> {
  const { id, reason } = parseInput(unrejectInputSchema, input, 'unreject');
  assertHumanWithRole(deps.principal, 'reviewer', 'lift a rejection');
  return deps.store.transaction(async (tx) => {
    const m = await loadForVerdict(deps, tx, id);
    if (m.state !== 'rejected') {
      throw new MemoryError(
        'conflict',
        `memory ${id} is ${m.state}; only a rejected claim can be unrejected`,
        {
          details: { state: m.state },
        },
      );
    }
    const lift = { at: deps.now(), by: principalLabel(deps.principal), reason };
    const lifted = await tx.liftRejections(m.scope, identities(claimIdentity(m)), lift);
    if (lifted.length === 0) {
      throw new MemoryError(
        'not_found',
        `no standing rejection says what memory ${id} says; nothing to lift`,
      );
    }
    await recordEvent(deps, tx, 'unrejected', id, null, {
      reason,
      detail: { lifted: [...new Set(lifted.map((r) => r.memoryId))] },
    });
    return { id, lifted: lifted.length, rejectedAs: [...new Set(lifted.map((r) => r.memoryId))] };
  });
}

export interface RejectionLiftResult {
  /** The memory named. */
  id: string;
  /** How many standing rejections (identities) were lifted. */
  lifted: number;
  /** The memories whose rejections were lifted. */
  rejectedAs: string[];
}

/** Refuses to land a claim a standing rejection covers, naming when, by whom and why it was rejected. */
async function refuseRejected(
  tx: StoreTx,
  m: Pick<Memory, 'scope' | 'id'> & Partial<Pick<Memory, 'key' | 'body' | 'value'>>,
  identity = claimIdentity({
    scope: m.scope,
    key: m.key ?? null,
    body: m.body ?? '',
    value: m.value ?? null,
  }),
): Promise<void> {
  const rejection = await tx.findRejection(m.scope, identities(identity));
  if (rejection === null) return;
  throw new MemoryError(
    'conflict',
    // A reviewer reaches here only on a memory it may read (loadForVerdict), so the verdict is named in full.
    `${rejectionReason(rejection, true)} (memory ${rejection.memoryId}); lift it with review unreject first if it should land`,
    {
      details: { rejection: rejection.memoryId, at: rejection.at, by: rejection.by },
      content: [rejection.reason],
    },
  );
}

async function loadForVerdict(deps: Deps, tx: StoreTx, id: string): Promise<Memory> {
  const m = visibleOr404(deps.principal, await tx.getMemory(id), id);
  assertCan(deps.principal, 'write', m.scope);
  return m;
}
