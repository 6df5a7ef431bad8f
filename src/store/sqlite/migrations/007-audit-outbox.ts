/**
 * Migration 7 of memory.db: the audit outbox. A call's audit record is written here in the same transaction as
 * the change it records, so a process killed between its commit and its audit.db write leaves the record behind
 * instead of losing it (I8); the record moves to audit.db after the call, and on the next open if it never did.
 * A row holds ids, states, kinds and counts (the audit record's allow-listed preview), never memory content, so
 * erasure need not reach it. Rows are few (one per call in flight), hence no index beyond the key.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_7: Migration = {
  version: 7,
  name: 'audit outbox',
  sql: `
CREATE TABLE audit_outbox (
  id      TEXT PRIMARY KEY,
  pid     INTEGER NOT NULL,
  record  TEXT NOT NULL
) WITHOUT ROWID;
`,
};
