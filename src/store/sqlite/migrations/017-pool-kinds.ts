/**
 * Migration 17 of memory.db: the context pools' own index. Context lists the active rules (preference and
 * decision) and commitments of a few named scopes, newest first (src/ledger/context/pools.ts); on the scope
 * index (scope, seq) each scope's walk tests the kind on every active memory of the scope until enough pass.
 * This index holds only those three kinds (about a quarter of the bench's memories), keyed (scope, kind, seq),
 * so each scope and kind is one ordered range (src/store/sqlite/list-per-scope.ts). An index of every active
 * memory on the same key measured the same speed-up at about four times the size; this one costs an index write
 * only on inserts and state changes of the three kinds. Nothing is written or rewritten (I1).
 */
import type { Migration } from '../database.ts';

export const MIGRATION_17: Migration = {
  version: 17,
  name: 'pool kinds',
  sql: `
CREATE INDEX IF NOT EXISTS memories_pool_kinds ON memories(scope, kind, seq)
  WHERE state = 'active' AND kind IN ('preference', 'decision', 'commitment');
`,
};
