/** The governance projections over memory.db (migration 2): claims, the correction feed, what context showed. */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { foldKey } from '../../guard/fingerprint.ts';
import type { Kind } from '../../model/memory.ts';
import type { Claim, CorrectionFilter, CorrectionRow } from '../port.ts';

export interface ClaimRow {
  scope: string;
  key: string;
  owner: string;
  since: string;
  memory_id: string;
}

/** A corrections row as both engines store it. */
export interface CorrectionDbRow {
  id: string;
  scope: string;
  key: string | null;
  kind: string;
  agent: string;
  action: string;
  proposal_id: string;
  corrected_id: string | null;
  by: string;
  at: string;
  reason: string | null;
}

export function prepareGovernance(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    claimGet: p(`SELECT scope, key, owner, since, memory_id FROM claims WHERE scope = ? AND key = ?`),
    // A read, then an insert or an update: never an upsert. A statement that may abort after writing (an upsert,
    // or an update of a foreign-key column) runs in a statement savepoint, and FTS5 flushes its pending index to
    // disk at every savepoint: the claim on each keyed line made a bulk import flush and merge the index about a
    // hundred times per batch of a thousand (150 µs a claim, against 10 µs now). A plain insert needs no savepoint.
    claimUpdate: p(`UPDATE claims SET owner = ?, since = ?, memory_id = ? WHERE scope = ? AND key = ?`),
    claimInsert: p(`INSERT INTO claims (scope, key, owner, since, memory_id) VALUES (?, ?, ?, ?, ?)`),
    claimDrop: p(`DELETE FROM claims WHERE scope = ? AND key = ?`),
    claimDropForMemory: p(`DELETE FROM claims WHERE memory_id = ?`),
    correctionInsert: p(
      `INSERT INTO corrections (id, scope, slot, key, kind, agent, action, proposal_id, corrected_id, by, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    correctionsDropFor: p(`DELETE FROM corrections WHERE proposal_id = :id OR corrected_id = :id`),
    shownInsert: p(
      `INSERT OR IGNORE INTO context_shown (principal, session_id, memory_id, at) VALUES (?, ?, ?, ?)`,
    ),
    shownGet: p(`SELECT memory_id FROM context_shown WHERE principal = ? AND session_id = ?`),
  };
}
export type GovernanceStatements = ReturnType<typeof prepareGovernance>;

/** Claims are keyed on the folded key (migration 5): `ACME.Plan` and `acme.plan` are one slot (I6). */
export function readClaim(sql: GovernanceStatements, scope: string, key: string): Claim | null {
  const r = sql.claimGet.get(scope, foldKey(key)) as ClaimRow | undefined;
  return r === undefined
    ? null
    : { scope: r.scope, key: r.key, owner: r.owner, since: r.since, memoryId: r.memory_id };
}

/** Creates or replaces the claim on (scope, key); the caller holds the write lock, so nothing races the two steps. */
export function writeClaim(sql: GovernanceStatements, c: Claim): void {
  const key = foldKey(c.key);
  if (sql.claimGet.get(c.scope, key) === undefined)
    sql.claimInsert.run(c.scope, key, c.owner, c.since, c.memoryId);
  else sql.claimUpdate.run(c.owner, c.since, c.memoryId, c.scope, key);
}

export function dropClaim(sql: GovernanceStatements, scope: string, key: string): void {
  sql.claimDrop.run(scope, foldKey(key));
}

export function writeCorrection(sql: GovernanceStatements, c: Omit<CorrectionRow, 'reason'>): void {
  sql.correctionInsert.run(
    c.id,
    c.scope,
    slotOf(c.key, c.kind),
    c.key,
    c.kind,
    c.agent,
    c.action,
    c.proposalId,
    c.correctedId,
    c.by,
    c.at,
  );
}

/** Corrections are latest per slot: the key the agent wrote, else its kind. */
export const slotOf = (key: string | null, kind: string): string =>
  key === null ? `kind:${kind}` : foldKey(key);

/**
 * Erasure (I9): claims and corrections that name an erased memory go with it; they carry its key. Called with
 * the row as it was before its content was blanked.
 */
export function forgetGoverned(
  sql: GovernanceStatements,
  row: { id: string; scope: string; key: string | null },
): void {
  sql.claimDropForMemory.run(row.id);
  if (row.key !== null) dropClaim(sql, row.scope, row.key);
  sql.correctionsDropFor.run({ id: row.id });
}

/**
 * The newest correction per (agent, scope, slot), newest first, with the reason from its event. `prepare` is the
 * store's cache of statements by text: every MCP search and context block asks, and preparing this join with its
 * subquery cost more than running it (a CPU profile of the MCP server: a tenth of a search call).
 */
export function latestCorrections(
  prepare: (sql: string) => StatementSync,
  filter: CorrectionFilter,
): CorrectionRow[] {
  const where: string[] = [];
  const params: Record<string, SQLInputValue> = { n: filter.limit };
  if (!filter.scopes.all) {
    const scopes = filter.scopes;
    const parts: string[] = [];
    scopes.exact.forEach((s, i) => {
      parts.push(`c.scope = :sx${i}`);
      params[`sx${i}`] = s;
    });
    scopes.prefixes.forEach((s, i) => {
      parts.push(`substr(c.scope, 1, length(:sp${i})) = :sp${i}`);
      params[`sp${i}`] = s;
    });
    where.push(parts.length > 0 ? `(${parts.join(' OR ')})` : '0');
  }
  if (filter.agent !== undefined) {
    where.push('c.agent = :agent');
    params.agent = filter.agent;
  }
  // Most callers have no correction in these scopes: a probe of the same conditions on one index answers that
  // for less than the join (in an agent's search at 100k, 73 -> 10 us CPU), and only a hit runs the whole statement.
  const { n: _, ...probeParams } = params;
  const probe = `SELECT 1 FROM corrections c${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} LIMIT 1`;
  if (prepare(probe).get(probeParams) === undefined) return [];
  // An older correction of the same slot drops out: only the newest per (agent, scope, slot) is kept.
  where.push(`NOT EXISTS (SELECT 1 FROM corrections n
    WHERE n.agent = c.agent AND n.scope = c.scope AND n.slot = c.slot AND n.seq > c.seq)`);
  const sql = `SELECT c.id, c.scope, c.key, c.kind, c.agent, c.action, c.proposal_id, c.corrected_id, c.by, c.at,
      e.reason FROM corrections c JOIN events e ON e.id = c.id
    WHERE ${where.join(' AND ')} ORDER BY c.seq DESC LIMIT :n`;
  return (prepare(sql).all(params) as unknown as CorrectionDbRow[]).map((r) => ({
    id: r.id,
    scope: r.scope,
    key: r.key,
    kind: r.kind as Kind,
    agent: r.agent,
    action: r.action as CorrectionRow['action'],
    proposalId: r.proposal_id,
    correctedId: r.corrected_id,
    reason: r.reason,
    by: r.by,
    at: r.at,
  }));
}

export function readShown(sql: GovernanceStatements, principal: string, sessionId: string): Set<string> {
  return new Set((sql.shownGet.all(principal, sessionId) as { memory_id: string }[]).map((r) => r.memory_id));
}

export function writeShown(
  sql: GovernanceStatements,
  principal: string,
  sessionId: string,
  ids: string[],
  at: string,
): void {
  for (const id of ids) sql.shownInsert.run(principal, sessionId, id, at);
}
