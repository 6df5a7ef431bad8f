/** The embedded Store: memory.db over node:sqlite. Log, projections and index change together in one transaction. */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { MemoryError } from '../../model/errors.ts';
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
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
import { engineError, openDatabase, type Sync } from './database.ts';
import {
  type ClaimRow,
  type GovernanceStatements,
  latestCorrections,
  prepareGovernance,
  readClaim,
  readShown,
} from './governance.ts';
import { type MemoryRow, rowFromColumns, scopeToken, toMemory } from './rows.ts';
import type { FeedStore } from '../feeds-port.ts';
import { SqliteFeedStore } from './feeds.ts';
import { SqliteCommitmentReads } from './commitments.ts';
import type { VectorStore } from '../vectors-port.ts';
import { SqliteVectorStore } from './vectors.ts';
import type { McpSessionStore } from '../mcp-sessions-port.ts';
import { SqliteNeighbourStore } from './neighbours.ts';
import { SqliteMcpSessionStore } from './mcp-sessions.ts';
import type { NotifyStore } from '../notify-port.ts';
import { SqliteNotifyStore } from './notify.ts';
import type { WorkspaceSnapshotStore } from '../workspaces-port.ts';
import { SqliteWorkspaceStore } from './workspaces.ts';
import type { BehaviorStore } from '../behaviors-port.ts';
import { SqliteBehaviorStore } from './behaviors.ts';
import { MEMORY_MIGRATIONS } from './migrations/index.ts';
import { FtsIndexes } from './scope-stats.ts';
import { rebuildIndexes, storeStats, truncateWal } from './maintenance.ts';
import { CANDIDATE_CAP, scopedCandidates } from './scoped-search.ts';
import { indexWideCandidates, listMemories, type ResolvedScopes, usesScopeTokens } from './search.ts';
import { SqliteAuditOutbox } from './outbox.ts';

import {
  type ErasureRow,
  type EventRow,
  prepareStatements,
  type RejectionRow,
  readComponent,
  readMemory,
  type Statements,
  toEvent,
  toRejection,
} from './statements.ts';
import { SqliteTx } from './tx.ts';
export interface SqliteStoreOptions {
  sync?: Sync;
  busyTimeoutMs?: number;
  /** Matches a scoped search reads and scores itself before it narrows to its rarest words (scoped-search.ts). */
  searchCandidateCap?: number;
}

/** Distinct search and list statements kept prepared; past this the oldest is dropped. */
const AD_HOC_STATEMENTS = 200;

export function openSqliteStore(path: string, options: SqliteStoreOptions = {}): SqliteStore {
  const db = openDatabase(path, MEMORY_MIGRATIONS, { ...options, secureDelete: true });
  return new SqliteStore(db, path, options.searchCandidateCap);
}

export class SqliteStore implements Store {
  readonly #db: DatabaseSync;
  readonly #path: string;
  readonly #sql: Statements;
  readonly #gov: GovernanceStatements;
  readonly #fts: FtsIndexes;
  readonly #updates = new Map<string, StatementSync>();
  readonly #adHoc = new Map<string, StatementSync>();
  /** One connection per process: operations queue so a transaction never interleaves with another call. */
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  readonly #searchCap: number;
  readonly feeds: FeedStore;
  readonly mcpSessions: McpSessionStore;
  readonly notify: NotifyStore;
  readonly neighbours: SqliteNeighbourStore;
  readonly commitments: SqliteCommitmentReads;
  readonly workspaces: WorkspaceSnapshotStore;
  readonly behaviors: BehaviorStore;
  readonly vectors: VectorStore;
  readonly auditOutbox: SqliteAuditOutbox;

