/**
 * Migration 2 of memory.db: governance projections. Claims (who owns a key), corrections (a reviewer's edit or
 * rejection of an agent's write, fed back to that agent) and the per-session record of what context showed.
 * Each is a projection of events kept in the transaction that appends the event; none holds memory content
 * beyond a key, and erasure deletes the rows that name an erased memory (I9).
 */
import type { Migration } from '../database.ts';

export const MIGRATION_2: Migration = {
  version: 2,
  name: 'claims, corrections, context shown',
  sql: `
-- I6: at most one owner per key. A row exists while a human's claim stands; release deletes it.
CREATE TABLE claims (
  scope     TEXT NOT NULL,
  key       TEXT NOT NULL,
  owner     TEXT NOT NULL,
  since     TEXT NOT NULL,
  -- the memory whose 'claimed' event made this claim (the key's holder then)
  memory_id TEXT NOT NULL REFERENCES memories(id),
  PRIMARY KEY (scope, key)
) WITHOUT ROWID;
CREATE INDEX claims_memory ON claims(memory_id);

-- A home made before claims were explicit: its owned keys were those whose current value a human wrote or
-- confirmed (the rule the gate derived then). They become claims, each with the event that records it.
CREATE TEMP TABLE claim_backfill AS
  SELECT scope, key, id AS memory_id,
    CASE WHEN json_extract(provenance, '$.principalKind') = 'human'
      THEN json_extract(provenance, '$.principal') ELSE COALESCE(confirmed_by, 'human:unknown') END AS owner,
    strftime('%Y-%m-%dT%H:%M:%fZ', 'now') AS at
  FROM memories
  WHERE state = 'active' AND key IS NOT NULL
    AND (json_extract(provenance, '$.principalKind') = 'human' OR trust = 'confirmed');
INSERT INTO claims (scope, key, owner, since, memory_id) SELECT scope, key, owner, at, memory_id FROM claim_backfill;
INSERT INTO events (id, type, memory_id, actor, actor_kind, at, reason, detail)
  SELECT 'evt_' || lower(hex(randomblob(11))), 'claimed', memory_id, owner, 'human', at, NULL,
    json_object('owner', owner, 'implicit', json('true'), 'via', 'migration 2')
  FROM claim_backfill;
DROP TABLE claim_backfill;

-- Corrections: one row per 'corrected' event. The corrected text stays in the memories it names (the
-- reviewer's edited version) and the event's reason (a rejection's reason), so erasure reaches it there.
CREATE TABLE corrections (
  seq          INTEGER PRIMARY KEY,
  id           TEXT NOT NULL UNIQUE REFERENCES events(id),
  scope        TEXT NOT NULL,
  -- the key the agent wrote, or 'kind:<kind>' for a keyless write: corrections are latest per slot
  slot         TEXT NOT NULL,
  key          TEXT,
  kind         TEXT NOT NULL,
  agent        TEXT NOT NULL,
  action       TEXT NOT NULL CHECK (action IN ('edited', 'rejected')),
  proposal_id  TEXT NOT NULL REFERENCES memories(id),
  corrected_id TEXT REFERENCES memories(id),
  by           TEXT NOT NULL,
  at           TEXT NOT NULL
);
CREATE INDEX corrections_latest ON corrections(agent, scope, slot, seq);
CREATE INDEX corrections_scope ON corrections(scope, seq);
CREATE INDEX corrections_proposal ON corrections(proposal_id);
CREATE INDEX corrections_corrected ON corrections(corrected_id) WHERE corrected_id IS NOT NULL;

-- What context assembly already showed a principal's session, so a second call in it shows something new.
CREATE TABLE context_shown (
  principal  TEXT NOT NULL,
  session_id TEXT NOT NULL,
  memory_id  TEXT NOT NULL,
  at         TEXT NOT NULL,
  PRIMARY KEY (principal, session_id, memory_id)
) WITHOUT ROWID;

-- Context pools read current memories by kind (confirmed rules, open commitments), newest first.
CREATE INDEX memories_active_kind ON memories(kind, seq) WHERE state = 'active';
`,
};
