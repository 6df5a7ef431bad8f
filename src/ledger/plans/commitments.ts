/**
 * Commitments: prospective memory. A commitment is a memory of kind `commitment` written through the one write
 * path (guard, grants, rejection check, gate: I18, so an agent's commitment in a shared scope waits for review
 * and a rejected one proposed again lands rejected, I5), with its plan (owner, due, triggers) as the memory's
 * value and its lifecycle (open → doing → done | cancelled) as a row beside it, changed only together with a
 * `status-changed` event that says who and when (migration 11 says why this and not a supersede per move).
 */
import {
  type AddCommitmentInput,
  addCommitmentSchema,
  type CommitmentPlan,
  type CommitmentStatus,
  type ListCommitmentsInput,
  LIVE_STATUSES,
  listCommitmentsSchema,
  planOf,
  type Triggers,
  type UpdateCommitmentInput,
  updateCommitmentSchema,
} from '../../model/commitment.ts';
import { MemoryError } from '../../model/errors.ts';
import type { Memory, State, WriteResult } from '../../model/memory.ts';
import { principalLabel } from '../../model/principal.ts';
import { assertCan, inFilter, readFilter } from '../../policy/access.ts';
import type { CommitmentRecord, CommitmentRow } from '../../store/commitments-port.ts';
import type { StoreTx } from '../../store/port.ts';
import { type Deps, recordEvent } from '../deps.ts';
import { parseInput } from '../parse.ts';
import { prepareWrite, writeInTx } from '../remember.ts';
import { readableScopes } from '../scopes.ts';
import { hasSecret, maskProvenance, visibleOr404 } from '../visibility.ts';
import { checkTimeZone, parseCron } from '../../model/cron.ts';

/** A commitment as every surface shows it. */
export interface Commitment {
  id: string;
  scope: string;
  body: string;
  owner: string;
  status: CommitmentStatus;
  due: string | null;
  triggers: Triggers;
  /** The memory's state: a commitment waiting for review is `held` until a reviewer approves it. */
  state: State;
  createdAt: string;
  statusAt: string;
  statusBy: string;
  completedAt: string | null;
}

/** What adding one returns: the write's result (held, rejected and why) and, unless rejected, the commitment. */
export interface AddCommitmentResult extends WriteResult {
  commitment: Commitment | null;
}

/** One step of a commitment's lifecycle. */
export interface StatusChange {
  from: CommitmentStatus;
  to: CommitmentStatus;
  by: string;
  at: string;
}

/** Moves a commitment may make; done and cancelled are final. */
const MOVES: Record<CommitmentStatus, readonly CommitmentStatus[]> = {
  open: ['doing', 'done', 'cancelled'],
  doing: ['open', 'done', 'cancelled'],
  done: [],
  cancelled: [],
};

/**
 * @example
 * await session.commitments.add({ body: 'Send Acme the renewal quote', scope: 'shared', due: '2026-12-05',
 *   triggers: { words: ['acme renewal'] } });
 */
export async function addCommitment(deps: Deps, input: AddCommitmentInput): Promise<AddCommitmentResult> {
  const f = parseInput(addCommitmentSchema, input, 'commitment');
  const triggers = f.triggers ?? {};
  if (triggers.schedule !== undefined) {
    parseCron(triggers.schedule.cron);
    checkTimeZone(triggers.schedule.tz);
  }
  const plan: CommitmentPlan = {
    owner: f.owner ?? principalLabel(deps.principal),
    due: f.due ?? null,
    triggers,
  };
  const fields = prepareWrite(
    deps,
    { body: f.body, scope: f.scope, kind: 'commitment', subjects: f.subjects, value: plan },
    'commitment',
  );
  return deps.store.transaction(async (tx) => {
    const result = await writeInTx(deps, tx, fields);
    if (result.state !== 'active' && result.state !== 'held') return { ...result, commitment: null };
    let row = await tx.commitments.commitment(result.id);
    if (row === null) {
      // A new commitment, or the same claim live already without a lifecycle yet (written as a plain memory).
      const at = deps.now();
      row = {
        memoryId: result.id,
        scope: f.scope,
        owner: plan.owner,
        status: 'open',
        dueAt: plan.due,
        remindAt: triggers.at ?? null,
        scheduled: triggers.schedule !== undefined,
        semantic: hasSemantic(triggers),
        createdAt: at,
        statusAt: at,
        statusBy: principalLabel(deps.principal),
        completedAt: null,
      };
      await tx.commitments.insertCommitment(row);
    }
    const memory = await tx.getMemory(result.id);
    return { ...result, commitment: memory === null ? null : view(row, memory) };
  });
}

/**
 * Moves a commitment: its owner, or a human, may move it; an agent moves only its own, so only a human
 * cancels someone else's (I7's spirit: an agent does not close another's work). One event per move.
 */
