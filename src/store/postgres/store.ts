/**
 * The Store on PostgreSQL: one tenant of one database, through a postgres.js pool. Every call is a transaction
 * bound to the tenant (RLS sees only its rows); writes take the tenant's write lock, so two replicas writing one
 * tenant serialise exactly as two processes on one SQLite home do, and the unique indexes stand behind it (I2).
 */
import { MemoryError } from '../../model/errors.ts';
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
import type { FeedStore } from '../feeds-port.ts';
import type { McpSessionStore } from '../mcp-sessions-port.ts';
import type {
  Claim,
  CorrectionFilter,
  CorrectionRow,
  ErasureRecord,
  HashKey,
  ListFilter,
  Rejection,
  ScopeSet,
  SearchCandidate,
  SearchPlan,
  Store,
  StoreStats,
  StoreTx,
  TransactionOptions,
} from '../port.ts';
import { inTenantWrite, readEach } from './at-once.ts';
import { inTenant, inTenantPipelined, pgError, type Sql } from './database.ts';
import { PostgresFeedStore } from './feeds.ts';
import { PostgresCommitmentReads } from './commitments.ts';
import { latestCorrections, readClaim, readShown } from './governance.ts';
import { PostgresMcpSessionStore } from './mcp-sessions.ts';
import type { NotifyStore } from '../notify-port.ts';
import { PostgresNotifyStore } from './notify.ts';
import { PostgresNeighbourStore } from './neighbours.ts';
import type { WorkspaceSnapshotStore } from '../workspaces-port.ts';
import { PostgresWorkspaceStore } from './workspaces.ts';
import type { BehaviorStore } from '../behaviors-port.ts';
import { PostgresBehaviorStore } from './behaviors.ts';
import type { VectorStore } from '../vectors-port.ts';
import { PostgresVectorStore } from './vectors.ts';
import { CHANGES_CHANNEL, PostgresChanges } from './changes.ts';
import { PostgresAuditOutbox } from './outbox.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { indexOf, insertDoc, removeAllDocs } from './scope-stats.ts';
import { CANDIDATE_CAP, scopedCandidates } from './scoped-search.ts';
import { listMemories, scopeWhere } from './search.ts';
import {
  type EventRow,
  one,
  Params,
  type Q,
  readComponent,
  readMemory,
  readRejections,
  readStoreStats,
  run,
  toEvent,
} from './statements.ts';
import { PostgresTx } from './tx.ts';
import { compactAfterErasure, type MaintenanceNotice } from './erasure-maintenance.ts';

/** Serialization failures and deadlocks are retried this many times before they become `upstream`. */
const RETRIES = 3;

export interface PostgresStoreOptions {
  tenant: string;
  /** A pool on the tables' owner, for the maintenance erasure needs (VACUUM FULL, CHECKPOINT); none: skipped. */
  maintenance?: Sql;
  /** Where that pool's notices land: VACUUM VERBOSE says how many dead row versions it had to keep. */
  maintenanceNotices?: MaintenanceNotice[];
  searchCandidateCap?: number;
}

export class PostgresStore implements Store {
  readonly #sql: Sql;
  readonly #tenant: string;
  readonly #maintenance: Sql | undefined;
  readonly #notices: MaintenanceNotice[];
  readonly #searchCap: number;
  #closed = false;
  readonly feeds: FeedStore;
  readonly mcpSessions: McpSessionStore;
  readonly notify: NotifyStore;
  readonly neighbours = new PostgresNeighbourStore((fn) => this.read(fn));
  readonly commitments = new PostgresCommitmentReads((fn) => this.read(fn));
  readonly workspaces: WorkspaceSnapshotStore;
  readonly behaviors: BehaviorStore;
  readonly vectors: VectorStore;
  readonly auditOutbox = new PostgresAuditOutbox((fn) => this.read(fn));
  readonly changes: PostgresChanges;

  constructor(sql: Sql, options: PostgresStoreOptions) {
    this.#sql = sql;
    this.#tenant = options.tenant;
    this.#maintenance = options.maintenance;
    this.#notices = options.maintenanceNotices ?? [];
    this.#searchCap = options.searchCandidateCap ?? CANDIDATE_CAP;
    this.changes = new PostgresChanges(sql, options.tenant);
    this.feeds = new PostgresFeedStore(
      (fn) => this.read(fn),
      (fn, options) => this.#write(fn, options),
    );
    this.mcpSessions = new PostgresMcpSessionStore(
      (fn) => this.read(fn),
      (fn) => this.#write(fn, undefined),
    );
    this.notify = new PostgresNotifyStore(
      (fn) => this.read(fn),
      (fn) => this.#write(fn, undefined),
    );
    this.workspaces = new PostgresWorkspaceStore(
      (fn) => this.read(fn),
      (fn) => this.#write(fn, undefined),
    );
    this.behaviors = new PostgresBehaviorStore((fn) => this.read(fn));
    this.vectors = new PostgresVectorStore(
      (fn) => this.read(fn),
      (fn) => this.#write(fn, undefined),
    );
  }

