/**
 * Migration 16 of memory.db: the embedding queue only where an embedder works, and vectors stored in scope order.
 *
 * Queue: migration 14's trigger queued every memory, embedder or none: 75 B per memory of the 194 B memory.db
 * spent over the raw baseline at 100k (bench `disk`), and a row written and indexed in every write. Now the home
 * records each model whose vectors it keeps (`embed_models`, filled by a model's first drain, a backfill or a
 * stored vector: src/store/sqlite/vectors.ts) and the trigger queues a memory only once one is recorded. The
 * first drain of a model queues every memory without its vector in one statement, so nothing written before,
 * or by a process without an embedder, is missed. A home that never stored a vector drops its queue rows.
 *
 * Layout: vectors were keyed by memory id (write order), so a scope's vectors lay on as many pages as it has
 * memories, and a scoped scan read a memories row and a vector row at random per memory (at 1M in 1,000 scopes,
 * about 13 ms of a hybrid search's 15 ms CPU past the query's embedding). Keyed by (scope, memory seq, model),
 * a scope's vectors are contiguous and found from the active-scope index alone (scope, seq), without the
 * memories row. A memory's scope never changes (I1), so the key is stable. Erasure deletes by that key, in the
 * erasure's transaction as before (I9; secure_delete zeroes the bytes, the old table's pages included).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Migration } from '../database.ts';

/** Migration 14's layout (keyed by memory id) rewritten in scope order; only where that layout is still there. */
const REWRITE = `
CREATE TABLE memory_vectors_by_scope (
  scope       TEXT NOT NULL,
  memory_seq  INTEGER NOT NULL,
  model       TEXT NOT NULL,
  dims        INTEGER NOT NULL,
  norm        REAL NOT NULL,
  vec         BLOB NOT NULL,
  PRIMARY KEY (scope, memory_seq, model)
) WITHOUT ROWID;
INSERT INTO memory_vectors_by_scope (scope, memory_seq, model, dims, norm, vec)
  SELECT m.scope, m.seq, v.model, v.dims, v.norm, v.vec FROM memory_vectors v JOIN memories m ON m.id = v.memory_id
  WHERE m.state <> 'erased' ORDER BY m.scope, m.seq, v.model;
DROP TRIGGER IF EXISTS memories_erase_vectors;
DROP TABLE memory_vectors;
ALTER TABLE memory_vectors_by_scope RENAME TO memory_vectors;
`;

/** Each statement safe to run again (a home whose version was set back runs this migration a second time). */
const TRIGGERS_AND_MODELS = `
DROP TRIGGER IF EXISTS memories_erase_vectors;
CREATE TRIGGER memories_erase_vectors AFTER UPDATE OF state ON memories
  WHEN NEW.state = 'erased'
BEGIN
  DELETE FROM memory_vectors WHERE scope = NEW.scope AND memory_seq = NEW.seq;
  DELETE FROM embed_queue WHERE memory_id = NEW.id;
END;

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
`;

export const MIGRATION_16: Migration = {
  version: 16,
  name: 'embed models, vectors by scope',
  sql: '',
  backfill(db: DatabaseSync) {
    const old = db
      .prepare("SELECT 1 FROM pragma_table_info('memory_vectors') WHERE name = 'memory_id'")
      .get();
    if (old !== undefined) db.exec(REWRITE);
    db.exec(TRIGGERS_AND_MODELS);
  },
};
