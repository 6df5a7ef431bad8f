/**
 * Migration 15 of memory.db: memories in the order their session said them. The session id is already stamped in
 * each memory's provenance (I14); this index on it and the log's sequence lets a hit's neighbours (the turn
 * before and after, src/store/sqlite/neighbours.ts) be found by two index seeks instead of a scan of the log.
 * Nothing is written or rewritten: provenance is immutable (I1), and the index reads it as it is.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_15: Migration = {
  version: 15,
  name: 'session order',
  sql: `
CREATE INDEX IF NOT EXISTS memories_session_seq ON memories(json_extract(provenance, '$.sessionId'), seq);
`,
};
