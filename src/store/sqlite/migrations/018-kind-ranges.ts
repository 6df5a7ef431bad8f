/**
 * Migration 18 of memory.db: the index of every active memory by kind (migration 2, `memories_active_kind`: kind,
 * seq; 21.6 B a memory at 1M) gives way to one small partial index per kind of the context pools. Since
 * migration 17, context inside named scopes reads the pools' index (scope, kind, seq); what still took the kind
 * index was a listing of those kinds over every scope or scopes by prefix (an operator's context, an agent's
 * `project:*` grants, the workspace's `__commitments`), and an operator's `list --kind` over every scope.
 * EXPLAIN QUERY PLAN of every statement the tests prepare on memories, at 1M: those five shapes, no other.
 * Without any kind index a listing walks the log newest first until enough rows match: as fast on the bench's
 * mix (every kind 5% or more), but the whole log when the kind is rare (152 ms at 1M for a kind with no active
 * memory). The pools' kinds are the rare ones in a real home and context reads them on every call, so each keeps
 * a range of its own, newest first (src/store/sqlite/list-per-scope.ts `perKindList`): the sequence number only,
 * about 12 B an entry, for the memories of those kinds alone. A listing by another kind over every scope walks
 * the log (an operator's listing; 0.16–0.25 ms at 1M for a kind of 5%). Nothing is written or rewritten (I1).
 */
import type { Migration } from '../database.ts';

export const MIGRATION_18: Migration = {
  version: 18,
  name: 'kind ranges',
  sql: `
DROP INDEX IF EXISTS memories_active_kind;
CREATE INDEX IF NOT EXISTS memories_active_preference ON memories(seq) WHERE state = 'active' AND kind = 'preference';
CREATE INDEX IF NOT EXISTS memories_active_decision ON memories(seq) WHERE state = 'active' AND kind = 'decision';
CREATE INDEX IF NOT EXISTS memories_active_commitment ON memories(seq) WHERE state = 'active' AND kind = 'commitment';
`,
};
