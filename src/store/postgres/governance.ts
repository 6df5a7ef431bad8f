/** The governance projections on Postgres (claims, the correction feed, what context showed), as SQLite's governance.ts. */
import { foldKey } from '../../guard/fingerprint.ts';
import type { Kind } from '../../model/memory.ts';
import type { Claim, CorrectionFilter, CorrectionRow } from '../port.ts';
import { type CorrectionDbRow, slotOf } from '../sqlite/governance.ts';
import { scopeWhere } from './search.ts';
import { one, Params, type Q, run } from './statements.ts';

export interface ClaimRow {
  scope: string;
  key: string;
  owner: string;
  since: string;
  memory_id: string;
}

/** Claims are keyed on the folded key: `ACME.Plan` and `acme.plan` are one slot (I6). */
export async function readClaim(q: Q, scope: string, key: string): Promise<Claim | null> {
  const r = await one<ClaimRow>(
    q,
    'select scope, key, owner, since, memory_id from memledger.claims where scope = $1 and key = $2',
    [scope, foldKey(key)],
  );
  return r === undefined
    ? null
    : { scope: r.scope, key: r.key, owner: r.owner, since: r.since, memoryId: r.memory_id };
}

export async function writeClaim(q: Q, c: Claim): Promise<void> {
  await run(
    q,
    `insert into memledger.claims (scope, key, owner, since, memory_id) values ($1, $2, $3, $4, $5)
     on conflict (tenant, scope, key) do update set owner = excluded.owner, since = excluded.since,
       memory_id = excluded.memory_id`,
    [c.scope, foldKey(c.key), c.owner, c.since, c.memoryId],
  );
}

export async function dropClaim(q: Q, scope: string, key: string): Promise<void> {
  await run(q, 'delete from memledger.claims where scope = $1 and key = $2', [scope, foldKey(key)]);
}

export async function writeCorrection(q: Q, c: Omit<CorrectionRow, 'reason'>): Promise<void> {
  await run(
    q,
    `insert into memledger.corrections (id, scope, slot, key, kind, agent, action, proposal_id, corrected_id, by, at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
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
    ],
  );
}

/** Erasure (I9): claims and corrections naming an erased memory go with it; they carry its key. */
export async function forgetGoverned(
  q: Q,
  row: { id: string; scope: string; key: string | null },
): Promise<void> {
  await run(q, 'delete from memledger.claims where memory_id = $1', [row.id]);
  if (row.key !== null) await dropClaim(q, row.scope, row.key);
  await run(q, 'delete from memledger.corrections where proposal_id = $1 or corrected_id = $1', [row.id]);
}

/** The newest correction per (agent, scope, slot), newest first, with the reason from its event. */
export async function latestCorrections(q: Q, filter: CorrectionFilter): Promise<CorrectionRow[]> {
  const p = new Params();
  const where: string[] = [];
  const scope = scopeWhere('c.scope', filter.scopes, p);
  if (scope !== null) where.push(scope);
  if (filter.agent !== undefined) where.push(`c.agent = ${p.add(filter.agent)}`);
  where.push(`not exists (select 1 from memledger.corrections n
    where n.agent = c.agent and n.scope = c.scope and n.slot = c.slot and n.seq > c.seq)`);
  const rows = await run<CorrectionDbRow>(
    q,
    `select c.id, c.scope, c.key, c.kind, c.agent, c.action, c.proposal_id, c.corrected_id, c.by, c.at, e.reason
     from memledger.corrections c join memledger.events e on e.id = c.id
     where ${where.join(' and ')} order by c.seq desc limit ${p.add(filter.limit)}`,
    p.values,
  );
  return rows.map((r) => ({
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

export async function readShown(q: Q, principal: string, sessionId: string): Promise<Set<string>> {
  const rows = await run<{ memory_id: string }>(
    q,
    'select memory_id from memledger.context_shown where principal = $1 and session_id = $2',
    [principal, sessionId],
  );
  return new Set(rows.map((r) => r.memory_id));
}

export async function writeShown(
  q: Q,
  principal: string,
  sessionId: string,
  ids: string[],
  at: string,
): Promise<void> {
  if (ids.length === 0) return;
  await run(
    q,
    `insert into memledger.context_shown (principal, session_id, memory_id, at)
     select $1, $2, unnest($3::text[]), $4 on conflict do nothing`,
    [principal, sessionId, ids, at],
  );
}
