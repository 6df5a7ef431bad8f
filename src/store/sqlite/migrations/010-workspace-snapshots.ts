/**
 * Migration 10 of memory.db: agent workspaces. One row per agent principal holds its current SQLite workspace as
 * zstd-compressed bytes; the version is the optimistic lock two writers of one workspace check (a put whose base
 * version is stale changes nothing). The row is replaced in place, so no old version is kept: an erasure's
 * re-snapshot leaves the text nowhere (memory.db has secure_delete on). `workspace_quarantine` keeps the last
 * snapshot of an agent that failed to restore, one per agent, for an operator to look at.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_10: Migration = {
  version: 10,
  name: 'workspace snapshots',
  sql: `
CREATE TABLE IF NOT EXISTS workspace_snapshots (
  agent            TEXT PRIMARY KEY,
  version          INTEGER NOT NULL CHECK (version > 0),
  bytes            BLOB NOT NULL,
  raw_size         INTEGER NOT NULL,
  compressed_size  INTEGER NOT NULL,
  sha256           TEXT NOT NULL,
  table_count      INTEGER NOT NULL,
  updated_at       TEXT NOT NULL,
  updated_by       TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS workspace_quarantine (
  agent    TEXT PRIMARY KEY,
  version  INTEGER NOT NULL,
  reason   TEXT NOT NULL,
  bytes    BLOB NOT NULL,
  at       TEXT NOT NULL
);
`,
};
