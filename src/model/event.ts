/** Events: entries that change a memory's state. State is their projection, kept in the same transaction. */

export const EVENT_TYPES = [
  'appended',
  'held',
  'approved',
  'rejected',
  'confirmed',
  'superseded',
  'retracted',
  'erased',
  /** The same claim arrived again from another session, agent or source; provenance is unioned, not duplicated. */
  'corroborated',
  /** A human took ownership of a key, or a reviewer released it. */
  'claimed',
  'released',
  /** A reviewer's edit or rejection of an agent's write, fed back to that agent's later sessions. */
  'corrected',
  /** A reviewer lifted the rejection of a claim on purpose, so it may land again. */
  'unrejected',
  /** Someone who may write the scope lowered a memory's trust to unverified (detail: the trust before). */
  'doubted',
  /** A human reviewer put a doubted memory's trust back to what it was before the doubt (I7). */
  'trust-restored',
  /** A commitment moved in its lifecycle (detail: from and to status); who and when are the event's own. */
  'status-changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface MemoryEvent {
  id: string;
  type: EventType;
  memoryId: string;
  actor: string;
  actorKind: 'human' | 'agent' | 'service';
  at: string;
  /** Free text a person wrote (a rejection reason, a retraction reason). Blanked by erasure. */
  reason: string | null;
  /** Structured facts: the rule that decided, the successor id, the edited version's id. Never content. */
  detail: Record<string, unknown>;
}
