/**
 * The columns a new memory row is inserted with, in one order for both backends: each backend's `insertParams`
 * names its values by these columns, and positional binding (SQLite), the one-statement insert and the COPY of a
 * restore batch (Postgres) all take them in this order.
 */
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
