/** memory.db's prepared statements and the row shapes they read, shared by the store and its transactions. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
import type { Rejection } from '../port.ts';
import { EVENT_COLUMNS, INSERT_COLUMNS } from '../memory-columns.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';

export interface EventRow {
  id: string;
  type: string;
  memory_id: string;
  actor: string;
  actor_kind: string;
  at: string;
  reason: string | null;
  detail: string;
}

export const toEvent = (r: EventRow): MemoryEvent => ({
  id: r.id,
  type: r.type as MemoryEvent['type'],
  memoryId: r.memory_id,
  actor: r.actor,
  actorKind: r.actor_kind as MemoryEvent['actorKind'],
  at: r.at,
  reason: r.reason,
  detail: JSON.parse(r.detail),
});

const arrays = (statement: StatementSync): StatementSync => {
  statement.setReturnArrays(true);
  return statement;
};

export function prepareStatements(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    byId: p(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`),
    // Rows as arrays (rowFromColumns): getMemories reads a search's hits this way on every search.
    byIds: arrays(
      p(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id IN (SELECT value FROM json_each(?))`),
    ),
    // The same expression and conditions as the unique index of migration 5, so the planner uses it.
    holder: p(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE m.scope = ? AND lower(m.key) = lower(?) AND m.state = 'active' AND m.key IS NOT NULL`,
    ),
    successor: p(
      `SELECT id FROM memories WHERE supersedes = ? AND state NOT IN ('held','rejected') AND active_from IS NOT NULL`,
    ),
    linked: p(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.supersedes = :id OR m.edit_of = :id
       UNION SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = (SELECT supersedes FROM memories WHERE id = :id)
          OR m.id = (SELECT edit_of FROM memories WHERE id = :id) OR m.id = (SELECT superseded_by FROM memories WHERE id = :id)`,
    ),
    bySubject: p(
      `SELECT ${MEMORY_COLUMNS} FROM memory_subjects s JOIN memories m ON m.seq = s.memory_seq WHERE s.subject = ?`,
    ),
    // Erasure by provenance is rare and deliberate: a scan of the log is the honest cost, not another index.
    byPrincipal: p(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE json_extract(m.provenance, '$.principal') = ? AND m.state <> 'erased'`,
    ),
    bySession: p(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE json_extract(m.provenance, '$.sessionId') = ? AND m.state <> 'erased'`,
    ),
    bySource: p(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.state <> 'erased' AND (
         substr(json_extract(m.provenance, '$.source.url'), 1, length(:prefix)) = :prefix
         OR substr(json_extract(m.provenance, '$.source.connector') || ':' || COALESCE(json_extract(m.provenance, '$.source.id'), ''), 1, length(:prefix)) = :prefix)`,
    ),
    pageAll: p(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.seq > ? ORDER BY m.seq LIMIT 500`),
    // Positional, not named: binding 25 named parameters cost a third of the insert's CPU (16 against 26 us a
    // row at 30k rows, every index and trigger in place).
    insert: p(
      `INSERT INTO memories (${INSERT_COLUMNS.join(', ')}) VALUES (${INSERT_COLUMNS.map(() => '?').join(', ')})`,
    ),
    scopeInsert: p(`INSERT OR IGNORE INTO scopes (scope, tok) VALUES (?, ?)`),
    scopesByPrefix: p(`SELECT tok FROM scopes WHERE scope LIKE ?`),
    scopeCount: p(`SELECT count(*) AS n FROM scopes`),
    subjectInsert: p(`INSERT OR IGNORE INTO memory_subjects (subject, memory_seq) VALUES (?, ?)`),
    subjectDeleteSeq: p(`DELETE FROM memory_subjects WHERE memory_seq = ?`),
    eventInsert: p(
      `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
    ),
    eventExists: p(`SELECT 1 FROM events WHERE id = ?`),
    eventsFor: p(
      `SELECT id, type, memory_id, actor, actor_kind, at, reason, detail FROM events WHERE memory_id = ? ORDER BY seq`,
    ),
    eventsBlank: p(`UPDATE events SET reason = NULL WHERE memory_id = ? AND reason IS NOT NULL`),
    rejectionInsert: p(
      `INSERT INTO rejections (scope, fingerprint, memory_id, reason, by, at, lifted_at, lifted_by, lift_reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    rejectionStanding: p(
      `SELECT ${REJECTION_COLUMNS} FROM rejections WHERE scope = ? AND fingerprint = ? AND lifted_at IS NULL`,
    ),
    rejectionLift: p(`UPDATE rejections SET lifted_at = ?, lifted_by = ?, lift_reason = ? WHERE seq = ?`),
    rejectionsOf: p(`SELECT ${REJECTION_COLUMNS} FROM rejections WHERE memory_id = ? ORDER BY seq`),
    // Erasure takes the claim's identity away with its text (I9): a hash of short text is reversible by guessing.
    rejectionsBlank: p(
      `UPDATE rejections SET reason = '', fingerprint = 'erased:' || seq,
         lift_reason = CASE WHEN lift_reason IS NULL THEN NULL ELSE '' END WHERE memory_id = ?`,
    ),
    claimsAll: p(`SELECT scope, key, owner, since, memory_id FROM claims ORDER BY since, scope, key`),
    erasuresAll: p(`SELECT id, selector, memory_ids, by, at FROM erasures ORDER BY at, id`),
    hashKey: p(`SELECT id, key FROM home_keys ORDER BY created_at DESC LIMIT 1`),
    hashKeyDrop: p(`DELETE FROM home_keys`),
    hashKeyInsert: p(`INSERT INTO home_keys (id, key, created_at) VALUES (?, ?, ?)`),
    eraseRow: p(
      `UPDATE memories SET state = 'erased', erased_at = :at, active_until = CASE WHEN active_from IS NULL THEN NULL ELSE COALESCE(active_until, :at) END,
         body = '', value = NULL, key = NULL, subjects = '[]', fingerprint = '', provenance = :provenance WHERE id = :id`,
    ),
    // A restore may bring an erasure record twice: the second changes nothing.
    erasureInsert: p(
      `INSERT OR IGNORE INTO erasures (id, selector, memory_ids, by, at) VALUES (?, ?, ?, ?, ?)`,
    ),
  };
}
export type Statements = ReturnType<typeof prepareStatements>;

export function readMemory(sql: Statements, id: string): Memory | null {
  const row = sql.byId.get(id) as MemoryRow | undefined;
  return row === undefined ? null : toMemory(row);
}

export const REJECTION_COLUMNS =
  'seq, scope, fingerprint, memory_id, reason, by, at, lifted_at, lifted_by, lift_reason';

export interface RejectionRow {
  seq: number;
  scope: string;
  fingerprint: string;
  memory_id: string;
  reason: string;
  by: string;
  at: string;
  lifted_at: string | null;
  lifted_by: string | null;
  lift_reason: string | null;
}

export interface ErasureRow {
  id: string;
  selector: string;
  memory_ids: string;
  by: string;
  at: string;
}

export const toRejection = (r: RejectionRow): Rejection => ({
  scope: r.scope,
  fingerprint: r.fingerprint,
  memoryId: r.memory_id,
  reason: r.reason,
  by: r.by,
  at: r.at,
  lifted:
    r.lifted_at === null ? null : { at: r.lifted_at, by: r.lifted_by ?? '', reason: r.lift_reason ?? '' },
});

/** Breadth-first walk over supersede and edit links in both directions. */
export function readComponent(sql: Statements, id: string): Memory[] {
  const start = sql.byId.get(id) as MemoryRow | undefined;
  if (start === undefined) return [];
  const seen = new Map<string, MemoryRow>([[start.id, start]]);
  const queue = [start.id];
  while (queue.length > 0 && seen.size < 10_000) {
    const next = queue.shift()!;
    for (const row of sql.linked.all({ id: next }) as unknown as MemoryRow[]) {
      if (!seen.has(row.id)) {
        seen.set(row.id, row);
        queue.push(row.id);
      }
    }
  }
  return [...seen.values()].sort((a, b) => a.seq - b.seq).map(toMemory);
}
