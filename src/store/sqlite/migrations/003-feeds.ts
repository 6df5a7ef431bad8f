/** Migration 3 of memory.db: the live-claim index for corroboration, feed definitions and the items feeds have read. */
import type { Migration } from '../database.ts';

export const MIGRATION_3: Migration = {
  version: 3,
  name: 'corroboration index, feeds, feed items',
  sql: `
-- The same claim written again corroborates the live memory holding it: found by (scope, fingerprint) among the
-- held and active rows only, which stay few however long the log grows.
CREATE INDEX memories_live_claim ON memories(scope, fingerprint) WHERE state IN ('held', 'active');

-- A feed is a connector plus a checkpoint: what it reads (config) and how far it has read (checkpoint).
CREATE TABLE feeds (
  name         TEXT PRIMARY KEY,
  connector    TEXT NOT NULL,
  config       TEXT NOT NULL DEFAULT '{}',
  checkpoint   TEXT NOT NULL DEFAULT '{}',
  stats        TEXT NOT NULL DEFAULT '{}',
  created_at   TEXT NOT NULL,
  last_sync_at TEXT,
  last_error   TEXT
) WITHOUT ROWID;

-- Every source item a feed turned into a memory, keyed on (connector, source item id). The row is inserted in the
-- memory's own transaction, so an item read twice (a re-run, a crash before the checkpoint, two processes) lands
-- once. It holds ids only, never content, and outlives erasure so an erased line is not mined again.
CREATE TABLE feed_items (
  connector  TEXT NOT NULL,
  item_id    TEXT NOT NULL,
  memory_id  TEXT NOT NULL REFERENCES memories(id),
  at         TEXT NOT NULL,
  PRIMARY KEY (connector, item_id)
) WITHOUT ROWID;
CREATE INDEX feed_items_memory ON feed_items(memory_id);
`,
};
