/**
 * Which log events a behavior's event triggers match, and which it must never see: its own outputs, anything
 * downstream of itself, anything past the causal depth cap (I17), bookkeeping events, and scopes outside both
 * its `reads` and the caller's grants (I4).
 */
import type { Memory } from '../model/memory.ts';
import type { Principal } from '../model/principal.ts';
import { scopeMatches } from '../model/scope.ts';
import { can } from '../policy/access.ts';
import type { RunRow } from '../store/behaviors-port.ts';
import { type BehaviorDefinition, keyMatches } from './definition.ts';

/**
 * A memory appended or changed: it landed (`appended`) or a reviewer let it land (`approved`). Verdicts, claims,
 * corrections, corroborations and erasure are the ledger's bookkeeping and never trigger or feed a behavior.
 */
export const CONTENT_EVENTS = ['appended', 'approved'] as const;

/** How many behaviors deep a chain may run: a run of this depth writes outputs no behavior consumes. */
export const DEPTH_CAP = 3;

export type EventTrigger = Extract<BehaviorDefinition['triggers'][number], { type: 'event' }>;

export function eventTriggers(def: BehaviorDefinition): EventTrigger[] {
  return def.triggers.filter((t): t is EventTrigger => t.type === 'event');
}

/** Does any event trigger of the definition match this memory, within its reads and the caller's grants? */
export function matches(def: BehaviorDefinition, caller: Principal, memory: Memory): boolean {
  if (memory.state === 'erased' || memory.state === 'held' || memory.state === 'rejected') return false;
  if (!def.reads.scopes.some((p) => scopeMatches(p, memory.scope))) return false;
  if (!can(caller, 'read', memory.scope)) return false;
  return eventTriggers(def).some((t) => triggerMatches(t, memory));
}

function triggerMatches(t: EventTrigger, m: Memory): boolean {
  if (t.kinds !== undefined && !t.kinds.includes(m.kind)) return false;
  if (t.scopes !== undefined && !t.scopes.some((p) => scopeMatches(p, m.scope))) return false;
  if (t.key !== undefined && (m.key === null || !keyMatches(t.key, m.key))) return false;
  if (t.subject !== undefined && !m.subjects.includes(t.subject)) return false;
  if (t.words !== undefined) {
    const body = m.body.toLowerCase();
    if (!t.words.some((w) => body.includes(w.toLowerCase()))) return false;
  }
  return true;
}

/**
 * Whether a memory written by `source` (null: not written by a run) may feed `behavior`: never its own output,
 * never a chain it is already in (no A → B → A), never past the depth cap.
 */
export function causallyAllowed(behavior: string, source: RunRow | null): boolean {
  if (source === null) return true;
  if (source.behavior === behavior || source.chain.includes(behavior)) return false;
  return source.depth < DEPTH_CAP;
}
