/**
 * Migration 10 of the Postgres store (part `store`): the memories' lookups on plain columns, so row-level
 * security lets an index serve them. Under a forced RLS policy Postgres will not use an index condition that calls
 * a function that is not LEAKPROOF (`substr`, `lower`, the jsonb `->>`) before the policy's tenant qual, so the
 * expression indexes of migrations 1 and 8 served the superuser only: as `memledger_app` every remember scanned
 * the tenant for its live claim (a parallel seq scan, 50 ms at 100k memories), the key holder was filtered row by
 * row within its scope, and a hit's neighbours within theirs. Now: `key_folded` (lower(key)) and `session_id`
 * (provenance's sessionId), stored generated columns, compared with `=` (leakproof), the lower() on the parameter
 * only; the unique key index keeps its name, so the conflict mapping by name (I2) is unchanged. Nothing a caller
 * sees changes; the table is rewritten once for the two columns, which keep no planner statistics (I9).
 * Postgres only: SQLite has no RLS, its expression indexes serve as they are.
 */
import type { PgMigration } from '../database.ts';

export const STORE_MIGRATION_10: PgMigration = {
  version: 10,
  name: 'rls plain indexes',
  async up(tx) {
    await tx.unsafe(`
alter table memledger.memories
  add column key_folded text generated always as (lower(key)) stored,
  add column session_id text generated always as ((provenance::jsonb) ->> 'sessionId') stored;
-- Derived from content columns, so no planner statistics either (I9, migration 1's NO_CONTENT_STATISTICS):
-- ANALYZE would copy sampled keys and session ids into pg_statistic, where erasure cannot reach them.
alter table memledger.memories alter column key_folded set statistics 0, alter column session_id set statistics 0;

-- One current holder per (scope, key), case-insensitively, as before; same name for the conflict mapping.
create unique index memories_key_holder_folded on memledger.memories (tenant, scope, key_folded)
  where state = 'active' and key is not null;
drop index memledger.memories_key_holder;
alter index memledger.memories_key_holder_folded rename to memories_key_holder;

-- The live-claim lookup (feeds.ts readLiveClaims): scope and the whole fingerprint, no substr().
create index memories_live_claim on memledger.memories (tenant, scope, fingerprint)
  where state in ('held', 'active');
drop index memledger.memories_live_fingerprint;

-- A hit's neighbours in its session (neighbours.ts), and a session's window of sources (commitments.ts).
create index memories_session on memledger.memories (tenant, session_id, seq);
drop index memledger.memories_session_seq;
`);
  },
};
