/**
 * Migration 8 of the Postgres store (part `store`), the twin of SQLite's migration 15: memories in the order their
 * session said them, an index on the session id stamped in provenance (I14) and the log's sequence, per tenant,
 * so a hit's neighbours (src/store/postgres/neighbours.ts) are two index seeks. The table's row-level security
 * and grants already cover it; nothing is written or rewritten (I1).
 */
import type { PgMigration } from '../database.ts';

export const STORE_MIGRATION_8: PgMigration = {
  version: 8,
  name: 'session order',
  async up(tx) {
    await tx.unsafe(`
create index if not exists memories_session_seq
  on memledger.memories (tenant, ((provenance::jsonb) ->> 'sessionId'), seq);
`);
  },
};
