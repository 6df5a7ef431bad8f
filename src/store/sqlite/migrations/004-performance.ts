/**
 * Migration 4 of memory.db: indexes measured against the queries that use them.
 * - A smaller corroboration index. The live-claim lookup (same fingerprint in the same scope, held or active)
 *   was indexed on (scope, fingerprint): some 90 bytes a row, inserted at a random place, so every write
 *   dirtied a random page of a large index, and a bulk import of a thousand rows rewrote most of it. The
 *   fingerprint is a SHA-256 that already covers the scope, so its first 12 hex digits (48 bits) are as
 *   selective; the lookup still compares the whole fingerprint and the scope (src/store/sqlite/feeds.ts).
 * - Successors by the memory they supersede. History and erasure walk supersede links both ways; the only index
 *   on `supersedes` was the one-successor rule's, partial on landed rows, which that walk cannot use, so each
 *   step scanned the whole log (20 ms at 100k memories, linear beyond). Only superseding rows enter it.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_4: Migration = {
  version: 4,
  name: 'short live-claim index',
  sql: `
DROP INDEX memories_live_claim;
CREATE INDEX memories_live_fingerprint ON memories(substr(fingerprint, 1, 12))
  WHERE state IN ('held', 'active');
CREATE INDEX memories_supersedes ON memories(supersedes) WHERE supersedes IS NOT NULL;
`,
};
