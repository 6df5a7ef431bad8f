/**
 * The columns new memory and event rows are written with, in one order for both backends: each backend's
 * `insertParams` names a memory's values by these columns, and positional binding (SQLite), the one-statement
 * insert and the COPY of a restore batch (Postgres) all take them in this order. Also the column of each field a
 * lifecycle change may set, which both backends' `setLifecycle` update.
 */
import type { MemoryEvent } from '../model/event.ts';
import type { LifecycleChange } from './port.ts';

/** The column of each field a lifecycle change sets (`StoreTx.setLifecycle`). */
export const LIFECYCLE_COLUMNS: Readonly<Record<keyof LifecycleChange, string>> = {
  state: 'state',
  trust: 'trust',
  supersededBy: 'superseded_by',
  activeFrom: 'active_from',
  activeUntil: 'active_until',
  confirmedBy: 'confirmed_by',
  validEnd: 'valid_end',
};

export const INSERT_COLUMNS = [
  'id',
  'scope',
  'kind',
  'key',
  'body',
  'value',
  'subjects',
  'valid_from',
  'valid_to',
  'confidence',
  'supersedes',
  'edit_of',
  'fingerprint',
  'provenance',
  'recorded_at',
  'state',
  'trust',
  'active_from',
  'active_until',
  'superseded_by',
  'confirmed_by',
  'rule',
  'valid_start',
  'valid_end',
  'erased_at',
] as const;

/** The columns an event row is written with, in the order `eventValues` gives them (each backend's insert, Postgres' COPY). */
export const EVENT_COLUMNS = [
  'id',
  'type',
  'memory_id',
  'actor',
  'actor_kind',
  'at',
  'reason',
  'detail',
] as const;

/** An event's row as positional values, in `EVENT_COLUMNS` order. */
export function eventValues(event: MemoryEvent): (string | null)[] {
  return [
    event.id,
    event.type,
    event.memoryId,
    event.actor,
    event.actorKind,
    event.at,
    event.reason,
    JSON.stringify(event.detail),
  ];
}