  constructor(db: DatabaseSync, path: string, searchCap = CANDIDATE_CAP) {
    this.#db = db;
    this.#path = path;
    this.#searchCap = searchCap;
    this.#sql = prepareStatements(db);
    this.#gov = prepareGovernance(db);
    this.#fts = new FtsIndexes(db);
    this.auditOutbox = new SqliteAuditOutbox(db, () => !this.#closed);
    this.feeds = new SqliteFeedStore(
      db,
      (fn) => this.#serial(fn),
      (fn, options) => this.#serial(() => this.#write(async () => fn(), options)),
    );
    this.neighbours = new SqliteNeighbourStore(
      db,
      (fn) => this.#serial(fn),
      (sql) => this.#prepared(sql),
    );
    this.commitments = new SqliteCommitmentReads(
      db,
      (fn) => this.#serial(fn),
      (sql) => this.#prepared(sql),
    );
    this.mcpSessions = new SqliteMcpSessionStore(
      db,
      (fn) => this.#serial(fn),
      (fn) => this.#serial(() => this.#write(async () => fn(), undefined)),
    );
    this.notify = new SqliteNotifyStore(
      db,
      (fn) => this.#serial(fn),
      (fn) => this.#serial(() => this.#write(async () => fn(), undefined)),
    );
    this.workspaces = new SqliteWorkspaceStore(
      db,
      (fn) => this.#serial(fn),
      (fn) => this.#serial(() => this.#write(async () => fn(), undefined)),
    );
    this.behaviors = new SqliteBehaviorStore(db, (fn) => this.#serial(fn));
    this.vectors = new SqliteVectorStore(
      db,
      (fn) => this.#serial(fn),
      (fn) => this.#write(async () => fn(), undefined),
    );
  }

  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.#serial(() =>
      this.#write(async () => {
        const tx = new SqliteTx(this.#db, this.#sql, this.#gov, this.#fts, this.#updates);
        const result = await fn(tx);
        tx.flush();
        return result;
      }, options),
    );
  }

  getMemory(id: string): Promise<Memory | null> {
    return this.#serial(async () => readMemory(this.#sql, id));
  }

  getMemories(ids: readonly string[]): Promise<(Memory | null)[]> {
    return this.#serial(async () => {
      // One statement for the lot: a search reads its hits this way, and a statement per id cost half again.
      const rows = (this.#sql.byIds.all(JSON.stringify(ids)) as unknown as unknown[][]).map(rowFromColumns);
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id);
        return row === undefined ? null : toMemory(row);
      });
    });
  }

  component(id: string): Promise<Memory[]> {
    return this.#serial(async () => readComponent(this.#sql, id));
  }

  claimFor(scope: string, key: string): Promise<Claim | null> {
    return this.#serial(async () => readClaim(this.#gov, scope, key));
  }

  latestCorrections(filter: CorrectionFilter): Promise<CorrectionRow[]> {
    return this.#serial(async () => latestCorrections((sql) => this.#prepared(sql), filter));
  }

  shownIn(principal: string, sessionId: string): Promise<Set<string>> {
    return this.#serial(async () => readShown(this.#gov, principal, sessionId));
  }

  eventsFor(ids: string[]): Promise<MemoryEvent[]> {
    return this.#serial(async () => {
      const out: MemoryEvent[] = [];
      for (const id of ids) {
        for (const row of this.#sql.eventsFor.all(id) as unknown as EventRow[]) out.push(toEvent(row));
      }
      return out.sort((a, b) => (a.at === b.at ? a.id.localeCompare(b.id) : a.at.localeCompare(b.at)));
    });
  }

  search(plan: SearchPlan): Promise<SearchCandidate[]> {
    return this.#serial(async () => {
      try {
        const scopes = this.#resolveScopes(plan.scopes);
        const prepare = (sql: string) => this.#prepared(sql);
        if (scopes.toks === null) return indexWideCandidates(plan, prepare);
        if (scopes.toks.length === 0) return [];
        const toks = scopes.toks;
        return scopedCandidates(plan, { ...scopes, toks }, prepare, {
          useTokens: usesScopeTokens(toks, () => (this.#sql.scopeCount.get() as { n: number }).n),
          cap: this.#searchCap,
        });
      } catch (error) {
        throw engineError(error, 'search');
      }
    });
  }

  list(filter: ListFilter): Promise<Memory[]> {
    return this.#serial(async () =>
      listMemories(filter, this.#resolveScopes(filter.scopes), (sql) => this.#prepared(sql)),
    );
  }

  async *iterateAll(scopes: ScopeSet): AsyncIterable<Memory> {
    let after = 0;
    for (;;) {
      const batch = await this.#serial(async () => {
        const rows = this.#sql.pageAll.all(after) as unknown as MemoryRow[];
        return rows;
      });
      if (batch.length === 0) return;
      for (const row of batch) {
        after = row.seq;
        if (inScopeSet(scopes, row.scope)) yield toMemory(row);
      }
    }
  }

  rejectionsOf(memoryId: string): Promise<Rejection[]> {
    return this.#serial(async () =>
      (this.#sql.rejectionsOf.all(memoryId) as unknown as RejectionRow[]).map(toRejection),
    );
  }

  claims(scopes: ScopeSet): Promise<Claim[]> {
    return this.#serial(async () =>
      (this.#sql.claimsAll.all() as unknown as ClaimRow[])
        .filter((r) => inScopeSet(scopes, r.scope))
        .map((r) => ({ scope: r.scope, key: r.key, owner: r.owner, since: r.since, memoryId: r.memory_id })),
    );
  }

  erasures(): Promise<ErasureRecord[]> {
    return this.#serial(async () =>
      (this.#sql.erasuresAll.all() as unknown as ErasureRow[]).map((r) => ({
        id: r.id,
        selector: r.selector,
        memoryIds: JSON.parse(r.memory_ids) as string[],
        by: r.by,
        at: r.at,
      })),
    );
  }

  hashKey(): Promise<HashKey> {
    return this.#serial(async () => {
      const row = this.#sql.hashKey.get() as { id: string; key: Uint8Array } | undefined;
      if (row === undefined) throw new MemoryError('internal', 'memory.db has no hash key (migration 5)');
      return { id: row.id, key: row.key };
    });
  }

  compactAfterErasure(): Promise<{ checkpointed: boolean }> {
    return this.#serial(async () => {
      try {
        // Merging the index into one segment drops the deleted documents' tokens; secure_delete zeroes the freed pages.
        this.#db.exec(`INSERT INTO fts_current(fts_current) VALUES ('optimize')`);
        this.#db.exec(`INSERT INTO fts_history(fts_history) VALUES ('optimize')`);
        return { checkpointed: await truncateWal(this.#db) };
      } catch (error) {
        throw engineError(error, 'compact after erasure');
      }
    });
  }

  reindex(options?: TransactionOptions): Promise<{ indexed: number }> {
    return this.transaction(async () => rebuildIndexes(this.#db, this.#fts), options);
  }

  stats(): Promise<StoreStats> {
    return this.#serial(async () => storeStats(this.#db, this.#path));
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.auditOutbox.drainAtClose();
    try {
      this.#db.exec('PRAGMA optimize');
    } catch {
      // best effort
    }
    this.#db.close();
  }

  async #write<T>(fn: () => Promise<T>, options: TransactionOptions | undefined): Promise<T> {
    try {
      this.#db.exec('BEGIN IMMEDIATE');
    } catch (error) {
      throw engineError(error, 'begin a write');
    }
    try {
      const result = await fn();
      const deleted = this.auditOutbox.beforeCommit(options);
      this.#db.exec('COMMIT');
      this.auditOutbox.committed(deleted);
      return result;
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw engineError(error, 'write');
    }
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#closed) return Promise.reject(new MemoryError('internal', 'the store is closed'));
    const run = this.#queue.then(fn, fn);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /**
   * A statement for SQL built per call (search and list filters), prepared once per distinct text: the shapes
   * are few (which filters, how many scopes), and preparing cost a search more than some of its reads.
   */
  #prepared(sql: string): StatementSync {
    let statement = this.#adHoc.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      if (this.#adHoc.size >= AD_HOC_STATEMENTS) this.#adHoc.delete(this.#adHoc.keys().next().value!);
      this.#adHoc.set(sql, statement);
    }
    return statement;
  }

  #resolveScopes(scopes: ScopeSet): ResolvedScopes {
    if (scopes.all) return { toks: null, exact: [], prefixes: [] };
    const toks = new Set<string>();
    for (const s of scopes.exact) toks.add(scopeToken(s));
    for (const p of scopes.prefixes) {
      for (const r of this.#sql.scopesByPrefix.all(`${p}%`) as { tok: string }[]) toks.add(r.tok);
    }
    return { toks: [...toks], exact: scopes.exact, prefixes: scopes.prefixes };
  }
}

export function inScopeSet(scopes: ScopeSet, scope: string): boolean {
  return scopes.all || scopes.exact.includes(scope) || scopes.prefixes.some((p) => scope.startsWith(p));
}
