/**
 * The Store port: the smallest set of operations the ledger needs. A backend keeps the log, its projections
 * (state, current-by-key, subjects) and its search index consistent inside `transaction`; the ledger decides
 * what to write. Every backend runs the same conformance suite (test/conformance).
 */
import type { MemoryEvent } from '../model/event.ts';
import type { Kind, Memory, State, Trust } from '../model/memory.ts';
import type { CommitmentReads, CommitmentTx } from './commitments-port.ts';
import type { BehaviorStore, BehaviorTx } from './behaviors-port.ts';
import type { FeedStore, SourceItem } from './feeds-port.ts';
import type { WorkspaceSnapshotStore } from './workspaces-port.ts';
import type { McpSessionStore } from './mcp-sessions-port.ts';
import type { NotifyEvent, NotifyStore } from './notify-port.ts';
import type { NeighbourStore } from './neighbours-port.ts';
import type { VectorStore } from './vectors-port.ts';

/**
 * How hard a backend makes an acknowledged write stick: `normal` survives a killed process (I13), `full` also
 * survives power loss (SQLite: an fsync per commit). A backend that is always `full` (Postgres) ignores it.
 */
export type Durability = 'normal' | 'full';

/** A row to append. Lifecycle fields start as given (import carries them all); later changes go through `setLifecycle`. */
export type NewMemory = Omit<
  Memory,
  'supersededBy' | 'activeUntil' | 'confirmedBy' | 'validStart' | 'validEnd'
> &
  Partial<Pick<Memory, 'supersededBy' | 'activeUntil' | 'confirmedBy' | 'validStart' | 'validEnd'>> & {
    /** A restored tombstone's erasure time; erasure itself goes through `erase`. */
    erasedAt?: string;
  };

export interface LifecycleChange {
  state?: State;
  trust?: Trust;
  supersededBy?: string | null;
  activeFrom?: string | null;
  activeUntil?: string | null;
  confirmedBy?: string | null;
  /** The end of valid time as the versions imply it: set when a successor's `validFrom` closes it (I12). */
  validEnd?: string | null;
}

/** A rejection (I5): keyed on one identity of the rejected claim in its scope. A lifted one no longer stands. */
export interface Rejection {
  scope: string;
  /** A text or value identity (src/guard/fingerprint.ts). */
  fingerprint: string;
  memoryId: string;
  reason: string;
  by: string;
  at: string;
  /** Set when a reviewer lifted it on purpose (`review unreject`). */
  lifted: RejectionLift | null;
}

export interface RejectionLift {
  at: string;
  by: string;
  reason: string;
}

/** The secret that keys hashes kept beside data that erasure may remove (audit argument hashes, I9). */
export interface HashKey {
  id: string;
  key: Uint8Array;
}

/** Scopes a read may touch: every scope, or exact scopes plus `kind:*` prefixes. */
export type ScopeSet = { all: true } | { all: false; exact: string[]; prefixes: string[] };

export interface SearchPlan {
  /** FTS MATCH expression built by guard/fts-query (already quoted). */
  match: string;
  /** The query's words, as guard/fts-query reduced them: what the backend weighs one by one. */
  terms: string[];
  /** One MATCH expression per word of `terms`, each quoted by guard/fts-query. */
  phrases: string[];
  scopes: ScopeSet;
  kinds?: Kind[];
  subject?: string;
  key?: string;
  /** Read the log as it stood at this recorded time instead of current state (I12). */
  asOf?: string;
  /** Only memories whose valid time contains this instant (I12). */
  validAt?: string;
  /**
   * How many candidates to return, best text match first. Which rows those are, and their scores, must depend
   * only on rows in `scopes` (I4): a word written into a scope the caller cannot read changes nothing.
   */
  candidates: number;
}

/**
 * The part of a memory that ranking and the scope and body checks read. A search ranks every candidate but
 * returns only a few, so the rest of each row (value, provenance, lifecycle) is read for those few alone.
 */
export type SearchFields = Pick<
  Memory,
  'id' | 'scope' | 'key' | 'body' | 'subjects' | 'trust' | 'confidence' | 'activeFrom' | 'recordedAt'
>;

