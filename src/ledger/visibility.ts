/**
 * What a principal may learn of a memory: loading one answers `not_found` whether it does not exist or lies
 * outside the grants, and a write tells a caller who may not read its scope nothing of the rows it met (I4).
 */
import { containsSecret, maskSecrets } from '../guard/secrets.ts';
import { isMemoryError, MemoryError } from '../model/errors.ts';
import type { MemoryEvent } from '../model/event.ts';
import type { Memory } from '../model/memory.ts';
import { memoryIdSchema } from '../model/memory.ts';
import { can } from '../policy/access.ts';
import type { Principal } from '../model/principal.ts';
import type { GateDecision } from '../policy/gate.ts';

/** Validates an id's shape before it reaches the store: a path- or SQL-shaped id is `invalid_input`. */
export function parseMemoryId(id: unknown): string {
  const parsed = memoryIdSchema.safeParse(id);
  if (!parsed.success)
    throw new MemoryError('invalid_input', `not a memory id: expected mem_ followed by 22 characters`);
  return parsed.data;
}

/** Absent and forbidden look the same, so a guessed id reveals nothing about another scope. */
export function visibleOr404(principal: Principal, memory: Memory | null, id: string): Memory {
  if (memory === null || !can(principal, 'read', memory.scope))
    throw new MemoryError('not_found', `no memory ${id}`);
  return memory;
}

/**
 * Whether the output of a write in `scope` may name what the write met there: a live copy of the claim, a
 * rejection's reviewer, date and reason, a key's holder or owner, a race's winner. Only to a caller that may
 * read the scope. A write-only grant (`shared:w`) writes blind: whatever its write runs into stays as unknown to
 * it as a `get` of that row would (I4). Every write path asks this one question before it names a row.
 */
export function mayName(principal: Principal, scope: string): boolean {
  return can(principal, 'read', scope);
}

/**
 * The gate's decision as a caller that may not read the scope hears it: that ownership decided, not whose the
 * key is. The action stays what it is: the write lands, waits or is refused either way.
 */
export function withoutOwner(decision: GateDecision): GateDecision {
  if (decision.owner === undefined) return decision;
  return {
    action: decision.action,
    rule: decision.rule,
    reason: `a person owns the key or memory this write would replace; a non-human write to it ${decision.action === 'deny' ? 'is denied' : 'waits for review'}`,
  };
}

/**
 * A conflict that names its winner (I2: `details.winner`, and the id in the message), retold without it for a
 * caller that may not read `scope`. No cause is kept: a library caller could read the winner off it.
 */
export function withoutWinner(principal: Principal, scope: string, error: unknown): unknown {
  if (!isMemoryError(error, 'conflict') || error.details.winner == null || mayName(principal, scope)) {
    return error;
  }
  return new MemoryError(
    'conflict',
    `another write reached the same key or version in ${scope} first; this write was not applied`,
  );
}

/** Egress guard (I10): a memory whose text is secret-shaped is never emitted whole. */
export function hasSecret(memory: Memory): boolean {
  return (
    containsSecret(memory.body) || (memory.value !== null && containsSecret(JSON.stringify(memory.value)))
  );
}

/**
 * A memory as it may leave (I10): secret-shaped spans of its body, value and provenance (session, run, client,
 * source note) masked. A clean memory is returned as it is.
 */
export function maskMemory(memory: Memory): Memory {
  if (!hasSecret(memory)) return maskProvenance(memory);
  return {
    ...memory,
    body: maskSecrets(memory.body),
    value: memory.value === null ? null : maskValue(memory.value),
    provenance: maskTexts(memory.provenance),
  };
}

/** The memory with secret-shaped provenance strings masked, for reads that withhold secret bodies already. */
export function maskProvenance(memory: Memory): Memory {
  const provenance = maskTexts(memory.provenance);
  return provenance === memory.provenance ? memory : { ...memory, provenance };
}

/**
 * An event as it may leave (I10): its reason (a rejection's, a retraction's, a review note) and the strings
 * of its detail masked. The write guard refuses such reasons; this covers what was planted below it.
 */
export function maskEvent(event: MemoryEvent): MemoryEvent {
  const reason = event.reason === null ? null : maskSecrets(event.reason);
  const detail = maskTexts(event.detail);
  return reason === event.reason && detail === event.detail ? event : { ...event, reason, detail };
}

function maskValue(value: unknown): unknown {
  try {
    return JSON.parse(maskSecrets(JSON.stringify(value)));
  } catch {
    return '[masked]';
  }
}

/** The record with every secret-shaped string inside it (a few levels deep) masked; the record itself if none. */
function maskTexts<T extends object>(record: T): T {
  return hasSecretText(record, 0) ? (maskStrings(record, 0) as T) : record;
}

const MAX_NESTING = 3;

function hasSecretText(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return containsSecret(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_NESTING) return false;
  return Object.values(value).some((v) => hasSecretText(v, depth + 1));
}

function maskStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_NESTING) return value;
  if (Array.isArray(value)) return value.map((v) => maskStrings(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, maskStrings(v, depth + 1)]));
}
