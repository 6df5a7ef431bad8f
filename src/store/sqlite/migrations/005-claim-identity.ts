/**
 * Migration 5 of memory.db: claim identity, lifted rejections, effective valid time, and hashes erasure can
 * make meaningless.
 * - Claim identity (I5) is the text as a reader sees it in its scope (src/guard/fingerprint.ts): kind and key
 *   no longer take part, and invisible characters and look-alike letters fold away. Every fingerprint is
 *   recomputed (a hash over normalised text, so here in code, not SQL), and each rejection also records the
 *   value identity of a keyed claim with a value.
 * - Keys compare case-insensitively: one current holder per (scope, lower(key)). Case variants that are all
 *   current today keep the newest as the holder; the others become superseded by it, with an event saying why.
 *   Claims and correction slots are keyed on the folded key.
 * - Rejections get a row id and can be lifted on purpose (`review unreject`); only a standing (unlifted)
 *   rejection is unique per identity, so the same claim can be rejected again after a lift.
 * - Valid time as the versions of a key imply it (I12): `valid_start` is a version's `valid_from`, or the
 *   `valid_to` of the version it supersedes; `valid_end` is its `valid_to`, or the `valid_from` of the successor
 *   that superseded it. Content stays immutable; these two are a projection, kept where supersede happens.
 * - Erasure (I9): a tombstone keeps no fingerprint and an erasure record no subject hash. Both were plain
 *   SHA-256 of short text, which a dictionary reverses. Audit argument hashes become keyed by a per-home secret
 *   (`home_keys`) that erasure replaces, so what was hashed before an erasure cannot be tested afterwards.
 */
import type { DatabaseSync } from 'node:sqlite';
import { fingerprint, valueFingerprint } from '../../../guard/fingerprint.ts';
import { newId } from '../../../model/ids.ts';
import type { Migration } from '../database.ts';
import { metaText, scopeToken } from '../rows.ts';

const CONTENT_COLUMNS =
  'id, scope, kind, key, body, value, subjects, valid_from, valid_to, confidence, supersedes, edit_of, fingerprint, recorded_at, seq';

/** I1 as before, except that the erasure write now blanks the fingerprint too. */
const CONTENT_TRIGGERS = `
CREATE TRIGGER memories_content_immutable BEFORE UPDATE OF ${CONTENT_COLUMNS}, provenance ON memories
WHEN NOT (
  OLD.state <> 'erased' AND NEW.state = 'erased' AND NEW.erased_at IS NOT NULL
  AND NEW.body = '' AND NEW.value IS NULL AND NEW.key IS NULL AND NEW.subjects = '[]' AND NEW.fingerprint = ''
  AND NEW.id = OLD.id AND NEW.seq = OLD.seq AND NEW.scope = OLD.scope AND NEW.kind = OLD.kind
  AND NEW.recorded_at = OLD.recorded_at AND NEW.supersedes IS OLD.supersedes AND NEW.edit_of IS OLD.edit_of
)
BEGIN SELECT RAISE(ABORT, 'I1 append-only: memory content is immutable'); END;
CREATE TRIGGER memories_erasure_blank BEFORE UPDATE OF state ON memories
WHEN NEW.state = 'erased' AND OLD.state <> 'erased'
  AND NOT (NEW.body = '' AND NEW.value IS NULL AND NEW.key IS NULL AND NEW.subjects = '[]'
    AND NEW.fingerprint = '' AND NEW.erased_at IS NOT NULL)
BEGIN SELECT RAISE(ABORT, 'I9 erasure blanks content in the same write'); END;
`;

const REJECTIONS = `
CREATE TABLE rejections_v5 (
  seq         INTEGER PRIMARY KEY,
  scope       TEXT NOT NULL,
  -- a text or a value identity (separate hash domains); 'erased:<seq>' once erasure took the claim away
  fingerprint TEXT NOT NULL,
  memory_id   TEXT NOT NULL REFERENCES memories(id),
  reason      TEXT NOT NULL,
  by          TEXT NOT NULL,
  at          TEXT NOT NULL,
  lifted_at   TEXT,
  lifted_by   TEXT,
  lift_reason TEXT
);
INSERT INTO rejections_v5 (scope, fingerprint, memory_id, reason, by, at)
  SELECT scope, fingerprint, memory_id, reason, by, at FROM rejections ORDER BY at, memory_id;
DROP TRIGGER rejections_no_delete;
DROP TRIGGER rejections_immutable;
DROP TABLE rejections;
ALTER TABLE rejections_v5 RENAME TO rejections;
CREATE INDEX rejections_memory ON rejections(memory_id);
`;

