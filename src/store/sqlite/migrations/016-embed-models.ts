/**
 * Migration 16 of memory.db: the embedding queue only where an embedder works. Migration 14's trigger queued
 * every memory, embedder or none: 75 B per memory of the 194 B memory.db spent over the raw baseline at 100k
 * (bench `disk`), and a row written and indexed in every write. Now the home records each model whose vectors it
 * keeps (`embed_models`, filled by the first drain or backfill of a model: src/embed/semantic.ts) and the trigger
 * queues a memory only once one is recorded. The first drain of a model queues every memory without its vector
 * in one statement, so nothing written before, or by a process without an embedder, is missed. Erasure is
 * migration 14's trigger, unchanged (I9). A home that never stored a vector drops its queue rows here: they
 * were written with no embedder, and the first drain queues them again.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_16: Migration = {
  version: 16,
  name: 'embed models',
  sql: `
CREATE TABLE IF NOT EXISTS embed_models (
  model  TEXT PRIMARY KEY
) WITHOUT ROWID;
INSERT OR IGNORE INTO embed_models (model) SELECT DISTINCT model FROM memory_vectors;
DELETE FROM embed_queue WHERE NOT EXISTS (SELECT 1 FROM embed_models);
DROP TRIGGER IF EXISTS memories_embed_queue;
CREATE TRIGGER memories_embed_queue AFTER INSERT ON memories
  WHEN NEW.state <> 'erased' AND EXISTS (SELECT 1 FROM embed_models)
BEGIN
  INSERT OR IGNORE INTO embed_queue (memory_id) VALUES (NEW.id);
END;
`,
};
