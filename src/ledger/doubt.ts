/**
 * Doubt and its undoing. Anyone who may read and write a memory's scope may doubt it: its trust drops to
 * `unverified`, so it ranks lower, and it stays visible; doubt never raises trust and never changes state.
 * Only a human reviewer restores the trust it had before (I7): the one verb here that raises trust.
 */
import { z } from 'zod';
import { assertNoSecrets } from '../guard/limits.ts';
import { MemoryError } from '../model/errors.ts';
import type { MemoryEvent } from '../model/event.ts';
import {
  LIMITS,
  type Memory,
  memoryIdSchema,
  type State,
  TRUST_LEVELS,
  type Trust,
} from '../model/memory.ts';
import { assertCan, assertHumanWithRole } from '../policy/access.ts';
import type { StoreTx } from '../store/port.ts';
import { type Deps, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import { visibleOr404 } from './visibility.ts';

const reasonSchema = (what: string) => z.string().min(1, `${what} needs a reason`).max(LIMITS.reason);
export const doubtInputSchema = z.object({ id: memoryIdSchema, reason: reasonSchema('a doubt') }).strict();
export const restoreTrustInputSchema = z
  .object({ id: memoryIdSchema, reason: reasonSchema('restoring trust') })
  .strict();
export type DoubtInput = z.input<typeof doubtInputSchema>;

/** What `doubt` and `restoreTrust` did to a memory's trust. */
export interface TrustResult {
  id: string;
  /** Unchanged by either verb: a doubted memory stays where it was, visible. */
  state: State;
  /** The trust now. */
  trust: Trust;
  /** The trust before this call. */
  previous: Trust;
  /** False when the call changed nothing (doubting a memory already unverified). */
  changed: boolean;
  /** What happened, in words. */
  message: string;
}

/**
 * doubt: lowers an active memory's trust to `unverified` with a `doubted` event carrying the reason and the
 * trust it had. Doubting an unverified memory changes nothing and says so.
 * @example await session.doubt({ id, reason: 'the build log says otherwise' })
 */
export async function doubt(deps: Deps, input: DoubtInput): Promise<TrustResult> {
  const { id, reason } = parseInput(doubtInputSchema, input, 'doubt');
  assertNoSecrets({ reason });
  return deps.store.transaction(async (tx) => {
    const m = await loadActive(deps, tx, id, 'doubted');
    if (m.trust === 'unverified') {
      return unchanged(m, `memory ${id} is already unverified; doubting it again changes nothing`);
    }
    await tx.setLifecycle(id, { trust: 'unverified' });
    await recordEvent(
      deps,
      tx,
      'doubted',
      id,
      { from: m.state, to: m.state },
      { reason, detail: { previousTrust: m.trust, trust: 'unverified' } },
    );
    return {
      id,
      state: m.state,
      trust: 'unverified',
      previous: m.trust,
      changed: true,
      message: `memory ${id} is now unverified (was ${m.trust}): it ranks lower and stays visible; a reviewer can restore its trust`,
    };
  });
}

/**
 * restoreTrust: a human reviewer puts a doubted memory back to the trust it had before it was doubted, with a
 * `trust-restored` event. A memory that is not unverified, or was unverified from the start (mined), is left
 * alone: restoring is not vouching, which is `confirm`.
 */
export async function restoreTrust(deps: Deps, input: DoubtInput): Promise<TrustResult> {
  const { id, reason } = parseInput(restoreTrustInputSchema, input, 'trust restore');
  assertNoSecrets({ reason });
  assertHumanWithRole(deps.principal, 'reviewer', "restore a memory's trust");
  return deps.store.transaction(async (tx) => {
    const m = await loadActive(deps, tx, id, 'restored');
    if (m.trust !== 'unverified') {
      return unchanged(m, `memory ${id} is ${m.trust}, not doubted; nothing to restore`);
    }
    const doubtEvent = openDoubt(await tx.eventsOf(id));
    if (doubtEvent === null) {
      throw new MemoryError(
        'conflict',
        `memory ${id} has been unverified since it was written, not doubted; to vouch for it, confirm it`,
      );
    }
    const trust = trustBefore(doubtEvent);
    await tx.setLifecycle(id, { trust });
    await recordEvent(
      deps,
      tx,
      'trust-restored',
      id,
      { from: m.state, to: m.state },
      { reason, detail: { trust, doubtEvent: doubtEvent.id, doubtedBy: doubtEvent.actor } },
    );
    return {
      id,
      state: m.state,
      trust,
      previous: 'unverified',
      changed: true,
      message: `memory ${id} is ${trust} again, as before ${doubtEvent.actor} doubted it`,
    };
  });
}

async function loadActive(deps: Deps, tx: StoreTx, id: string, verb: string): Promise<Memory> {
  const m = visibleOr404(deps.principal, await tx.getMemory(id), id);
  assertCan(deps.principal, 'write', m.scope);
  if (m.state !== 'active') {
    throw new MemoryError(
      'conflict',
      `memory ${id} is ${m.state}; only an active memory's trust can be ${verb}`,
      { details: { state: m.state } },
    );
  }
  return m;
}

/** The doubt that made the memory unverified: the last `doubted` event after the last restore, if any. */
function openDoubt(events: readonly MemoryEvent[]): MemoryEvent | null {
  let open: MemoryEvent | null = null;
  for (const e of events) {
    if (e.type === 'doubted') open = e;
    else if (e.type === 'trust-restored' || e.type === 'confirmed') open = null;
  }
  return open;
}

/** The trust a doubt event recorded as before; an unreadable detail restores no more than `accepted`. */
function trustBefore(event: MemoryEvent): Trust {
  const previous = event.detail.previousTrust;
  return (TRUST_LEVELS as readonly unknown[]).includes(previous) && previous !== 'unverified'
    ? (previous as Trust)
    : 'accepted';
}

const unchanged = (m: Memory, message: string): TrustResult => ({
  id: m.id,
  state: m.state,
  trust: m.trust,
  previous: m.trust,
  changed: false,
  message,
});