const REJECTION_RULES = `
-- I5: a standing rejection per identity and scope; a lifted one stays as history.
CREATE UNIQUE INDEX rejections_standing ON rejections(scope, fingerprint) WHERE lifted_at IS NULL;
CREATE TRIGGER rejections_no_delete BEFORE DELETE ON rejections
BEGIN SELECT RAISE(ABORT, 'I5 rejection stands: rejections cannot be deleted'); END;
-- Changes allowed: a lift, once, by a person with a reason; erasure blanking the reasons and dropping the identity.
CREATE TRIGGER rejections_immutable BEFORE UPDATE ON rejections
WHEN NOT (
  NEW.seq = OLD.seq AND NEW.scope = OLD.scope AND NEW.memory_id = OLD.memory_id
  AND NEW.by = OLD.by AND NEW.at = OLD.at
  AND (NEW.reason = OLD.reason OR NEW.reason = '')
  AND (NEW.fingerprint = OLD.fingerprint OR NEW.fingerprint = 'erased:' || OLD.seq)
  AND (OLD.lifted_at IS NULL OR (NEW.lifted_at IS OLD.lifted_at AND NEW.lifted_by IS OLD.lifted_by
    AND (NEW.lift_reason IS OLD.lift_reason OR NEW.lift_reason = '')))
)
BEGIN SELECT RAISE(ABORT, 'I5 rejection stands: a rejection changes only by a lift or by erasure'); END;
`;

export const MIGRATION_5: Migration = {
  version: 5,
  name: 'claim identity, lifted rejections, effective valid time, keyed hashes',
  sql: `
DROP TRIGGER memories_content_immutable;
DROP TRIGGER memories_erasure_blank;
DROP INDEX memories_key_holder;
ALTER TABLE memories ADD COLUMN valid_start TEXT;
ALTER TABLE memories ADD COLUMN valid_end TEXT;
UPDATE memories SET valid_start = COALESCE(valid_from, (SELECT p.valid_to FROM memories p WHERE p.id = memories.supersedes));
UPDATE memories SET valid_end = CASE
  WHEN valid_to IS NOT NULL THEN valid_to
  WHEN state = 'superseded' THEN (SELECT s.valid_from FROM memories s WHERE s.id = memories.superseded_by)
  ELSE NULL END;
${REJECTIONS}
ALTER TABLE erasures DROP COLUMN subject_hash;
ALTER TABLE erasures ADD COLUMN selector TEXT NOT NULL DEFAULT 'subject';
CREATE TABLE home_keys (
  id         TEXT PRIMARY KEY,
  key        BLOB NOT NULL,
  created_at TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO home_keys (id, key, created_at)
  VALUES ('hk' || lower(hex(randomblob(4))), randomblob(32), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
`,
  backfill(db) {
    recomputeFingerprints(db);
    foldCaseVariantHolders(db);
    db.exec(`CREATE UNIQUE INDEX memories_key_holder ON memories(scope, lower(key))
      WHERE state = 'active' AND key IS NOT NULL`);
    db.exec(CONTENT_TRIGGERS);
    recomputeRejections(db);
    db.exec(REJECTION_RULES);
    foldClaims(db);
    db.exec(`UPDATE corrections SET slot = lower(slot) WHERE slot NOT LIKE 'kind:%'`);
  },
};

/** In pages, so a home of millions of memories never holds them all at once. */
function recomputeFingerprints(db: DatabaseSync): void {
  const update = db.prepare('UPDATE memories SET fingerprint = ? WHERE seq = ?');
  const page = db.prepare(
    'SELECT seq, scope, body, state FROM memories WHERE seq > ? ORDER BY seq LIMIT 5000',
  );
  let after = 0;
  for (;;) {
    const rows = page.all(after) as { seq: number; scope: string; body: string; state: string }[];
    if (rows.length === 0) return;
    for (const r of rows) update.run(r.state === 'erased' ? '' : fingerprint(r), r.seq);
    after = rows.at(-1)!.seq;
  }
}