export interface SearchCandidate {
  memory: SearchFields;
  /** bm25 with FTS5's sign: lower (more negative) is better; computed from statistics of the plan's scopes. */
  bm25: number;
}

export interface ListFilter {
  scopes: ScopeSet;
  states?: State[];
  kinds?: Kind[];
  subject?: string;
  key?: string;
  asOf?: string;
  validAt?: string;
  limit: number;
  /** Memories recorded before this id (for paging newest first). */
  before?: string;
}

/** What an erasure removed and who did it. The selector's value (a subject, a principal) is never kept (I9). */
export interface ErasureRecord {
  id: string;
  /** What chose the memories: `subject`, `principal`, `session` or `source`. */
  selector: string;
  memoryIds: string[];
  by: string;
  at: string;
}

export interface StoreStats {
  memories: number;
  byState: Record<string, number>;
  scopes: number;
  events: number;
  rejections: number;
  erasures: number;
  files: Record<string, number>;
}

/** A human's claim on a key (I6): agent writes to it wait for review or are denied. */
export interface Claim {
  scope: string;
  key: string;
  owner: string;
  since: string;
  /** The memory whose `claimed` event made the claim: the key's holder at the time. */
  memoryId: string;
}

/** A reviewer's edit or rejection of a non-human write, as the correction feed keeps it. */
export interface CorrectionRow {
  /** The `corrected` event's id. */
  id: string;
  scope: string;
  key: string | null;
  kind: Kind;
  /** The principal whose write was corrected, e.g. `agent:claude-code`. */
  agent: string;
  action: 'edited' | 'rejected';
  proposalId: string;
  /** The reviewer's edited version (an edit); null for a rejection. */
  correctedId: string | null;
  /** The rejection's reason or the review note (free text, blanked by erasure). */
  reason: string | null;
  by: string;
  at: string;
}

export interface CorrectionFilter {
  scopes: ScopeSet;
  /** Only corrections of this principal's writes; every principal's when absent. */
  agent?: string;
  limit: number;
}

/**
 * Thrown out of a transaction whose batch must be run again line by line, each in a savepoint: by the import
 * when a line failed after writing, or by a store that sent a batch's writes ahead (after `preload`) when one
 * was refused. The replay's answers are the ones that count.
 */
export class ReplayLineByLine extends Error {}

