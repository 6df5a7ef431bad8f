/** remember: the write path. Guard, grants, supersede resolution, rejection check, gate, then one transaction. */
import { fingerprint } from '../guard/fingerprint.ts';
import { assertNoSecrets, assertValueSize } from '../guard/limits.ts';
import { maskSecrets } from '../guard/secrets.ts';
import { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import {
  type Memory,
  type RememberFields,
  type RememberInput,
  rememberInputSchema,
  type Trust,
  type WriteResult,
} from '../model/memory.ts';
import { assertCan, can } from '../policy/access.ts';
import { decide } from '../policy/gate.ts';
import type { StoreTx } from '../store/port.ts';
import { claimByHuman } from './claims.ts';
import { corroborate } from './corroborate.ts';
import { type Deps, provenanceOf, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { oncePerSourceItem } from './source-items.ts';

export async function remember(deps: Deps, input: RememberInput): Promise<WriteResult> {
  const fields = parseInput(rememberInputSchema, input, 'memory');
  checkContent(fields);
  assertCan(deps.principal, 'write', fields.scope);
  return deps.store.transaction((tx) =>
    oncePerSourceItem(deps, tx, fields, () => rememberInTx(deps, tx, fields)),
  );
}

/** Guards every write path shares: sizes and credentials (I10), the scope's id included when it is new text. */
export function checkContent(
  fields: Pick<RememberFields, 'body' | 'value' | 'key' | 'subjects' | 'source'> &
    Partial<Pick<RememberFields, 'scope'>>,
): void {
  assertValueSize(fields.value);
  assertNoSecrets({
    scope: fields.scope,
    body: fields.body,
    value: fields.value,
    key: fields.key,
    subjects: fields.subjects.join(' '),
    source: fields.source,
  });
}

async function rememberInTx(deps: Deps, tx: StoreTx, fields: RememberFields): Promise<WriteResult> {
  const { replaces, key } = await resolveReplaced(deps, tx, fields);
  const now = deps.now();
  const id = newId('mem');
  const base = {
    id,
    scope: fields.scope,
    kind: fields.kind,
    key,
    body: fields.body,
    value: fields.value ?? null,
    subjects: [...new Set(fields.subjects)],
    validFrom: fields.validFrom ?? null,
    validTo: fields.validTo ?? null,
    confidence: fields.confidence,
    supersedes: replaces?.id ?? null,
    editOf: null,
    fingerprint: fingerprint({
      scope: fields.scope,
      key,
      kind: fields.kind,
      body: fields.body,
      value: fields.value ?? null,
    }),
    provenance: provenanceOf(deps, fields.source),
    recordedAt: now,
    trust: initialTrust(deps, fields),
  };

  // I5: the same claim, rejected before in this scope, lands as rejected whichever path it came from.
  const rejection = await tx.findRejection(fields.scope, base.fingerprint);
  if (rejection !== null) {
    await tx.insertMemory({ ...base, state: 'rejected', activeFrom: null, rule: 'rejection-stands' });
    await recordEvent(
      deps,
      tx,
      'rejected',
      id,
      { from: null, to: 'rejected' },
      { detail: { rejectedAs: rejection.memoryId, automatic: true } },
    );
    return { id, state: 'rejected', reason: rejectionReason(rejection), supersedes: base.supersedes };
  }

  // I6: the gate decides before anything lands.
  const decision = decide(deps.policy, {
    principal: deps.principal,
    scope: fields.scope,
    kind: fields.kind,
    key,
    replaces,
    claim: key === null ? undefined : await tx.claimFor(fields.scope, key),
  });
  if (decision.action === 'deny') {
    throw new MemoryError('permission', `write denied by policy (${decision.rule}): ${decision.reason}`, {
      details: { rule: decision.rule },
    });
  }
  // The same claim, live already: corroborate it rather than land or queue a copy (after I5 and a deny).
  const corroborated = await corroborate(deps, tx, base, fields);
  if (corroborated !== null) return corroborated;
  if (decision.action === 'hold') {
    await tx.insertMemory({ ...base, state: 'held', activeFrom: null, rule: decision.rule });
    await recordEvent(
      deps,
      tx,
      'held',
      id,
      { from: null, to: 'held' },
      { detail: { rule: decision.rule, owner: decision.owner ?? null } },
    );
    return {
      id,
      state: 'held',
      reason: `held for review (${decision.rule}): ${decision.reason}`,
      supersedes: base.supersedes,
    };
  }

  await landSuccessor(deps, tx, replaces, id);
  await tx.insertMemory({
    ...base,
    state: 'active',
    activeFrom: now,
    rule: decision.rule,
    confirmedBy: base.trust === 'confirmed' ? base.provenance.principal : null,
  });
  await recordEvent(
    deps,
    tx,
    'appended',
    id,
    { from: null, to: 'active' },
    { detail: { rule: decision.rule, supersedes: base.supersedes } },
  );
  await claimByHuman(deps, tx, base, 'remember');
  return { id, state: 'active', supersedes: base.supersedes };
}

/**
 * Marks the predecessor superseded so the new version can take its key. A predecessor that is already
 * superseded is left alone: inserting the successor then trips the one-successor index (I2), which names the winner.
 */
export async function landSuccessor(
  deps: Deps,
  tx: StoreTx,
  replaces: Memory | null,
  successorId: string,
): Promise<void> {
  if (replaces === null || replaces.state !== 'active') return;
  await tx.setLifecycle(replaces.id, {
    state: 'superseded',
    supersededBy: successorId,
    activeUntil: deps.now(),
  });
  await recordEvent(
    deps,
    tx,
    'superseded',
    replaces.id,
    { from: 'active', to: 'superseded' },
    { detail: { by: successorId } },
  );
}

/** Which memory this write replaces: the explicit `supersedes` target, or the key's current holder. */
async function resolveReplaced(
  deps: Deps,
  tx: StoreTx,
  fields: RememberFields,
): Promise<{ replaces: Memory | null; key: string | null }> {
  if (fields.supersedes === undefined) {
    if (fields.key === undefined) return { replaces: null, key: null };
    return { replaces: await tx.currentHolder(fields.scope, fields.key), key: fields.key };
  }
  const target = await tx.getMemory(fields.supersedes);
  if (target === null || !can(deps.principal, 'read', target.scope)) {
    throw new MemoryError('not_found', `supersedes names no memory ${fields.supersedes}`);
  }
  if (target.scope !== fields.scope) {
    throw new MemoryError(
      'invalid_input',
      `supersedes ${target.id} is in scope ${target.scope}; a new version must stay in the same scope`,
    );
  }
  if (target.state !== 'active' && target.state !== 'superseded') {
    throw new MemoryError(
      'conflict',
      `memory ${target.id} is ${target.state}; only a current memory can be superseded`,
      {
        details: { state: target.state },
      },
    );
  }
  if (fields.key !== undefined && target.key !== null && fields.key !== target.key) {
    throw new MemoryError(
      'invalid_input',
      `key ${fields.key} differs from the key ${target.key} of the memory it supersedes`,
    );
  }
  const key = fields.key ?? target.key;
  if (key !== null && target.key === null) {
    const holder = await tx.currentHolder(fields.scope, key);
    if (holder !== null) {
      throw new MemoryError(
        'conflict',
        `key ${key} is already held by ${holder.id}; supersede that memory instead`,
        { details: { winner: holder.id } },
      );
    }
  }
  return { replaces: target, key };
}

/** Trust decides rank: a human's word is confirmed, a landed agent write accepted, a mined one unverified. */
function initialTrust(deps: Deps, fields: RememberFields): Trust {
  if (deps.principal.kind === 'human') return 'confirmed';
  return fields.source?.connector === undefined ? 'accepted' : 'unverified';
}

export function rejectionReason(r: { at: string; by: string; reason: string }): string {
  const why = r.reason === '' ? 'no reason recorded' : maskSecrets(r.reason);
  return `this claim was rejected on ${r.at.slice(0, 10)} by ${r.by}: ${why}`;
}
