/**
 * Migration 6 of memory.db: per-scope statistics of the full-text indexes, so search scores a caller's
 * memories from what that caller may read (I4). FTS5's own bm25 takes its document count, average length and
 * term frequencies from the whole index, so a word written into a scope the caller cannot read would move the
 * caller's scores: a yes/no oracle for any word anywhere. Documents and tokens per (scope, index) are kept in
 * the transaction that changes the index (src/store/sqlite/scope-stats.ts); a home made before this migration
 * gets them counted from the log here, with the rule the index follows (current: active; history: landed once,
 * not active now, not erased).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Migration } from '../database.ts';
import type { MemoryRow } from '../rows.ts';
import { indexOf, StatTotals } from '../scope-stats.ts';

export const MIGRATION_6: Migration = {
  version: 6,
  name: 'scope statistics',
  sql: `
CREATE TABLE scope_stats (
  scope  TEXT NOT NULL,
  idx    TEXT NOT NULL CHECK (idx IN ('current', 'history')),
  docs   INTEGER NOT NULL,
  -- tokens of every column, as FTS5 counts a document's length for bm25
  tokens INTEGER NOT NULL,
  PRIMARY KEY (scope, idx)
) WITHOUT ROWID;
`,
  backfill(db: DatabaseSync): void {
    const totals = new StatTotals();
    const rows = db
      .prepare(
        `SELECT scope, key, body, value, subjects, state, active_from FROM memories
         WHERE active_from IS NOT NULL AND state <> 'erased'`,
      )
      .iterate() as Iterable<BackfillRow>;
    for (const row of rows) {
      const index = indexOf(row.state, row.active_from);
      if (index === null) continue;
      totals.add(index, {
        scope: row.scope,
        body: row.body,
        key: row.key,
        subjects: JSON.parse(row.subjects) as string[],
        value: row.value === null ? null : JSON.parse(row.value),
      });
    }
    totals.write(db);
  },
};

type BackfillRow = Pick<MemoryRow, 'scope' | 'key' | 'body' | 'value' | 'subjects' | 'state' | 'active_from'>;