  get tenant(): string {
    return this.#tenant;
  }

  /** Import batches by COPY (copy-batch.ts); off only to compare the two paths (pg-copy-batch.test.ts). */
  copyBatches = true;
  /** Lines per restore transaction (Store.restoreBatch): a COMMIT and its round trips shared by more lines. */
  restoreBatch = 5000;
  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.#transaction(fn, options, true);
  }

  /**
   * `optimistic`: new memories are sent without waiting (tx.ts). One refused makes the server abort it all;
   * then it runs again waiting for each insert, which throws what that path throws (a conflict naming the winner).
   */
  async #transaction<T>(
    fn: (tx: StoreTx) => Promise<T>,
    options: TransactionOptions | undefined,
    optimistic: boolean,
  ): Promise<T> {
    let tx: PostgresTx | undefined;
    try {
      return await this.#write(
        async (q, later) => {
          tx = new PostgresTx(q as never, { copy: this.copyBatches, optimistic });
          const out = await fn(tx);
          later.push(...(await tx.finish()));
          return out;
        },
        options,
        true,
      );
    } catch (error) {
      if (tx?.optimisticFailed === true) return this.#transaction(fn, options, false);
      throw error;
    }
  }

  getMemory(id: string): Promise<Memory | null> {
    return this.#readEach((q) => readMemory(q, id));
  }

  getMemories(ids: readonly string[]): Promise<(Memory | null)[]> {
    return this.#readEach(async (q) => {
      const rows = await run<MemoryRow>(
        q,
        `select ${MEMORY_COLUMNS} from memledger.memories m where m.id = any($1::text[])`,
        [[...ids]],
      );
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id);
        return row === undefined ? null : toMemory(row);
      });
    });
  }

  component(id: string): Promise<Memory[]> {
    return this.read((q) => readComponent(q, id));
  }

  claimFor(scope: string, key: string): Promise<Claim | null> {
    return this.read((q) => readClaim(q, scope, key));
  }

  latestCorrections(filter: CorrectionFilter): Promise<CorrectionRow[]> {
    return this.read((q) => latestCorrections(q, filter));
  }

  shownIn(principal: string, sessionId: string): Promise<Set<string>> {
    return this.read((q) => readShown(q, principal, sessionId));
  }

  eventsFor(ids: string[]): Promise<MemoryEvent[]> {
    return this.read(async (q) => {
      const rows = await run<EventRow>(
        q,
        `select id, type, memory_id, actor, actor_kind, at, reason, detail from memledger.events
         where memory_id = any($1::text[]) order by seq`,
        [ids],
      );
      return rows
        .map(toEvent)
        .sort((a, b) => (a.at === b.at ? a.id.localeCompare(b.id) : a.at.localeCompare(b.at)));
    });
  }

  search(plan: SearchPlan): Promise<SearchCandidate[]> {
    return this.#readEach((q) => scopedCandidates(q, plan, this.#searchCap));
  }

  list(filter: ListFilter): Promise<Memory[]> {
    return this.read((q) => listMemories(q, filter));
  }

  async *iterateAll(scopes: ScopeSet): AsyncIterable<Memory> {
    let after = 0;
    for (;;) {
      const batch = await this.read((q) => {
        const p = new Params();
        const where = [`m.seq > ${p.add(after)}`];
        const scope = scopeWhere('m.scope', scopes, p);
        if (scope !== null) where.push(scope);
        return run<MemoryRow>(
          q,
          `select ${MEMORY_COLUMNS} from memledger.memories m where ${where.join(' and ')} order by m.seq limit 500`,
          p.values,
        );
      });
      if (batch.length === 0) return;
      for (const row of batch) {
        after = Number(row.seq);
        yield toMemory(row);
      }
    }
  }

  rejectionsOf(memoryId: string): Promise<Rejection[]> {
    return this.read((q) => readRejections(q, memoryId));
  }

  claims(scopes: ScopeSet): Promise<Claim[]> {
    return this.read(async (q) => {
      const p = new Params();
      const scope = scopeWhere('scope', scopes, p);
      const rows = await run<{ scope: string; key: string; owner: string; since: string; memory_id: string }>(
        q,
        `select scope, key, owner, since, memory_id from memledger.claims ${scope === null ? '' : `where ${scope}`}
         order by since, scope, key`,
        p.values,
      );
      return rows.map(({ memory_id, ...claim }) => ({ ...claim, memoryId: memory_id }));
    });
  }

  erasures(): Promise<ErasureRecord[]> {
    return this.read(async (q) =>
      (
        await run<{ id: string; selector: string; memory_ids: string; by: string; at: string }>(
          q,
          'select id, selector, memory_ids, by, at from memledger.erasures order by at, id',
        )
      ).map((r) => ({
        id: r.id,
        selector: r.selector,
        memoryIds: JSON.parse(r.memory_ids) as string[],
        by: r.by,
        at: r.at,
      })),
    );
  }

  hashKey(): Promise<HashKey> {
    return this.read(async (q) => {
      const row = await one<{ id: string; key: Uint8Array }>(
        q,
        'select id, key from memledger.home_keys order by created_at desc limit 1',
      );
      if (row === undefined) throw new MemoryError('internal', `tenant ${this.#tenant} has no hash key`);
      return { id: row.id, key: new Uint8Array(row.key) };
    });
  }

  /** After erasure (I9): the maintenance that takes the old bytes out of the files (erasure-maintenance.ts). */
  compactAfterErasure(): Promise<{ checkpointed: boolean }> {
    const m = this.#maintenance;
    if (m === undefined) return Promise.resolve({ checkpointed: false });
    return compactAfterErasure(m, this.#notices);
  }

  reindex(options?: TransactionOptions): Promise<{ indexed: number }> {
    return this.#write(async (q) => {
      await removeAllDocs(q);
      await run(q, 'delete from memledger.scope_stats');
      let indexed = 0;
      const rows = await run<MemoryRow>(
        q,
        `select ${MEMORY_COLUMNS} from memledger.memories m where m.active_from is not null and m.state <> 'erased'`,
      );
      for (const row of rows) {
        const memory = toMemory(row);
        await insertDoc(q, indexOf(memory.state, memory.activeFrom)!, Number(row.seq), memory);
        indexed++;
      }
      return { indexed };
    }, options);
  }

  stats(): Promise<StoreStats> {
    return this.read(readStoreStats);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    const drops = this.auditOutbox.takeDrops();
    const drained =
      drops.length === 0
        ? Promise.resolve()
        : inTenant(this.#sql, this.#tenant, (q) =>
            run(q, 'delete from memledger.audit_outbox where id = any($1::text[])', [drops]),
          ).catch(() => undefined);
    // Rows left are moved again by a later open: the audit store ignores an id it holds.
    void drained.finally(() =>
      Promise.all([this.#sql.end({ timeout: 5 }), this.#maintenance?.end({ timeout: 5 })]),
    );
  }

  /** Closes and waits until the pools have ended (tests, and a server shutting down). */
  async end(): Promise<void> {
    this.close();
    await this.#sql.end({ timeout: 5 });
    await this.#maintenance?.end({ timeout: 5 });
  }

  /** One read transaction bound to the tenant. */
  async read<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    if (this.#closed) throw new MemoryError('internal', 'the store is closed');
    try {
      return await inTenantPipelined(this.#sql, this.#tenant, fn);
    } catch (error) {
      throw pgError(error, 'read');
    }
  }

  /** `read` with each statement (`run`/`one` only) its own one-round-trip transaction (at-once.ts). */
  async #readEach<T>(fn: (q: Q) => Promise<T>): Promise<T> {
    if (this.#closed) throw new MemoryError('internal', 'the store is closed');
    return fn(readEach(this.#sql, this.#tenant)).catch((error: unknown) => {
      throw pgError(error, 'read');
    });
  }

  /**
   * One write transaction: the tenant's write lock first (SQLite's BEGIN IMMEDIATE, across replicas), then the
   * work, then the call's audit outbox row and the deletion of flushed rows before COMMIT (I8). A memory
   * transaction (`announce`) also notifies the other replicas' watchers, delivered at COMMIT (changes.ts).
   */
  async #write<T>(
    fn: (q: Q, later: Promise<unknown>[]) => Promise<T>,
    options: TransactionOptions | undefined,
    announce = false,
  ): Promise<T> {
    if (this.#closed) throw new MemoryError('internal', 'the store is closed');
    for (let attempt = 0; ; attempt++) {
      let deleted = 0;
      try {
        const result = await inTenantWrite(this.#sql, this.#tenant, async (q) => {
          // Sent, not waited for: the work's first statement goes out behind it and the server runs it only
          // once the lock is held.
          const lock = (
            announce
              ? q`select pg_advisory_xact_lock(hashtext('memledger write'), hashtext(${this.#tenant})),
                       pg_notify(${CHANGES_CHANNEL}, ${this.#tenant})`
              : q`select pg_advisory_xact_lock(hashtext('memledger write'), hashtext(${this.#tenant}))`
          ).execute();
          const later: Promise<unknown>[] = []; // writes fn left in flight: COMMIT goes out behind them too
          const out = await fn(q, later);
          const outbox = this.auditOutbox.beforeCommit(q, options);
          deleted = outbox.deleted;
          // COMMIT goes out behind these; if one failed, it rolls back and that failure is thrown (at-once.ts).
          return { out, pending: [lock, ...later, ...outbox.sent] };
        });
        this.auditOutbox.committed(deleted);
        return result;
      } catch (error) {
        const code = (error as { code?: string }).code;
        if ((code === '40001' || code === '40P01') && attempt < RETRIES) continue;
        throw pgError(error, 'write');
      }
    }
  }
}
