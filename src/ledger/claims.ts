/**
 * Claims (I6, I7): a key whose current value a human wrote, edited or confirmed is claimed by that human, and
 * agent writes to it wait for review (or are denied, per the policy's `ownership`). A reviewer may claim a key
 * outright or release a claim; each change is a `claimed` or `released` event, with the claims table as its
 * projection, in the same transaction.
 */
import { z } from 'zod';
import { MemoryError } from '../model/errors.ts';
import { keySchema, type Memory } from '../model/memory.ts';
import { principalLabel } from '../model/principal.ts';
import { scopeSchema } from '../model/scope.ts';
import { assertCan, assertHumanWithRole } from '../policy/access.ts';
import { ownerOf } from '../policy/gate.ts';
import type { Claim, Store, StoreTx } from '../store/port.ts';
import { type Deps, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';

export const claimInputSchema = z.object({ scope: scopeSchema, key: keySchema }).strict();
export type ClaimInput = z.input<typeof claimInputSchema>;

/** A key's claim after `claim` or `release`. */
export interface ClaimResult {
  scope: string;
  key: string;
  /** Who owns the key now; null once released. */
  owner: string | null;
  /** Who owned it before this call, if anyone. */
  previous: string | null;
  /** The key's current holder, if it has one. */
  holder: string | null;
  /** False when the call changed nothing (claiming a key one already owns). */
  changed: boolean;
}

/** claim: a reviewer takes ownership of a key that has a current value. */
export async function claim(deps: Deps, input: ClaimInput): Promise<ClaimResult> {
  const { scope, key } = parseInput(claimInputSchema, input, 'claim');
  assertHumanWithRole(deps.principal, 'reviewer', 'claim a key');
  assertClaimable(deps, scope);
  const owner = principalLabel(deps.principal);
  return deps.store.transaction(async (tx) => {
    const holder = await tx.currentHolder(scope, key);
    if (holder === null) {
      throw new MemoryError('not_found', `key ${key} in ${scope} has no current value to claim`, {
        content: [key],
      });
    }
    const before = await tx.claimFor(scope, key);
    if (before?.owner === owner) {
      return { scope, key, owner, previous: owner, holder: holder.id, changed: false };
    }
    await tx.setClaim({ scope, key, owner, since: deps.now(), memoryId: holder.id });
    await recordEvent(deps, tx, 'claimed', holder.id, null, {
      detail: { owner, previous: before?.owner ?? null, implicit: false },
    });
    return { scope, key, owner, previous: before?.owner ?? null, holder: holder.id, changed: true };
  });
}

/** release: a reviewer lets go of a claim; agent writes to the key are then decided by the rules alone. */
export async function release(deps: Deps, input: ClaimInput): Promise<ClaimResult> {
  const { scope, key } = parseInput(claimInputSchema, input, 'release');
  assertHumanWithRole(deps.principal, 'reviewer', 'release a claim');
  assertClaimable(deps, scope);
  return deps.store.transaction(async (tx) => {
    const before = await tx.claimFor(scope, key);
    if (before === null)
      throw new MemoryError('not_found', `key ${key} in ${scope} is not claimed`, { content: [key] });
    const holder = await tx.currentHolder(scope, key);
    await tx.dropClaim(scope, key);
    // The event sits on the key's current holder, or on the memory the claim was made on when none holds it.
    await recordEvent(deps, tx, 'released', holder?.id ?? before.memoryId, null, {
      detail: { owner: before.owner },
    });
    return { scope, key, owner: null, previous: before.owner, holder: holder?.id ?? null, changed: true };
  });
}

/**
 * Claiming or releasing a key needs write and read on its scope. The answer names the key's holder and previous
 * owner, and whether the key has a value at all: a write-only grant must not learn that (I4), and owning a value
 * one cannot read would be an odd kind of review. Refused by grants alone, so the refusal says nothing of rows.
 */
function assertClaimable(deps: Deps, scope: string): void {
  assertCan(deps.principal, 'write', scope);
  assertCan(deps.principal, 'read', scope);
}

/**
 * The implicit claim: a human whose write, edit, approval or confirmation made `memory` a key's current value
 * now owns that key. A no-op for a keyless memory, for a non-human, or when that human already owns it.
 */
export async function claimByHuman(
  deps: Deps,
  tx: StoreTx,
  memory: Pick<Memory, 'id' | 'scope' | 'key'>,
  via: string,
  /** The claim on the memory's (scope, key) when the caller read it already in this transaction. */
  known?: Claim | null,
): Promise<void> {
  if (deps.principal.kind !== 'human' || memory.key === null) return;
  const owner = principalLabel(deps.principal);
  const before = known !== undefined ? known : await tx.claimFor(memory.scope, memory.key);
  if (before?.owner === owner) return;
  await tx.setClaim({ scope: memory.scope, key: memory.key, owner, since: deps.now(), memoryId: memory.id });
  await recordEvent(deps, tx, 'claimed', memory.id, null, {
    detail: { owner, previous: before?.owner ?? null, implicit: true, via },
  });
}

/** Whose field a held proposal touches: the claim on its key, or the owner of the keyless memory it replaces. */
export async function ownerOfSlot(store: Store, m: Memory): Promise<string | null> {
  if (m.key !== null) return (await store.claimFor(m.scope, m.key))?.owner ?? null;
  if (m.supersedes === null) return null;
  const target = await store.getMemory(m.supersedes);
  return target === null ? null : ownerOf(target);
}