export interface StoreTx {
  /** Commitments' lifecycle rows and summary chain links, in this transaction (commitments-port.ts). */
  readonly commitments: CommitmentTx;
  getMemory(id: string): Promise<Memory | null>;
  /**
   * Optional: a batch's lookups made ahead in one go (the ids it will ask `getMemory` for, the scopes it will
   * ask `findRejection` about), so a backend a network away answers them without a round trip each. Answers
   * stay exact: a backend caches only what its own writes in the transaction keep true. Outside a savepoint, a
   * backend may then also send the batch's inserts without waiting, and throws ReplayLineByLine before COMMIT
   * if one was refused.
   */
  preload?(hint: {
    ids: readonly string[];
    scopes: readonly string[];
    eventIds?: readonly string[];
    /** The (scope, key) pairs it will ask `currentHolder` about. */
    keys?: readonly { scope: string; key: string }[];
  }): Promise<void>;
  /**
   * Optional: writes what a batch holds back after `preload`, so the sub-ports (`commitments`, `behaviors`),
   * which cannot wait for it, read and write after it. A failure to write it is thrown here.
   */
  settle?(): Promise<void>;
  claimFor(scope: string, key: string): Promise<Claim | null>;
  /** Creates or replaces the claim on (scope, key). */
  setClaim(claim: Claim): Promise<void>;
  dropClaim(scope: string, key: string): Promise<void>;
  /** Adds the correction feed's row for a `corrected` event appended in this transaction. */
  insertCorrection(correction: Omit<CorrectionRow, 'reason'>): Promise<void>;
  /** Notes which items context showed a principal's session. */
  recordShown(principal: string, sessionId: string, ids: string[], at: string): Promise<void>;
  /** The active memory holding a key; keys compare case-insensitively. */
  currentHolder(scope: string, key: string): Promise<Memory | null>;
  /** The oldest standing (unlifted) rejection in the scope keyed on any of these identities. */
  findRejection(scope: string, fingerprints: readonly string[]): Promise<Rejection | null>;
  /** Lifts every standing rejection in the scope keyed on these identities; returns what it lifted. */
  liftRejections(scope: string, fingerprints: readonly string[], lift: RejectionLift): Promise<Rejection[]>;
  /** Live memories (active first, then held, oldest first) whose text identity is this one in the scope. */
  liveClaims(scope: string, fingerprint: string): Promise<Memory[]>;
  /** The memory a source item produced in this scope when a feed read it before, or null. */
  sourceItem(connector: string, scope: string, itemId: string): Promise<string | null>;
  /** Records a source item and its memory; an item recorded already is a `conflict`, never a second row. */
  insertSourceItem(item: SourceItem): Promise<void>;
  /** Appends a memory row and its projections. Throws `conflict` when a unique rule (I2, one holder per key) refuses it. */
  insertMemory(memory: NewMemory): Promise<void>;
  setLifecycle(id: string, change: LifecycleChange): Promise<void>;
  insertEvent(event: MemoryEvent): Promise<void>;
  hasEvent(id: string): Promise<boolean>;
  /** Every event on one memory, in the order they were appended. */
  eventsOf(memoryId: string): Promise<MemoryEvent[]>;
  /** Every rejection recorded on a memory, standing or lifted, oldest first. */
  rejectionsOf(memoryId: string): Promise<Rejection[]>;
  /** Records a rejection; one already standing for the same identity and scope is left as it is. */
  insertRejection(rejection: Rejection): Promise<void>;
  /** Every memory linked to `id` by supersede or edit links, in both directions. */
  component(id: string): Promise<Memory[]>;
  memoriesAboutSubject(subject: string): Promise<Memory[]>;
  /** Runs `fn` inside a savepoint: if it throws, only its own writes roll back and the error propagates. */
  savepoint<T>(fn: () => Promise<T>): Promise<T>;
  /** Blanks content of these memories, their events' free text and their index entries; records the tombstone. */
  erase(record: ErasureRecord): Promise<void>;
  /** Records an erasure whose tombstones are already blank (a restore); false if it was recorded already. */
  insertErasure(record: ErasureRecord): Promise<boolean>;
  /** Memories written by a principal (their provenance), for erasure by provenance. */
  memoriesByProvenance(selector: ProvenanceSelector): Promise<Memory[]>;
  /** Replaces the hash key: hashes made with the old one can no longer be tested against a guess (I9). */
  rotateHashKey(at: string): Promise<void>;
  /** Queues a delivery per target subscribed to the event, with this transaction (src/notify); returns how many. */
  enqueueNotification(event: NotifyEvent): Promise<number>;
  /** Behaviors' definitions, runs and links in this transaction (a run's outputs commit with its links). */
  readonly behaviors: BehaviorTx;
}

/** Which writes an erasure by provenance takes: by principal, by session, or by a source prefix. */
export type ProvenanceSelector = { principal: string } | { sessionId: string } | { sourcePrefix: string };

/** An audit record waiting in the store for the audit store (I8): ids, states and counts, never content. */
export interface OutboxRow {
  /** The audit record's id: the audit store keeps one record per id, so a row moved twice is written once. */
  id: string;
  /** The process that wrote it: while that process lives, it moves its own rows. */
  pid: number;
  /** The machine that process runs on (hostname and boot id): a pid means something only there. */
  host: string;
  /** The audit record as JSON, as it stood at this commit. */
  record: string;
}

/** An outbox row as the store hands it back for recovery. */
export interface PendingOutboxRow extends Omit<OutboxRow, 'host'> {
  /** The writer's machine; null where the store lives on one machine (a home): the row is of this machine. */
  host: string | null;
  /** Milliseconds since the row was last written, by the store's own clock; null where it keeps no time. */
  ageMs: number | null;
}

export interface TransactionOptions {
  /**
   * The calling operation's audit record as of this commit, asked for just before COMMIT and written in the same
   * transaction, so no committed change is ever without its record (I8). A call that commits several times
   * replaces its row each time: the last committed state wins.
   */
  outbox?: () => OutboxRow;
}

