/**
 * Corroboration: the same claim (same fingerprint in the same scope) written again while an earlier version is
 * active or held adds evidence to that memory instead of a duplicate. The rejection check runs before this, so a
 * rejected claim never corroborates anything (I5).
 */
import { canonicalValue, foldKey } from '../guard/fingerprint.ts';
import type { MemoryEvent } from '../model/event.ts';
import type { Memory, RememberFields, WriteResult } from '../model/memory.ts';
import type { StoreTx } from '../store/port.ts';
import { type Deps, provenanceOf, recordEvent } from './deps.ts';
import { mayName } from './visibility.ts';

/**
 * If the claim is live already, appends a `corroborated` event on it carrying this call's provenance and returns
 * that memory's id and state; otherwise null, and the write goes on. An explicit `supersedes` of another memory
 * is a new version the caller asked for, not a repeat, so it is left to the normal path.
 *
 * A caller that may not read the scope (a write-only grant) never corroborates: its write goes on as a fresh one
 * and lands or waits by the gate like any other. Answering with the existing memory's id or state would tell it
 * that the claim is there and what became of it (I4), and answering a fresh write's shape around an id that
 * names no row would be a lie the audit and the caller's retries would then carry. A duplicate is the honest
 * cost: it is a real row, with its own provenance, that a reviewer sees.
 */
export async function corroborate(
  deps: Deps,
  tx: StoreTx,
  claim: Pick<Memory, 'scope' | 'fingerprint' | 'key' | 'value'>,
  fields: Pick<RememberFields, 'supersedes' | 'source'>,
  /** The scope's live memories with the claim's fingerprint, when the caller read them already. */
  live: Memory[] | null = null,
): Promise<WriteResult | null> {
  if (!mayName(deps.principal, claim.scope)) return null;
  // The text identity finds the candidates; a repeat must also fill the same slot with the same value, or it
  // is a different write (the same sentence under a new key is a new fact's home, not a copy).
  const slot = sameSlot(claim);
  const existing = (live ?? (await tx.liveClaims(claim.scope, claim.fingerprint))).find(slot) ?? null;
  if (existing === null) return null;
  if (fields.supersedes !== undefined && fields.supersedes !== existing.id) return null;
  const p = provenanceOf(deps, fields.source);
  // Ids only: an event's detail is immutable and outlives erasure, so the free-text parts of a source (url,
  // note) stay on the memory's own provenance, which erasure blanks.
  const detail: Record<string, unknown> = {
    principal: p.principal,
    principalKind: p.principalKind,
    surface: p.surface,
  };
  if (p.sessionId !== undefined) detail.sessionId = p.sessionId;
  if (p.runId !== undefined) detail.runId = p.runId;
  if (p.client !== undefined) detail.client = p.client;
  if (p.onBehalfOf !== undefined) detail.onBehalfOf = p.onBehalfOf;
  if (fields.source?.connector !== undefined || fields.source?.id !== undefined) {
    detail.source = { connector: fields.source.connector ?? null, id: fields.source.id ?? null };
  }
  await recordEvent(deps, tx, 'corroborated', existing.id, null, { detail });
  const as = existing.state === 'held' ? 'held for review' : existing.state;
  return {
    id: existing.id,
    state: existing.state,
    corroborated: true,
    reason: `the same claim is already ${as} as ${existing.id}; this write corroborates it instead of adding a copy`,
  };
}

function sameSlot(claim: Pick<Memory, 'key' | 'value'>): (m: Memory) => boolean {
  const key = claim.key === null ? null : foldKey(claim.key);
  const value = claim.value === null ? null : canonicalValue(claim.value);
  return (m) =>
    (m.key === null ? null : foldKey(m.key)) === key &&
    (m.value === null ? null : canonicalValue(m.value)) === value;
}

/** How much independent support a memory has: its own provenance plus every `corroborated` event on it. */
export interface Corroboration {
  /** How many times the claim was written again while live. */
  count: number;
  /** Distinct session ids among the original write and its corroborations (writes without one are not counted). */
  sessions: number;
  /** Distinct agent principals among them. */
  agents: number;
  /** Distinct principals of any kind among them. */
  principals: number;
  /** Distinct source connectors among them. */
  sources: number;
  lastAt: string | null;
}

export function corroborationOf(memory: Memory, events: readonly MemoryEvent[]): Corroboration {
  const sessions = new Set<string>();
  const agents = new Set<string>();
  const principals = new Set<string>();
  const sources = new Set<string>();
  const note = (principal: unknown, kind: unknown, session: unknown, connector: unknown) => {
    if (typeof principal === 'string') principals.add(principal);
    if (typeof principal === 'string' && kind === 'agent') agents.add(principal);
    if (typeof session === 'string') sessions.add(session);
    if (typeof connector === 'string') sources.add(connector);
  };
  const p = memory.provenance;
  note(p.principal, p.principalKind, p.sessionId, p.source?.connector);
  let count = 0;
  let lastAt: string | null = null;
  for (const e of events) {
    if (e.type !== 'corroborated' || e.memoryId !== memory.id) continue;
    count++;
    if (lastAt === null || e.at > lastAt) lastAt = e.at;
    const source = e.detail.source as { connector?: unknown } | undefined;
    note(e.detail.principal, e.detail.principalKind, e.detail.sessionId, source?.connector);
  }
  return {
    count,
    sessions: sessions.size,
    agents: agents.size,
    principals: principals.size,
    sources: sources.size,
    lastAt,
  };
}
