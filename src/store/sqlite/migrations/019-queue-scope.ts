/**
 * Migration 19 of memory.db: each queued memory carries its scope, so a search reads the queue of its own scopes
 * only. Until now a search counted the whole home's queue (`vectors.pending` in its answer) and caught up on it:
 * a reader of one scope saw how many memories other scopes had written since the last drain, and its search took
 * longer the more they wrote (I4: nothing about another scope can be inferred). A memory's scope never changes
 * (I1), so the column is copied once, on queueing; `(scope, seq)` serves a scope's count and its oldest rows.
 * The background drain and `memledger embed` still drain the whole queue, oldest first.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Migration } from '../database.ts';

/** Each statement safe to run again (a home whose version was set back runs this migration a second time). */
const INDEX_AND_TRIGGER = `
UPDATE embed_queue SET scope = (SELECT m.scope FROM memories m WHERE m.id = embed_queue.memory_id)
  WHERE scope IS NULL;
CREATE INDEX IF NOT EXISTS embed_queue_scope ON embed_queue(scope, seq);
DROP TRIGGER IF EXISTS memories_embed_queue;
CREATE TRIGGER memories_embed_queue AFTER INSERT ON memories
  WHEN NEW.state <> 'erased' AND EXISTS (SELECT 1 FROM embed_models)
BEGIN
  INSERT OR IGNORE INTO embed_queue (memory_id, scope) VALUES (NEW.id, NEW.scope);
END;
`;

export const MIGRATION_19: Migration = {
  version: 19,
  name: 'queue by scope',
  sql: '',
  backfill(db: DatabaseSync) {
    const has = db.prepare("SELECT 1 FROM pragma_table_info('embed_queue') WHERE name = 'scope'").get();
    if (has === undefined) db.exec('ALTER TABLE embed_queue ADD COLUMN scope TEXT');
    db.exec(INDEX_AND_TRIGGER);
  },
};
