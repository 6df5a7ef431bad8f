/**
 * The commitment and summary-chain rows both backends read (migration 11 on SQLite, 4 on Postgres): their
 * columns, their mapping to the port's rows, and the conflict a chain link's unique rule raises.
 */
import type { CommitmentStatus } from '../model/commitment.ts';
import { MemoryError } from '../model/errors.ts';
import type { Memory } from '../model/memory.ts';
import type { CommitmentRow, SummaryChainRow, SummaryLinkRow } from './commitments-port.ts';

export interface CommitmentDbRow {
  memory_id: string;
  scope: string;
  owner: string;
  status: string;
  due_at: string | null;
  remind_at: string | null;
  scheduled: number | boolean;
  semantic: number | boolean;
  created_at: string;
  status_at: string;
  status_by: string;
  completed_at: string | null;
}
export const COMMITMENT_COLUMNS =
  'c.memory_id, c.scope, c.owner, c.status, c.due_at, c.remind_at, c.scheduled, c.semantic, c.created_at, c.status_at, c.status_by, c.completed_at';
/** The same columns renamed, for a join with memories (whose names overlap). */
export const JOINED_COLUMNS = COMMITMENT_COLUMNS.split(', ')
  .map((c) => `${c} AS c_${c.slice(2)}`)
  .join(', ');

export const toCommitment = (r: CommitmentDbRow): CommitmentRow => ({
  memoryId: r.memory_id,
  scope: r.scope,
  owner: r.owner,
  status: r.status as CommitmentStatus,
  dueAt: r.due_at,
  remindAt: r.remind_at,
  scheduled: Boolean(r.scheduled),
  semantic: Boolean(r.semantic),
  createdAt: r.created_at,
  statusAt: r.status_at,
  statusBy: r.status_by,
  completedAt: r.completed_at,
});

/** A joined row's commitment half (columns prefixed `c_`). */
export function joinedCommitment(row: Record<string, unknown>): CommitmentRow {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) if (k.startsWith('c_')) out[k.slice(2)] = v;
  return toCommitment(out as unknown as CommitmentDbRow);
}

export interface ChainDbRow {
  name: string;
  scope: string;
  session_id: string | null;
  subject: string | null;
  owner: string | null;
  created_by: string;
  created_at: string;
  source_erased_at: string | null;
}
export const toChain = (r: ChainDbRow): SummaryChainRow => ({
  name: r.name,
  scope: r.scope,
  sessionId: r.session_id,
  subject: r.subject,
  owner: r.owner,
  createdBy: r.created_by,
  createdAt: r.created_at,
  sourceErasedAt: r.source_erased_at,
});

export interface LinkDbRow {
  memory_id: string;
  chain: string;
  previous: string | null;
  after: string | null;
  cutoff: string;
  created_at: string;
  stale_at: string | null;
  state: string;
  covers: string | null;
}
export const toLink = (r: LinkDbRow): SummaryLinkRow & { state: Memory['state'] } => ({
  memoryId: r.memory_id,
  chain: r.chain,
  previous: r.previous,
  after: r.after,
  cutoff: r.cutoff,
  covers: r.covers === null ? [] : (JSON.parse(r.covers) as string[]),
  createdAt: r.created_at,
  staleAt: r.stale_at,
  state: r.state as Memory['state'],
});

/** Which unique rule a chain insert broke, in words: ids and the chain's name only, never content. */
export function linkConflict(link: SummaryLinkRow, rule: 'next' | 'first' | 'cutoff'): MemoryError {
  const message =
    rule === 'next'
      ? `summary ${link.previous} already has a next summary in chain ${link.chain}`
      : rule === 'first'
        ? `chain ${link.chain} already has a first summary`
        : `chain ${link.chain} already has a summary with cutoff ${link.cutoff}`;
  return new MemoryError('conflict', message, { details: { chain: link.chain, rule } });
}
