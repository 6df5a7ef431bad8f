/**
 * The context block's commitments pool: live commitments (open or doing) the caller may read, due and
 * triggered ones first (triggered: the task's text matches a semantic trigger), then the rest soonest due
 * first. Done and cancelled ones never appear. A `commitment` memory written without a lifecycle (a plain
 * remember) counts as open while its valid time holds, as it did before commitments had one.
 */
import { LIVE_STATUSES, planOf } from '../../model/commitment.ts';
import type { Memory } from '../../model/memory.ts';
import type { CommitmentRow } from '../../store/commitments-port.ts';
import type { Candidate, PoolInput } from '../context/pools.ts';
import type { Deps } from '../deps.ts';
import { list } from '../read.ts';
import { readableScopes } from '../scopes.ts';
import { hasSecret, maskProvenance } from '../visibility.ts';
import { inFilter, readFilter } from '../../policy/access.ts';
import { triggerMatch } from './triggers.ts';

const LISTED = 100;

export async function commitmentPool(deps: Deps, input: PoolInput): Promise<Candidate[]> {
  const [records, plain] = await Promise.all([
    deps.store.commitments.list({
      scopes: readableScopes(deps.principal, input.scopes),
      statuses: LIVE_STATUSES,
      limit: LISTED,
    }),
    // Active versions only: a superseded one still valid now is believed (I12) but never shown (the egress check
    // wants `active`), so reading it only spent one of the slots; and `active` lets the store walk each scope's
    // index of current memories instead of scanning the log, newest first, until a hundred pass.
    list(deps, {
      scopes: input.scopes,
      kinds: ['commitment'],
      states: ['active'],
      validAt: input.now,
      limit: LISTED,
    }),
  ]);
  // The same grants and secret check as list applies to `plain` (I4, I10); context checks both again at egress.
  const filter = readFilter(deps.principal, input.scopes);
  const rows = new Map(records.map((r) => [r.memory.id, r.commitment]));
  const withRows = await deps.store.commitments.forMemories(plain.map((m) => m.id));
  for (const r of withRows) if (!rows.has(r.memoryId)) rows.set(r.memoryId, r);
  const ranked: { memory: Memory; row: CommitmentRow | null; rank: number; why: string; due: string }[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    if (!inFilter(filter, r.memory.scope) || hasSecret(r.memory)) continue;
    seen.add(r.memory.id);
    ranked.push(rank(maskProvenance(r.memory), r.commitment, input));
  }
  for (const memory of plain) {
    if (seen.has(memory.id)) continue;
    const row = rows.get(memory.id) ?? null;
    // A lifecycle row that is done or cancelled keeps its memory out, whatever its valid time says.
    if (row !== null) continue;
    ranked.push(rank(memory, null, input));
  }
  // Due times are canonical ISO (model/time.ts), which sort as text, and '\uffff' (none) sorts after them both
  // ways: compared by code unit, not localeCompare, whose first call in a process loads ICU's collator (~6 ms of
  // CPU, a tenth of a session hook's context).
  return ranked
    .sort((a, b) => a.rank - b.rank || (a.due < b.due ? -1 : a.due > b.due ? 1 : 0))
    .map(({ memory, why }) => ({ memory, pool: 'commitments' as const, why }));
}

/** 0: due (its due time or time trigger has come) or triggered by the task; 1: the rest. */
function rank(memory: Memory, row: CommitmentRow | null, input: PoolInput) {
  const dueAt = row?.dueAt ?? memory.validTo;
  const day = (t: string) => t.slice(0, 10);
  const reasons: string[] = [];
  if (row !== null && row.dueAt !== null && row.dueAt <= input.now) reasons.push(`due ${day(row.dueAt)}`);
  if (row !== null && row.remindAt !== null && row.remindAt <= input.now) {
    reasons.push(`reminder ${day(row.remindAt)}`);
  }
  const matched = input.query === null ? null : triggerMatch(planOf(memory).triggers, { text: input.query });
  if (matched !== null) reasons.push(`triggered by the task: ${matched}`);
  const status = row === null ? 'open' : row.status;
  const why =
    reasons.length > 0
      ? `${status} commitment, ${reasons.join('; ')}`
      : dueAt === null
        ? `${status} commitment`
        : `${status} commitment, due ${day(dueAt)}`;
  return { memory, row, rank: reasons.length > 0 ? 0 : 1, why, due: dueAt ?? '\uffff' };
}
