/**
 * restore: an admin's import of another home's history as it was: memories with their lifecycle and events,
 * rejections (standing or lifted), claims, corrections and erasure records (its plans: restore-plans.ts and
 * restore-behaviors.ts). Only a human with the admin role may run it (I7); every restored event carries a
 * stamp saying who restored it, when and from which file (I14).
 * Credentials are still refused (I10), and a claim this home has rejected still lands as rejected (I5).
 */
import { checkContent, validStartOf } from '../remember.ts';
import { claimIdentity } from '../../guard/fingerprint.ts';
import { assertNoSecrets } from '../../guard/limits.ts';
import { MemoryError } from '../../model/errors.ts';
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
import type { Claim, ErasureRecord, NewMemory, RejectionLift, StoreTx } from '../../store/port.ts';
import type { Deps } from '../deps.ts';
import type { MemoryLine } from './import-lines.ts';
import { identities } from '../remember.ts';

/** Who restored, when and from which file: stamped into every restored event's detail. */
export interface RestoreStamp {
  by: string;
  at: string;
  file: string | null;
}

/** A restore's memory across batches: corrections waiting for the edited version they name to arrive. */
export interface RestoreRun {
  stamp: RestoreStamp;
  /** `corrected` events by the id of the edited version they point to, not restored yet. */
  pendingCorrections: Map<string, { event: MemoryEvent; proposal: Memory }>;
}

export type RestoreOutcome = 'imported' | 'skipped' | 'held' | 'rejected';

export async function restoreMemory(
  deps: Deps,
  tx: StoreTx,
  line: MemoryLine,
  run: RestoreRun,
): Promise<RestoreOutcome> {
  const m = line.memory;
  if ((await tx.getMemory(m.id)) !== null) return 'skipped';
  for (const link of [m.supersedes, m.editOf]) {
    if (link !== null && (await tx.getMemory(link)) === null) {
      throw new MemoryError(
        'invalid_input',
        `memory ${m.id} links to ${link}, which is neither in this home nor earlier in the file`,
      );
    }
  }
  const erased = m.state === 'erased';
  if (erased) {
    if (m.body !== '' || m.value !== null || m.key !== null || m.subjects.length > 0) {
      throw new MemoryError(
        'invalid_input',
        `memory ${m.id} is erased in the file but still carries content`,
      );
    }
  } else {
    checkContent({
      scope: m.scope,
      body: m.body,
      value: m.value,
      key: m.key ?? undefined,
      subjects: m.subjects,
      source: undefined,
    });
  }
  // Provenance (session, run, client, source) and event reasons come from the file: they pass the guard too (I10).
  assertNoSecrets({ provenance: m.provenance, reasons: line.events.map((e) => e.reason) });
  const predecessor = m.supersedes === null ? null : await tx.getMemory(m.supersedes);
  // Computed once: the stored fingerprint is the text identity the rejection check below compares.
  const identity = erased ? null : claimIdentity(m);
  const memory: NewMemory = {
    ...m,
    // Never trusted from the file: it is what rejections are keyed on. A tombstone has none (I9).
    fingerprint: identity?.text ?? '',
    validStart: m.validStart === undefined ? validStartOf(m.validFrom, predecessor) : m.validStart,
    validEnd: m.validEnd === undefined ? m.validTo : m.validEnd,
    provenance: m.provenance as Memory['provenance'],
  };
  if (erased) memory.erasedAt = line.events.find((e) => e.type === 'erased')?.at ?? run.stamp.at;
  let outcome: RestoreOutcome = m.state === 'held' ? 'held' : 'imported';
  const live = m.state === 'active' || m.state === 'held';
  // I5 on every path: a claim this home rejected stays rejected, whatever the other home decided.
  if (live && identity !== null && (await tx.findRejection(m.scope, identities(identity))) !== null) {
    Object.assign(memory, {
      state: 'rejected',
      activeUntil: m.activeFrom === null ? null : deps.now(),
      rule: 'rejection-stands',
    });
    outcome = 'rejected';
  } else if (m.state === 'active' && m.key !== null) {
    const holder = await tx.currentHolder(m.scope, m.key);
    if (holder !== null && holder.id !== m.supersedes) {
      throw new MemoryError(
        'conflict',
        `memory ${m.id}'s key in ${m.scope} is already held by ${holder.id} here`,
        {
          details: { winner: holder.id },
        },
      );
    }
  }
  await tx.insertMemory(memory);
  deps.trace.targets.add(m.id);
  deps.trace.changes.push({ id: m.id, from: null, to: memory.state });
  for (const e of line.events) {
    if (e.memoryId !== m.id || (await tx.hasEvent(e.id))) continue;
    const event: MemoryEvent = { ...e, detail: { ...e.detail, restored: run.stamp } };
    await tx.insertEvent(event);
    // Corrections of an erased proposal went with its erasure; the others are projected again.
    const proposal = e.type === 'corrected' && !erased ? await tx.getMemory(m.id) : null;
    if (proposal !== null) await correction(tx, run, event, proposal);
  }
  const waiting = run.pendingCorrections.get(m.id);
  if (waiting !== undefined) await insertCorrection(tx, waiting.event, waiting.proposal);
  return outcome;
}

