/**
 * Migration 14 of memory.db: vectors for semantic search (src/embed). One int8 vector per memory and embedder
 * model (vectors of two models are never compared), and the queue of memories waiting for one. Triggers keep
 * both honest without a line in the write path: a memory's queue row is inserted in the memory's own
 * transaction (the write is acknowledged before its vector exists, and a killed process loses no queue row),
 * and erasure deletes the vectors and the queue row in the erasure's transaction (I9: a vector can be inverted
 * into text close to the body). memory.db runs with secure_delete, so the deleted bytes are zeroed.
 * Memories already in the home are not queued here: `memledger embed --backfill` queues them, on purpose.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_14: Migration = {
  version: 14,
  name: 'memory vectors',
  sql: `
CREATE TABLE IF NOT EXISTS memory_vectors (
  memory_id  TEXT NOT NULL,
  model      TEXT NOT NULL,
  dims       INTEGER NOT NULL,
  norm       REAL NOT NULL,
  vec        BLOB NOT NULL,
  PRIMARY KEY (memory_id, model)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS embed_queue (
  seq        INTEGER PRIMARY KEY,
  memory_id  TEXT NOT NULL UNIQUE
);
CREATE TRIGGER IF NOT EXISTS memories_embed_queue AFTER INSERT ON memories
  WHEN NEW.state <> 'erased'
BEGIN
  INSERT OR IGNORE INTO embed_queue (memory_id) VALUES (NEW.id);
END;
CREATE TRIGGER IF NOT EXISTS memories_erase_vectors AFTER UPDATE OF state ON memories
  WHEN NEW.state = 'erased'
BEGIN
  DELETE FROM memory_vectors WHERE memory_id = NEW.id;
  DELETE FROM embed_queue WHERE memory_id = NEW.id;
END;
`,
};
