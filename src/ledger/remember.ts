/** remember: the write path. Guard, grants, supersede resolution, rejection check, gate, then one transaction. */
import { claimIdentity, foldKey } from '../guard/fingerprint.ts';
import { assertNoSecrets, assertValueSize } from '../guard/limits.ts';
import { maskSecrets } from '../guard/secrets.ts';
import { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import { jsonShapeProblem } from '../model/json.ts';
import {
  type Memory,
  type RememberFields,
  type RememberInput,
  rememberInputSchema,
  type Trust,
  type WriteResult,
} from '../model/memory.ts';
import { hasVisibleText, INVISIBLE_BODY_MESSAGE } from '../model/text.ts';
import { assertCan, can } from '../policy/access.ts';
import { decide } from '../policy/gate.ts';
import { holdInstructionShaped } from '../policy/instruction-gate.ts';
import { notify } from '../notify/events.ts';
import type { Claim, Rejection, StoreTx } from '../store/port.ts';
import { claimByHuman } from './claims.ts';
import { corroborate } from './corroborate.ts';
import { type Deps, provenanceOf, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { oncePerSourceItem } from './source-items.ts';
import { mayName, withoutOwner, withoutWinner } from './visibility.ts';

export async function remember(deps: Deps, input: RememberInput): Promise<WriteResult> {
  const fields = prepareWrite(deps, input);
  return deps.store.transaction((tx) => writeInTx(deps, tx, fields));
}

/** What every write checks before its transaction: the schema, sizes and credentials (I10), the write grant (I4). */
export function prepareWrite(deps: Deps, input: RememberInput, what = 'memory'): RememberFields {
  const fields = parseInput(rememberInputSchema, input, what);
  checkContent(fields);
  assertCan(deps.principal, 'write', fields.scope);
  return fields;
}

/**
 * A prepared write in the caller's transaction: the same rejection check, gate, corroboration and landing as
 * `remember`, so an import batching many lines in one transaction is no path around them (I18). With
 * `onceForItem`, a write naming a source item lands once for that item whatever the surface (imports key
 * each line on the memory id it had where it was exported).
 */
export async function writeInTx(
  deps: Deps,
  tx: StoreTx,
  fields: RememberFields,
  options: { onceForItem?: boolean } = {},
): Promise<WriteResult> {
  try {
    return await oncePerSourceItem(
      deps,
      tx,
      fields,
      () => rememberInTx(deps, tx, fields),
      options.onceForItem,
    );
  } catch (error) {
    // A lost race names its winner (I2), which a caller that may not read the scope must not learn (I4).
    throw withoutWinner(deps.principal, fields.scope, error);
  }
}

/**
 * Guards every write path shares: visible text and a value within the JSON limits (I11; import reaches here
 * without the remember schema), sizes and credentials (I10), the scope's id included when it is new text.
 */
export function checkContent(
  fields: Pick<RememberFields, 'body' | 'value' | 'key' | 'subjects' | 'source'> &
    Partial<Pick<RememberFields, 'scope'>>,
): void {
  if (!hasVisibleText(fields.body)) throw new MemoryError('invalid_input', INVISIBLE_BODY_MESSAGE);
  const shape = jsonShapeProblem(fields.value);
  if (shape !== null) throw new MemoryError('invalid_input', `value: JSON ${shape}`);
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
  // What the result may say about rows already in the scope: nothing, to a caller that may not read it (I4).
  const named = mayName(deps.principal, fields.scope);
  const value = fields.value ?? null;
  // Without `supersedes` the key is the caller's, so the holder and every lookup below go out together: on a
  // backend a network away, one round trip instead of four. They only read; each is still decided in order.
  const early = fields.supersedes === undefined ? lookups(tx, fields, fields.key ?? null, named) : null;
  const [{ replaces, key }, looked] = await Promise.all([resolveReplaced(deps, tx, fields), early]);
  const { rejection, claim, live } = looked ?? (await lookups(tx, fields, key, named));
  const told = (supersedes: string | null) => (named ? supersedes : null);
  const now = deps.now();
  const id = newId('mem');
  const identity = claimIdentity({ scope: fields.scope, key, body: fields.body, value });
  const validFrom = fields.validFrom ?? null;
  const base = {
    id,
    scope: fields.scope,
    kind: fields.kind,
    key,
    body: fields.body,
    value,
    // A new version of a key is about what its predecessor was about, unless it names its own subjects: so
    // `search --subject` and erasure by subject keep reaching the current version (I9).
    subjects:
      fields.subjects.length > 0 || replaces === null ? [...new Set(fields.subjects)] : replaces.subjects,
    validFrom,
    validTo: fields.validTo ?? null,
    validStart: validStartOf(validFrom, replaces),
    confidence: fields.confidence,
    supersedes: replaces?.id ?? null,
    editOf: null,
    fingerprint: identity.text,
    provenance: provenanceOf(deps, fields.source),
    recordedAt: now,
    trust: initialTrust(deps, fields),
  };

  // I5: the same claim, rejected before in this scope, lands as rejected whichever path it came from.
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
    return {
      id,
      state: 'rejected',
      reason: rejectionReason(rejection, named),
      supersedes: told(base.supersedes),
    };
  }

  // I6: the gate decides before anything lands; instruction-shaped text from a non-human is held in any scope.
  const gate = decide(deps.policy, {
    principal: deps.principal,
    scope: fields.scope,
    kind: fields.kind,
    key,
    replaces,
    claim: key === null ? undefined : claim,
  });
  const decision = holdInstructionShaped(gate, deps.principal, fields);
  // The decision as the caller hears it; the held event below keeps the owner for reviewers.
  const heard = named ? decision : withoutOwner(decision);
  if (decision.action === 'deny') {
    throw new MemoryError('permission', `write denied by policy (${heard.rule}): ${heard.reason}`, {
      details: { rule: decision.rule },
      content: [key],
    });
  }
  // The same claim, live already: corroborate it rather than land or queue a copy (after I5 and a deny).
  const corroborated = await corroborate(deps, tx, base, fields, live);
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
    // In this transaction: the notification commits with the held write or not at all (src/notify).
    await notify(tx, {
      type: 'held',
      ref: id,
      scope: base.scope,
      kind: base.kind,
      actor: base.provenance.principal,
      rule: decision.rule,
      at: now,
    });
    return {
      id,
      state: 'held',
      reason: `held for review (${heard.rule}): ${heard.reason}`,
      supersedes: told(base.supersedes),
    };
  }

  await landSuccessor(deps, tx, replaces, { id, validFrom });
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
  // The claim the gate read: nothing in this transaction changed it since.
  await claimByHuman(deps, tx, base, 'remember', claim);
  return { id, state: 'active', supersedes: told(base.supersedes) };
}