/** The outbox's own upkeep: what a killed process left behind, and rows the audit store now holds. */
export interface AuditOutbox {
  /**
   * Every row waiting, oldest first. Synchronous: it is read while a ledger opens, which is synchronous, so no
   * work trails the open (a row being deleted by a transaction in flight may show; moving it again is harmless).
   */
  pending(): PendingOutboxRow[];
  /**
   * Reads the rows waiting again, before a long-running process's periodic recovery (`Ledger.recoverOutbox`);
   * a store whose `pending()` reads them live has nothing to do.
   */
  reload(): Promise<void>;
  /** The audit store holds these: they are deleted with the next transaction's commit (or at close), never by one of their own. */
  flushed(ids: readonly string[]): void;
}

/** Notice that another process changed the store's memories, where the backend can give it. */
export interface ChangeFeed {
  /** Starts listening (once per store); resolves when every change from then on is counted. Never rejects. */
  start(): Promise<void>;
  /** How many committed memory transactions of the store (by any process) were announced since `start`. */
  readonly seen: number;
  /** Resolves once more than `after` changes were announced, or after `ms`. */
  wait(after: number, ms: number): Promise<void>;
}

export interface Store {
  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /** Optional: lines per transaction of a restore (import's default: 1,000, also every ingest's). */
  readonly restoreBatch?: number;
  readonly auditOutbox: AuditOutbox;
  getMemory(id: string): Promise<Memory | null>;
  /** Several memories by id in one call, in the order asked; null where there is none. */
  getMemories(ids: readonly string[]): Promise<(Memory | null)[]>;
  claimFor(scope: string, key: string): Promise<Claim | null>;
  /** The newest correction per (agent, scope, key or kind) in the scope set, newest first. */
  latestCorrections(filter: CorrectionFilter): Promise<CorrectionRow[]>;
  /** Ids context already showed this principal's session. */
  shownIn(principal: string, sessionId: string): Promise<Set<string>>;
  component(id: string): Promise<Memory[]>;
  eventsFor(ids: string[]): Promise<MemoryEvent[]>;
  search(plan: SearchPlan): Promise<SearchCandidate[]>;
  list(filter: ListFilter): Promise<Memory[]>;
  /** Every memory (all states) in the scope set, oldest first, for export. */
  iterateAll(scopes: ScopeSet): AsyncIterable<Memory>;
  /** Every rejection recorded on a memory, standing or lifted, oldest first. */
  rejectionsOf(memoryId: string): Promise<Rejection[]>;
  /** Every claim on a key in the scope set (export). */
  claims(scopes: ScopeSet): Promise<Claim[]>;
  /** Every erasure record, oldest first (export); a record names ids, never content. */
  erasures(): Promise<ErasureRecord[]>;
  /** The current hash key. */
  hashKey(): Promise<HashKey>;
  /** Feed definitions and checkpoints (src/feeds). */
  readonly feeds: FeedStore;
  /** MCP sessions over Streamable HTTP (src/surfaces/http/mcp-endpoint.ts). */
  readonly mcpSessions: McpSessionStore;
  /** Notification targets, their delivery queue and log (src/notify). */
  readonly notify: NotifyStore;
  /** The turns before and after a memory in its session (src/ledger/neighbours.ts). */
  readonly neighbours: NeighbourStore;
  /** Commitments and summary chains, read outside a write (commitments-port.ts). */
  readonly commitments: CommitmentReads;
  /** Agent workspace snapshots (src/workspace/snapshots.ts). */
  readonly workspaces: WorkspaceSnapshotStore;
  /** Behaviors' definitions and runs, read outside a transaction; fired windows (src/behaviors). */
  readonly behaviors: BehaviorStore;
  /** Vectors per memory and embedder model, and the embedding queue (src/embed). */
  readonly vectors: VectorStore;
  /** Where other processes' writes are announced (Postgres: LISTEN/NOTIFY); absent where watchers poll (a home). */
  readonly changes?: ChangeFeed;
  /** After erasure: purge index tokens, free pages and the write-ahead log so no byte of the content remains (I9). */
  compactAfterErasure(): Promise<{ checkpointed: boolean }>;
  /** Rebuilds the search index from the log, in one transaction (carrying the call's outbox row). */
  reindex(options?: TransactionOptions): Promise<{ indexed: number }>;
  stats(): Promise<StoreStats>;
  close(): void;
}
