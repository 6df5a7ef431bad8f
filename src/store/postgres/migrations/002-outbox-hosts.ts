/**
 * Migration 2 of the Postgres store (part `store`): each audit outbox row names the machine of the process that
 * wrote it and when it was last written, by the database's clock. Replicas on several machines share the
 * outbox, and a pid can be checked only on its own machine: another machine's row is moved once it is older
 * than the outbox lease (src/ledger/audit-recovery.ts). Rows from before this migration have no host: they are
 * treated as another machine's, written when the migration ran.
 */
import type { PgMigration } from '../database.ts';

export const STORE_MIGRATION_2: PgMigration = {
  version: 2,
  name: 'audit outbox rows carry their host and write time',
  async up(tx) {
    await tx.unsafe(`
alter table memledger.audit_outbox
  add column host text,
  add column written_at timestamptz not null default now();
`);
  },
};
