/** Migration 1 of memory.db: the log, its projections and the full-text indexes. */
import type { Migration } from '../database.ts';

const TOKENIZE = `tokenize='porter unicode61 remove_diacritics 2'`;
const CONTENT_COLUMNS =
  'id, scope, kind, key, body, value, subjects, valid_from, valid_to, confidence, supersedes, edit_of, fingerprint, recorded_at, seq';

export const MIGRATION_1: Migration = {
  version: 1,
  name: 'log, projections, index',
  sql: `
CREATE TABLE memories (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE,
  scope        TEXT NOT NULL,
  kind         TEXT NOT NULL,
  key          TEXT,
  body         TEXT NOT NULL,
  value        TEXT,
  subjects     TEXT NOT NULL DEFAULT '[]',
  valid_from   TEXT,
  valid_to     TEXT,
  confidence   REAL NOT NULL,
  supersedes   TEXT REFERENCES memories(id),
  edit_of      TEXT REFERENCES memories(id),
  fingerprint  TEXT NOT NULL,
  provenance   TEXT NOT NULL,
  recorded_at  TEXT NOT NULL,
  -- lifecycle: a projection of events, changed only in the transaction that appends the event
  state        TEXT NOT NULL CHECK (state IN ('held','active','superseded','retracted','rejected','erased')),
  trust        TEXT NOT NULL CHECK (trust IN ('confirmed','accepted','unverified')),
  superseded_by TEXT,
  active_from  TEXT,
  active_until TEXT,
  confirmed_by TEXT,
  rule         TEXT,
  erased_at    TEXT
);

-- I2: at most one landed successor per memory. Held and rejected proposals do not count, nor a proposal a reviewer
-- replaced by an edit (it never landed: active_from IS NULL); approval is checked here.
CREATE UNIQUE INDEX memories_one_successor ON memories(supersedes)
  WHERE supersedes IS NOT NULL AND state NOT IN ('held', 'rejected') AND active_from IS NOT NULL;
-- At most one current holder per (scope, key).
CREATE UNIQUE INDEX memories_key_holder ON memories(scope, key) WHERE state = 'active' AND key IS NOT NULL;
-- Partial indexes for current reads and the review queue.
CREATE INDEX memories_active_scope ON memories(scope, seq) WHERE state = 'active';
CREATE INDEX memories_held ON memories(scope, seq) WHERE state = 'held';
CREATE INDEX memories_edit_of ON memories(edit_of) WHERE edit_of IS NOT NULL;

-- I1: the log is append-only. Content changes only by erasure, and only to the blank tombstone form.
CREATE TRIGGER memories_no_delete BEFORE DELETE ON memories
BEGIN SELECT RAISE(ABORT, 'I1 append-only: memories cannot be deleted'); END;
CREATE TRIGGER memories_content_immutable BEFORE UPDATE OF ${CONTENT_COLUMNS}, provenance ON memories
WHEN NOT (
  OLD.state <> 'erased' AND NEW.state = 'erased' AND NEW.erased_at IS NOT NULL
  AND NEW.body = '' AND NEW.value IS NULL AND NEW.key IS NULL AND NEW.subjects = '[]'
  AND NEW.id = OLD.id AND NEW.seq = OLD.seq AND NEW.scope = OLD.scope AND NEW.kind = OLD.kind
  AND NEW.recorded_at = OLD.recorded_at AND NEW.fingerprint = OLD.fingerprint
  AND NEW.supersedes IS OLD.supersedes AND NEW.edit_of IS OLD.edit_of
)
BEGIN SELECT RAISE(ABORT, 'I1 append-only: memory content is immutable'); END;
CREATE TRIGGER memories_erasure_blank BEFORE UPDATE OF state ON memories
WHEN NEW.state = 'erased' AND OLD.state <> 'erased'
  AND NOT (NEW.body = '' AND NEW.value IS NULL AND NEW.key IS NULL AND NEW.subjects = '[]' AND NEW.erased_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'I9 erasure blanks content in the same write'); END;
CREATE TRIGGER memories_erasure_final BEFORE UPDATE OF state ON memories
WHEN OLD.state = 'erased' AND NEW.state <> 'erased'
BEGIN SELECT RAISE(ABORT, 'I9 erasure is final'); END;

CREATE TABLE memory_subjects (
  subject    TEXT NOT NULL,
  memory_seq INTEGER NOT NULL REFERENCES memories(seq),
  PRIMARY KEY (subject, memory_seq)
) WITHOUT ROWID;
CREATE INDEX memory_subjects_seq ON memory_subjects(memory_seq);

-- Distinct scopes and their index tokens, so a scope pattern resolves without scanning the log.
CREATE TABLE scopes (scope TEXT PRIMARY KEY, tok TEXT NOT NULL) WITHOUT ROWID;

CREATE TABLE events (
  seq       INTEGER PRIMARY KEY,
  id        TEXT NOT NULL UNIQUE,
  type      TEXT NOT NULL,
  memory_id TEXT NOT NULL REFERENCES memories(id),
  actor     TEXT NOT NULL,
  actor_kind TEXT NOT NULL,
  at        TEXT NOT NULL,
  reason    TEXT,
  detail    TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX events_memory ON events(memory_id, seq);
CREATE TRIGGER events_no_delete BEFORE DELETE ON events
BEGIN SELECT RAISE(ABORT, 'I1 append-only: events cannot be deleted'); END;
CREATE TRIGGER events_immutable BEFORE UPDATE ON events
WHEN NOT (NEW.reason IS NULL AND NEW.id = OLD.id AND NEW.seq = OLD.seq AND NEW.type = OLD.type
  AND NEW.memory_id = OLD.memory_id AND NEW.actor = OLD.actor AND NEW.at = OLD.at AND NEW.detail = OLD.detail)
BEGIN SELECT RAISE(ABORT, 'I1 append-only: events are immutable (erasure may only blank a reason)'); END;

-- I5: rejections keyed on the claim's fingerprint within its scope, never on a row.
CREATE TABLE rejections (
  scope       TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  memory_id   TEXT NOT NULL REFERENCES memories(id),
  reason      TEXT NOT NULL,
  by          TEXT NOT NULL,
  at          TEXT NOT NULL,
  PRIMARY KEY (scope, fingerprint)
) WITHOUT ROWID;
CREATE TRIGGER rejections_no_delete BEFORE DELETE ON rejections
BEGIN SELECT RAISE(ABORT, 'I5 rejection stands: rejections cannot be deleted'); END;
CREATE TRIGGER rejections_immutable BEFORE UPDATE ON rejections
WHEN NOT (NEW.reason = '' AND NEW.scope = OLD.scope AND NEW.fingerprint = OLD.fingerprint
  AND NEW.memory_id = OLD.memory_id AND NEW.by = OLD.by AND NEW.at = OLD.at)
BEGIN SELECT RAISE(ABORT, 'I5 rejection stands: rejections are immutable (erasure may only blank a reason)'); END;

-- I9: tombstones. The subject is kept only as a hash.
CREATE TABLE erasures (
  id           TEXT PRIMARY KEY,
  subject_hash TEXT NOT NULL,
  memory_ids   TEXT NOT NULL,
  by           TEXT NOT NULL,
  at           TEXT NOT NULL
) WITHOUT ROWID;

-- Full text over current memories, scope token inside the document so a scoped query intersects posting lists.
CREATE VIRTUAL TABLE fts_current USING fts5(body, meta, scope_tok, content='', contentless_delete=1, ${TOKENIZE});
-- Full text over versions that were current once and are not now, for as-of reads (I12).
CREATE VIRTUAL TABLE fts_history USING fts5(body, meta, scope_tok, content='', contentless_delete=1, ${TOKENIZE});
INSERT INTO fts_current(fts_current, rank) VALUES ('rank', 'bm25(1.0, 0.5, 0.0)');
INSERT INTO fts_history(fts_history, rank) VALUES ('rank', 'bm25(1.0, 0.5, 0.0)');
`,
};