export async function updateCommitment(
  deps: Deps,
  input: UpdateCommitmentInput,
): Promise<{ commitment: Commitment; change: StatusChange | null }> {
  const f = parseInput(updateCommitmentSchema, input, 'commitment update');
  readFilter(deps.principal);
  return deps.store.transaction(async (tx) => {
    const memory = visibleOr404(deps.principal, await tx.getMemory(f.id), f.id);
    const row = memory.kind === 'commitment' ? await tx.commitments.commitment(f.id) : null;
    if (row === null) throw new MemoryError('not_found', `no commitment ${f.id}`);
    if (memory.state !== 'active') {
      throw new MemoryError('conflict', `commitment ${f.id} is ${memory.state}; only an active one moves`, {
        details: { state: memory.state },
      });
    }
    assertCan(deps.principal, 'write', memory.scope);
    const me = principalLabel(deps.principal);
    if (deps.principal.kind !== 'human' && row.owner !== me) {
      throw new MemoryError(
        'permission',
        `${me} may move only its own commitments; ${f.id} is ${row.owner}'s`,
      );
    }
    if (row.status === f.status) return { commitment: view(row, memory), change: null };
    if (!MOVES[row.status].includes(f.status)) {
      throw new MemoryError(
        'conflict',
        `commitment ${f.id} is ${row.status}; it cannot move to ${f.status}`,
        {
          details: { status: row.status },
        },
      );
    }
    const at = deps.now();
    const next: CommitmentRow = {
      ...row,
      status: f.status,
      statusAt: at,
      statusBy: me,
      completedAt: f.status === 'done' ? at : null,
    };
    await tx.commitments.setStatus(f.id, next);
    await recordEvent(deps, tx, 'status-changed', f.id, null, { detail: { from: row.status, to: f.status } });
    return { commitment: view(next, memory), change: { from: row.status, to: f.status, by: me, at } };
  });
}

/**
 * A reviewer approved a held commitment with edits: the edited version (a new memory) is the commitment now,
 * so it gets the proposal's lifecycle, with the due time and triggers its own value states.
 */
export async function carryLifecycle(
  deps: Deps,
  tx: StoreTx,
  proposalId: string,
  edited: { id: string; value: unknown },
): Promise<void> {
  const row = await tx.commitments.commitment(proposalId);
  if (row === null) return;
  const plan = planOf({ value: edited.value } as Memory);
  const t = plan.triggers;
  const at = deps.now();
  await tx.commitments.insertCommitment({
    ...row,
    memoryId: edited.id,
    owner: plan.owner === '' ? row.owner : plan.owner,
    dueAt: plan.due,
    remindAt: t.at ?? null,
    scheduled: t.schedule !== undefined,
    semantic: hasSemantic(t),
    createdAt: at,
  });
}

/** Commitments the caller may read, soonest due first, then newest; active memories only (held ones are in review). */
export async function listCommitments(deps: Deps, input: ListCommitmentsInput = {}): Promise<Commitment[]> {
  const f = parseInput(listCommitmentsSchema, input, 'commitment list');
  const filter = readFilter(deps.principal, f.scopes);
  const records = await deps.store.commitments.list({
    scopes: readableScopes(deps.principal, f.scopes),
    statuses: f.statuses,
    dueBefore: f.dueBefore,
    owner: f.owner,
    limit: f.limit,
  });
  const out = visible(records, filter);
  for (const c of out) deps.trace.targets.add(c.id);
  return out;
}

/** One commitment with its lifecycle's events, oldest first. */
export async function getCommitment(
  deps: Deps,
  id: string,
): Promise<{ commitment: Commitment; changes: StatusChange[] }> {
  readFilter(deps.principal);
  const memory = visibleOr404(deps.principal, await deps.store.getMemory(id), id);
  const [row] = memory.kind === 'commitment' ? await deps.store.commitments.forMemories([id]) : [];
  if (row === undefined) throw new MemoryError('not_found', `no commitment ${id}`);
  deps.trace.targets.add(id);
  const events = await deps.store.eventsFor([id]);
  const changes = events
    .filter((e) => e.type === 'status-changed')
    .map((e) => ({
      from: e.detail.from as CommitmentStatus,
      to: e.detail.to as CommitmentStatus,
      by: e.actor,
      at: e.at,
    }));
  return { commitment: view(row, maskProvenance(memory)), changes };
}

/** The records a reader may see: in its filter, no secret (I4, I10). */
export function visible(records: CommitmentRecord[], filter: ReturnType<typeof readFilter>): Commitment[] {
  const out: Commitment[] = [];
  for (const r of records) {
    if (!inFilter(filter, r.memory.scope) || hasSecret(r.memory)) continue;
    out.push(view(r.commitment, maskProvenance(r.memory)));
  }
  return out;
}

export function view(row: CommitmentRow, memory: Memory): Commitment {
  return {
    id: memory.id,
    scope: memory.scope,
    body: memory.body,
    owner: row.owner,
    status: row.status,
    due: row.dueAt,
    triggers: planOf(memory).triggers,
    state: memory.state,
    createdAt: row.createdAt,
    statusAt: row.statusAt,
    statusBy: row.statusBy,
    completedAt: row.completedAt,
  };
}

export const isLive = (status: CommitmentStatus): boolean => LIVE_STATUSES.includes(status);

const hasSemantic = (t: Triggers): boolean =>
  (t.words?.length ?? 0) + (t.subjects?.length ?? 0) + (t.keys?.length ?? 0) > 0;
