/**
 * The part of the Store port that commitments and summary chains need: a commitment's lifecycle row beside its
 * memory, and the links of a summary chain. Writes go through the memory transaction (`StoreTx.commitments`),
 * so a commitment's row, its memory and its events commit together; reads through `Store.commitments`.
 */
import type { CommitmentStatus } from '../model/commitment.ts';
import type { Memory } from '../model/memory.ts';
import type { ScopeSet } from './port.ts';

/** A commitment's lifecycle: a projection of its status events, kept in the transaction that appends each. */
export interface CommitmentRow {
  memoryId: string;
  scope: string;
  /** The principal who is to do it (`agent:claude-code`, `human:alice`). */
  owner: string;
  status: CommitmentStatus;
  dueAt: string | null;
  /** A one-off time trigger. */
  remindAt: string | null;
  /** Whether the commitment carries a cron schedule (in its memory's value). */
  scheduled: boolean;
  /** Whether it carries a semantic trigger (words, subjects or keys, in its memory's value). */
  semantic: boolean;
  createdAt: string;
  statusAt: string;
  statusBy: string;
  completedAt: string | null;
}

export interface CommitmentStatusChange {
  status: CommitmentStatus;
  statusAt: string;
  statusBy: string;
  completedAt: string | null;
}

export interface CommitmentFilter {
  scopes: ScopeSet;
  statuses?: readonly CommitmentStatus[];
  /** Only rows with a due time at or before this instant. */
  dueBefore?: string;
  owner?: string;
  /** Only rows carrying a schedule or a semantic trigger (what `dueIn` and `triggeredBy` scan). */
  with?: 'scheduled' | 'semantic';
  limit: number;
}

/** A commitment and the memory that is it, for rows whose memory the filter's states allow. */
export interface CommitmentRecord {
  commitment: CommitmentRow;
  memory: Memory;
}

export interface SummaryChainRow {
  name: string;
  scope: string;
  sessionId: string | null;
  /** The subject followed; null once erased (then `sourceErasedAt` is set). */
  subject: string | null;
  owner: string | null;
  createdBy: string;
  createdAt: string;
  sourceErasedAt: string | null;
}

/** One link of a chain: a summary memory, the summary before it, and the window it covers. */
export interface SummaryLinkRow {
  memoryId: string;
  chain: string;
  previous: string | null;
  /** Exclusive lower bound: the previous link's cutoff (null for the first). */
  after: string | null;
  /** Inclusive upper bound on the recorded time of what it covers. */
  cutoff: string;
  /** The source memories it covers. */
  covers: string[];
  createdAt: string;
  staleAt: string | null;
}

/** Where a chain's next window reads from: a scope, narrowed to a session or a subject. */
export interface SourceWindow {
  scope: string;
  sessionId: string | null;
  subject: string | null;
  /** Exclusive lower bound on recorded time; null reads from the start. */
  after: string | null;
  /** Inclusive upper bound on recorded time, if any. */
  until?: string;
  limit: number;
}

/** Writes, in the memory transaction. Unique rules (one next link, one cutoff per chain) throw `conflict`. */
export interface CommitmentTx {
  insertCommitment(row: CommitmentRow): Promise<void>;
  commitment(memoryId: string): Promise<CommitmentRow | null>;
  setStatus(memoryId: string, change: CommitmentStatusChange): Promise<void>;
  insertChain(row: SummaryChainRow): Promise<void>;
  chain(name: string): Promise<SummaryChainRow | null>;
  /** The chain's links, oldest first, with their memories' states. */
  links(chain: string): Promise<(SummaryLinkRow & { state: Memory['state'] })[]>;
  insertLink(row: SummaryLinkRow): Promise<void>;
  /** Source memories of a window, oldest first (recorded time, then order of append). */
  source(window: SourceWindow): Promise<Memory[]>;
  /** Links covering any of these memories. */
  linksCovering(memoryIds: readonly string[]): Promise<SummaryLinkRow[]>;
  markStale(memoryIds: readonly string[], at: string): Promise<void>;
  /** Forgets the subject a chain follows (erasure, I9): the chain keeps its links, its source is gone. */
  eraseChainSubject(subject: string, at: string): Promise<void>;
}

/** Reads, outside a write. */
export interface CommitmentReads {
  /** Commitments whose memory is active or held, soonest due first, then newest. */
  list(filter: CommitmentFilter): Promise<CommitmentRecord[]>;
  /** Rows of these memories, where they are commitments. */
  forMemories(memoryIds: readonly string[]): Promise<CommitmentRow[]>;
  /** Rows whose due time or time trigger falls in (from, to], in the scopes, live statuses only. */
  dueBetween(scopes: ScopeSet, from: string, to: string, limit: number): Promise<CommitmentRow[]>;
  chain(name: string): Promise<SummaryChainRow | null>;
  /** Chains whose scope is in the set, by name. */
  chains(scopes: ScopeSet): Promise<SummaryChainRow[]>;
  links(chain: string): Promise<(SummaryLinkRow & { state: Memory['state'] })[]>;
  source(window: SourceWindow): Promise<Memory[]>;
  /** Links covering any of these memories, and links that are these memories (without `covers`). */
  linksAround(memoryIds: readonly string[]): Promise<{ covering: SummaryLinkRow[]; of: SummaryLinkRow[] }>;
}