/**
 * Marks the predecessor superseded so the new version can take its key. A predecessor that is already
 * superseded is left alone: inserting the successor then trips the one-successor index (I2), which names the winner.
 */
export async function landSuccessor(
  deps: Deps,
  tx: StoreTx,
  replaces: Memory | null,
  successor: { id: string; validFrom: string | null },
): Promise<void> {
  if (replaces === null || replaces.state !== 'active') return;
  // I12: a successor that says when it became true closes its predecessor's open valid time there.
  const closes = replaces.validEnd === null && successor.validFrom !== null;
  await tx.setLifecycle(replaces.id, {
    state: 'superseded',
    supersededBy: successor.id,
    activeUntil: deps.now(),
    ...(closes ? { validEnd: successor.validFrom } : {}),
  });
  await recordEvent(
    deps,
    tx,
    'superseded',
    replaces.id,
    { from: 'active', to: 'superseded' },
    { detail: { by: successor.id } },
  );
}

/** I12: a version that does not say when it became true starts where the version it supersedes said it ended. */
export function validStartOf(validFrom: string | null, replaces: Memory | null): string | null {
  return validFrom ?? replaces?.validTo ?? null;
}

/** The identities a rejection check compares: the text's, and the value's when there is one. */
export function identities(identity: { text: string; value: string | null }): string[] {
  return identity.value === null ? [identity.text] : [identity.text, identity.value];
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
  if (fields.key !== undefined && target.key !== null && foldKey(fields.key) !== foldKey(target.key)) {
    throw new MemoryError(
      'invalid_input',
      `key ${fields.key} differs from the key ${target.key} of the memory it supersedes`,
      { content: [fields.key, target.key] },
    );
  }
  const key = fields.key ?? target.key;
  if (key !== null && target.key === null) {
    const holder = await tx.currentHolder(fields.scope, key);
    if (holder !== null) {
      throw new MemoryError(
        'conflict',
        `key ${key} is already held by ${holder.id}; supersede that memory instead`,
        { details: { winner: holder.id }, content: [key] },
      );
    }
  }
  return { replaces: target, key };
}

/**
 * What the write is decided on, read at once: the standing rejection of its claim (I5), the key's claim (the
 * gate, I6) and the live copies of its claim (corroboration; only for a caller that may read the scope, I4).
 */
async function lookups(
  tx: StoreTx,
  fields: RememberFields,
  key: string | null,
  named: boolean,
): Promise<{ rejection: Rejection | null; claim: Claim | null; live: Memory[] | null }> {
  const identity = claimIdentity({
    scope: fields.scope,
    key,
    body: fields.body,
    value: fields.value ?? null,
  });
  const [rejection, claim, live] = await Promise.all([
    tx.findRejection(fields.scope, identities(identity)),
    key === null ? null : tx.claimFor(fields.scope, key),
    named ? tx.liveClaims(fields.scope, identity.text) : null,
  ]);
  return { rejection, claim, live };
}

/** Trust decides rank: a human's word is confirmed, a landed agent write accepted, a mined one unverified. */
function initialTrust(deps: Deps, fields: RememberFields): Trust {
  if (deps.principal.kind === 'human') return 'confirmed';
  return fields.source?.connector === undefined ? 'accepted' : 'unverified';
}

/**
 * Why a write landed as rejected (I5). Who rejected it, when and why is told only to a caller that may read the
 * scope (`named`): a write-only caller learns that the claim was rejected, nothing of the reviewer's verdict.
 */
export function rejectionReason(r: { at: string; by: string; reason: string }, named: boolean): string {
  if (!named) return 'this claim was rejected in this scope before; it is withheld';
  const why = r.reason === '' ? 'no reason recorded' : maskSecrets(r.reason);
  return `this claim was rejected on ${r.at.slice(0, 10)} by ${r.by}: ${why}`;
}
