/**
 * Migration 11 of memory.db: commitments' lifecycle and summary chains.
 *
 * A commitment is a memory (kind `commitment`); its plan (owner, due, triggers) is the memory's value, so it is
 * content, immutable and erased with it (I1, I9). Its status changes, so it lives in `commitments` as lifecycle
 * columns beside the memory, changed only in the transaction that appends the `status-changed` event, like a
 * memory's own state: the current status is one indexed lookup and the log stays append-only. (A supersede per
 * status change would send every move back through the gate and give the commitment a new id each time.)
 *
 * A summary chain's links: each summary memory names its previous one and the inclusive cutoff it covers up to.
 * One live successor per summary and one live summary per (chain, cutoff), by unique partial indexes like I2's;
 * a link marked stale (erasure reached what it covers) no longer counts, so the chain is redone from before it.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_11: Migration = {
  version: 11,
  name: 'commitments and summary chains',
  sql: `
CREATE TABLE IF NOT EXISTS commitments (
  memory_id    TEXT PRIMARY KEY REFERENCES memories(id),
  scope        TEXT NOT NULL,
  owner        TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('open','doing','done','cancelled')),
  due_at       TEXT,
  remind_at    TEXT,
  scheduled    INTEGER NOT NULL DEFAULT 0,
  semantic     INTEGER NOT NULL DEFAULT 0,
  created_at   TEXT NOT NULL,
  status_at    TEXT NOT NULL,
  status_by    TEXT NOT NULL,
  completed_at TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS commitments_scope_status ON commitments(scope, status, due_at);
CREATE INDEX IF NOT EXISTS commitments_due ON commitments(due_at) WHERE due_at IS NOT NULL AND status IN ('open','doing');
CREATE INDEX IF NOT EXISTS commitments_remind ON commitments(remind_at) WHERE remind_at IS NOT NULL AND status IN ('open','doing');
CREATE TRIGGER IF NOT EXISTS commitments_no_delete BEFORE DELETE ON commitments
BEGIN SELECT RAISE(ABORT, 'I1 append-only: commitments cannot be deleted'); END;

CREATE TABLE IF NOT EXISTS summary_chains (
  name             TEXT PRIMARY KEY,
  scope            TEXT NOT NULL,
  session_id       TEXT,
  subject          TEXT,
  owner            TEXT,
  created_by       TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  source_erased_at TEXT
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS summary_chains_subject ON summary_chains(subject) WHERE subject IS NOT NULL;

CREATE TABLE IF NOT EXISTS summaries (
  memory_id  TEXT PRIMARY KEY REFERENCES memories(id),
  chain      TEXT NOT NULL REFERENCES summary_chains(name),
  previous   TEXT REFERENCES memories(id),
  after      TEXT,
  cutoff     TEXT NOT NULL,
  created_at TEXT NOT NULL,
  stale_at   TEXT
) WITHOUT ROWID;
CREATE UNIQUE INDEX IF NOT EXISTS summaries_one_next ON summaries(previous) WHERE previous IS NOT NULL AND stale_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS summaries_one_first ON summaries(chain) WHERE previous IS NULL AND stale_at IS NULL;
CREATE UNIQUE INDEX IF NOT EXISTS summaries_cutoff ON summaries(chain, cutoff) WHERE stale_at IS NULL;
CREATE TRIGGER IF NOT EXISTS summaries_no_delete BEFORE DELETE ON summaries
BEGIN SELECT RAISE(ABORT, 'I1 append-only: summaries cannot be deleted'); END;

CREATE TABLE IF NOT EXISTS summary_covers (
  memory_id  TEXT NOT NULL REFERENCES memories(id),
  summary_id TEXT NOT NULL REFERENCES memories(id),
  PRIMARY KEY (memory_id, summary_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS summary_covers_summary ON summary_covers(summary_id);
`,
};
