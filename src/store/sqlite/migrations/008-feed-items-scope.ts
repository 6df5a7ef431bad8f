/**
 * Migration 8 of memory.db: feed items are keyed per scope. They were keyed on (connector, item id), so a note
 * with the same text in two repositories (the same AGENTS.md bullet read by two folder feeds, whose item ids are
 * the file's relative path and the text's hash) reached the first project only: the second read it as a
 * duplicate. The key is now (connector, scope, item id): an item lands once in each scope it belongs to.
 * Existing rows take the scope of the memory they produced (an erased memory keeps its scope), so nothing is
 * mined twice after the upgrade.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_8: Migration = {
  version: 8,
  name: 'feed items per scope',
  sql: `
CREATE TABLE feed_items_by_scope (
  connector  TEXT NOT NULL,
  scope      TEXT NOT NULL,
  item_id    TEXT NOT NULL,
  memory_id  TEXT NOT NULL REFERENCES memories(id),
  at         TEXT NOT NULL,
  PRIMARY KEY (connector, scope, item_id)
) WITHOUT ROWID;
INSERT INTO feed_items_by_scope (connector, scope, item_id, memory_id, at)
  SELECT f.connector, m.scope, f.item_id, f.memory_id, f.at FROM feed_items f JOIN memories m ON m.id = f.memory_id;
DROP TABLE feed_items;
ALTER TABLE feed_items_by_scope RENAME TO feed_items;
CREATE INDEX feed_items_memory ON feed_items(memory_id);
`,
};