/** Case variants of one key, all current: the newest stays the holder, the others become its history. */
function foldCaseVariantHolders(db: DatabaseSync): void {
  const groups = db
    .prepare(
      `SELECT scope, lower(key) AS k, max(seq) AS keep FROM memories WHERE state = 'active' AND key IS NOT NULL
       GROUP BY scope, lower(key) HAVING count(*) > 1`,
    )
    .all() as { scope: string; k: string; keep: number }[];
  if (groups.length === 0) return;
  const at = new Date().toISOString();
  const byIdOfSeq = db.prepare('SELECT id FROM memories WHERE seq = ?');
  const others = db.prepare(
    `SELECT seq, id, scope, key, body, value, subjects FROM memories
     WHERE state = 'active' AND scope = ? AND lower(key) = ? AND seq <> ?`,
  );
  const supersede = db.prepare(
    `UPDATE memories SET state = 'superseded', superseded_by = ?, active_until = ? WHERE seq = ?`,
  );
  const event = db.prepare(
    `INSERT INTO events (id, type, memory_id, actor, actor_kind, at, reason, detail)
     VALUES (?, 'superseded', ?, 'service:memledger', 'service', ?, NULL, ?)`,
  );
  for (const g of groups) {
    const keep = (byIdOfSeq.get(g.keep) as { id: string }).id;
    for (const r of others.all(g.scope, g.k, g.keep) as {
      seq: number;
      id: string;
      scope: string;
      key: string;
      body: string;
      value: string | null;
      subjects: string;
    }[]) {
      supersede.run(keep, at, r.seq);
      event.run(
        newId('evt'),
        r.id,
        at,
        JSON.stringify({ by: keep, via: 'migration 5: keys compare case-insensitively' }),
      );
      db.prepare('DELETE FROM fts_current WHERE rowid = ?').run(r.seq);
      const meta = metaText({
        key: r.key,
        subjects: JSON.parse(r.subjects) as string[],
        value: r.value === null ? null : JSON.parse(r.value),
      });
      db.prepare('INSERT INTO fts_history (rowid, body, meta, scope_tok) VALUES (?, ?, ?, ?)').run(
        r.seq,
        r.body,
        meta,
        scopeToken(r.scope),
      );
    }
  }
}

/**
 * Each rejection takes its memory's new text identity, plus a second row for the value identity of a keyed
 * claim with a value. Variants rejected separately before may now share an identity: the first stands, the
 * others are kept as lifted by this migration. A rejection of an erased memory keeps no identity.
 */
function recomputeRejections(db: DatabaseSync): void {
  const rows = db
    .prepare(
      `SELECT r.seq, r.scope, r.memory_id, r.reason, r.by, r.at, m.body, m.key, m.value, m.state
       FROM rejections r JOIN memories m ON m.id = r.memory_id ORDER BY r.seq`,
    )
    .all() as {
    seq: number;
    scope: string;
    memory_id: string;
    reason: string;
    by: string;
    at: string;
    body: string;
    key: string | null;
    value: string | null;
    state: string;
  }[];
  const set = db.prepare('UPDATE rejections SET fingerprint = ?, reason = ? WHERE seq = ?');
  const lift = db.prepare(
    `UPDATE rejections SET fingerprint = ?, lifted_at = ?, lifted_by = 'service:memledger',
       lift_reason = 'migration 5: the same claim is rejected by an earlier rejection' WHERE seq = ?`,
  );
  const add = db.prepare(
    'INSERT INTO rejections (scope, fingerprint, memory_id, reason, by, at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const standing = new Set<string>();
  const at = new Date().toISOString();
  for (const r of rows) {
    if (r.state === 'erased') {
      set.run(`erased:${r.seq}`, '', r.seq);
      continue;
    }
    const text = fingerprint(r);
    if (standing.has(`${r.scope}\u0000${text}`)) lift.run(text, at, r.seq);
    else {
      set.run(text, r.reason, r.seq);
      standing.add(`${r.scope}\u0000${text}`);
    }
    const value = valueFingerprint({
      scope: r.scope,
      key: r.key,
      value: r.value === null ? null : JSON.parse(r.value),
    });
    if (value !== null && !standing.has(`${r.scope}\u0000${value}`)) {
      add.run(r.scope, value, r.memory_id, r.reason, r.by, r.at);
      standing.add(`${r.scope}\u0000${value}`);
    }
  }
}

/** One claim per folded key: when case variants were claimed separately, the most recent claim stands. */
function foldClaims(db: DatabaseSync): void {
  const rows = db.prepare('SELECT scope, key, owner, since, memory_id FROM claims ORDER BY since').all() as {
    scope: string;
    key: string;
    owner: string;
    since: string;
    memory_id: string;
  }[];
  const kept = new Map<string, (typeof rows)[number]>();
  for (const r of rows) kept.set(`${r.scope}\u0000${r.key.toLowerCase()}`, r);
  db.exec('DELETE FROM claims');
  const insert = db.prepare(
    'INSERT INTO claims (scope, key, owner, since, memory_id) VALUES (?, ?, ?, ?, ?)',
  );
  for (const r of kept.values()) insert.run(r.scope, r.key.toLowerCase(), r.owner, r.since, r.memory_id);
}