/** A `corrected` event's projection row, once the edited version it names exists (a foreign key needs it). */
async function correction(tx: StoreTx, run: RestoreRun, event: MemoryEvent, proposal: Memory): Promise<void> {
  const correctedAs = typeof event.detail.correctedAs === 'string' ? event.detail.correctedAs : null;
  if (correctedAs !== null && (await tx.getMemory(correctedAs)) === null) {
    run.pendingCorrections.set(correctedAs, { event, proposal });
    return;
  }
  await insertCorrection(tx, event, proposal);
}

async function insertCorrection(tx: StoreTx, event: MemoryEvent, proposal: Memory): Promise<void> {
  const action = event.detail.action === 'edited' ? 'edited' : 'rejected';
  await tx.insertCorrection({
    id: event.id,
    scope: proposal.scope,
    key: proposal.key,
    kind: proposal.kind,
    agent: typeof event.detail.agent === 'string' ? event.detail.agent : proposal.provenance.principal,
    action,
    proposalId: proposal.id,
    correctedId: typeof event.detail.correctedAs === 'string' ? event.detail.correctedAs : null,
    by: event.actor,
    at: event.at,
  });
}

/** A rejection act on a restored memory, keyed on the identities of its text (none for a tombstone). */
export async function restoreRejection(
  tx: StoreTx,
  r: {
    scope: string;
    memoryId: string;
    reason: string;
    by: string;
    at: string;
    lifted: RejectionLift | null;
  },
): Promise<boolean> {
  assertNoSecrets({ reason: r.reason, reasons: [r.lifted?.reason ?? null] });
  const m = await tx.getMemory(r.memoryId);
  if (m === null || m.scope !== r.scope) {
    throw new MemoryError(
      'invalid_input',
      `the rejection names memory ${r.memoryId}, which is not in this home in ${r.scope}`,
    );
  }
  const recorded = await tx.rejectionsOf(m.id);
  if (
    recorded.some((x) => x.at === r.at && x.by === r.by && (x.lifted?.at ?? null) === (r.lifted?.at ?? null))
  )
    return false;
  const keys = m.state === 'erased' ? [`erased:${m.id}`] : identities(claimIdentity(m));
  for (const fp of keys) {
    await tx.insertRejection({
      scope: m.scope,
      fingerprint: fp,
      memoryId: m.id,
      reason: m.state === 'erased' ? '' : r.reason,
      by: r.by,
      at: r.at,
      lifted: r.lifted,
    });
  }
  return true;
}

/** A claim on a key whose current holder the restore brought. */
export async function restoreClaim(tx: StoreTx, c: Claim): Promise<boolean> {
  const m = await tx.getMemory(c.memoryId);
  if (m === null || m.scope !== c.scope) {
    throw new MemoryError(
      'invalid_input',
      `the claim names memory ${c.memoryId}, which is not in this home in ${c.scope}`,
    );
  }
  const now = await tx.claimFor(c.scope, c.key);
  if (now?.owner === c.owner && now.since === c.since && now.memoryId === c.memoryId) return false;
  await tx.setClaim(c);
  return true;
}

/** An erasure record whose tombstones the restore brought. */
export async function restoreErasure(tx: StoreTx, e: ErasureRecord): Promise<boolean> {
  for (const id of e.memoryIds) {
    const m = await tx.getMemory(id);
    if (m === null || m.state !== 'erased') {
      throw new MemoryError(
        'invalid_input',
        `erasure ${e.id} names memory ${id}, which is not a tombstone in this home`,
      );
    }
  }
  return tx.insertErasure(e);
}
