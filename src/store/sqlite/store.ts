/** The embedded Store: memory.db over node:sqlite. Log, projections and index change together in one transaction. */
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { MemoryError } from '../../model/errors.ts';
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
import type {
  Claim,
  CorrectionFilter,
  CorrectionRow,
  ErasureRecord,
  HashKey,
  LifecycleChange,
  ListFilter,
  NewMemory,
  ProvenanceSelector,
  Rejection,
  RejectionLift,
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
  dropClaim,
  forgetGoverned,
  type GovernanceStatements,
  latestCorrections,
  prepareGovernance,
  readClaim,
  readShown,
  writeClaim,
  writeCorrection,
  writeShown,
} from './governance.ts';
import { insertParams, MEMORY_COLUMNS, type MemoryRow, scopeToken, toMemory } from './rows.ts';
import type { FeedStore, SourceItem } from '../feeds-port.ts';
import { readLiveClaims, readSourceItem, SqliteFeedStore, writeSourceItem } from './feeds.ts';
import { MEMORY_MIGRATIONS } from './migrations/index.ts';
import { FtsIndexes, indexOf, StatTotals } from './scope-stats.ts';
import { CANDIDATE_CAP, scopedCandidates } from './scoped-search.ts';
import { indexWideCandidates, listMemories, type ResolvedScopes, usesScopeTokens } from './search.ts';
import { SqliteAuditOutbox } from './outbox.ts';

export interface SqliteStoreOptions {
  sync?: Sync;
  busyTimeoutMs?: number;
  /** Matches a scoped search reads and scores itself before it narrows to its rarest words (scoped-search.ts). */
  searchCandidateCap?: number;
}

/** Checkpoint attempts after an erasure, each waiting up to WAL_WAIT_MS for readers, 25 ms doubling to 500 ms apart. */
const WAL_ATTEMPTS = 10;
const WAL_WAIT_MS = 200;

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
  }

  transaction<T>(fn: (tx: StoreTx) => Promise<T>, options?: TransactionOptions): Promise<T> {
    return this.#serial(() =>
      this.#write(() => fn(new SqliteTx(this.#db, this.#sql, this.#gov, this.#fts, this.#updates)), options),
    );
  }

  getMemory(id: string): Promise<Memory | null> {
    return this.#serial(async () => readMemory(this.#sql, id));
  }

  getMemories(ids: readonly string[]): Promise<(Memory | null)[]> {
    return this.#serial(async () => {
      // One statement for the lot: a search reads its hits this way, and a statement per id cost half again.
      const rows = this.#sql.byIds.all(JSON.stringify(ids)) as unknown as MemoryRow[];
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
    return this.#serial(async () => latestCorrections(this.#db, filter));
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
        return { checkpointed: await this.#truncateWal() };
      } catch (error) {
        throw engineError(error, 'compact after erasure');
      }
    });
  }

  reindex(options?: TransactionOptions): Promise<{ indexed: number }> {
    return this.transaction(async () => {
      const db = this.#db;
      db.exec(`DELETE FROM fts_current`);
      db.exec(`DELETE FROM fts_history`);
      let indexed = 0;
      // Counted in memory and written once, replacing the table: as if each row had been indexed alone.
      const totals = new StatTotals();
      for (const row of db
        .prepare(
          `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.active_from IS NOT NULL AND m.state <> 'erased'`,
        )
        .iterate() as Iterable<MemoryRow>) {
        const memory = toMemory(row);
        const index = indexOf(memory.state, memory.activeFrom)!;
        this.#fts.insert(index, row.seq, memory, totals);
        indexed++;
      }
      totals.write(db);
      db.exec(`INSERT INTO fts_current(fts_current) VALUES ('optimize')`);
      db.exec(`INSERT INTO fts_history(fts_history) VALUES ('optimize')`);
      return { indexed };
    }, options);
  }

  stats(): Promise<StoreStats> {
    return this.#serial(async () => {
      const byState: Record<string, number> = {};
      let memories = 0;
      for (const r of this.#db.prepare('SELECT state, count(*) AS n FROM memories GROUP BY state').all() as {
        state: string;
        n: number;
      }[]) {
        byState[r.state] = r.n;
        memories += r.n;
      }
      const count = (table: string) =>
        (this.#db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      const files: Record<string, number> = {};
      for (const suffix of ['', '-wal']) {
        try {
          files[`memory.db${suffix}`] = statSync(this.#path + suffix).size;
        } catch {
          // the WAL may not exist right after a checkpoint
        }
      }
      return {
        memories,
        byState,
        scopes: count('scopes'),
        events: count('events'),
        rejections: count('rejections'),
        erasures: count('erasures'),
        files,
      };
    });
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

  /**
   * Truncates the write-ahead log, retrying while another process's read holds it (I9): an erasure's old pages
   * stay in memory.db-wal until a checkpoint copies past them and the log is cut. Bounded: after some 5 s of
   * attempts it gives up and says so, and the bytes leave at the next checkpoint that succeeds.
   */
  async #truncateWal(): Promise<boolean> {
    const checkpoint = this.#db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
    const { timeout } = this.#db.prepare('PRAGMA busy_timeout').get() as { timeout: number };
    // The checkpoint waits in the busy handler for readers to finish: cap each wait, so the bound is ours.
    this.#db.exec(`PRAGMA busy_timeout = ${WAL_WAIT_MS}`);
    try {
      for (let attempt = 0; attempt < WAL_ATTEMPTS; attempt++) {
        if ((checkpoint.get() as { busy: number }).busy === 0) return true;
        await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, 500)));
      }
      return false;
    } finally {
      this.#db.exec(`PRAGMA busy_timeout = ${Number(timeout)}`);
    }
  }

  /** One write transaction; the call's audit outbox row and the deletion of flushed rows go in before COMMIT (I8). */
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

class SqliteTx implements StoreTx {
  readonly #db: DatabaseSync;
  readonly #sql: Statements;
  readonly #gov: GovernanceStatements;
  readonly #fts: FtsIndexes;
  readonly #updates: Map<string, StatementSync>;

  constructor(
    db: DatabaseSync,
    sql: Statements,
    gov: GovernanceStatements,
    fts: FtsIndexes,
    updates: Map<string, StatementSync>,
  ) {
    this.#db = db;
    this.#sql = sql;
    this.#gov = gov;
    this.#fts = fts;
    this.#updates = updates;
  }

  async getMemory(id: string): Promise<Memory | null> {
    return readMemory(this.#sql, id);
  }

  async claimFor(scope: string, key: string): Promise<Claim | null> {
    return readClaim(this.#gov, scope, key);
  }

  async setClaim(claim: Claim): Promise<void> {
    writeClaim(this.#gov, claim);
  }

  async dropClaim(scope: string, key: string): Promise<void> {
    dropClaim(this.#gov, scope, key);
  }

  async insertCorrection(correction: Omit<CorrectionRow, 'reason'>): Promise<void> {
    writeCorrection(this.#gov, correction);
  }

  async recordShown(principal: string, sessionId: string, ids: string[], at: string): Promise<void> {
    writeShown(this.#gov, principal, sessionId, ids, at);
  }

  async currentHolder(scope: string, key: string): Promise<Memory | null> {
    const row = this.#sql.holder.get(scope, key) as MemoryRow | undefined;
    return row === undefined ? null : toMemory(row);
  }

  async findRejection(scope: string, fingerprints: readonly string[]): Promise<Rejection | null> {
    for (const fp of fingerprints) {
      const row = this.#sql.rejectionStanding.get(scope, fp) as RejectionRow | undefined;
      if (row !== undefined) return toRejection(row);
    }
    return null;
  }

  async liftRejections(
    scope: string,
    fingerprints: readonly string[],
    lift: RejectionLift,
  ): Promise<Rejection[]> {
    const lifted: Rejection[] = [];
    for (const fp of fingerprints) {
      const row = this.#sql.rejectionStanding.get(scope, fp) as RejectionRow | undefined;
      if (row === undefined) continue;
      this.#sql.rejectionLift.run(lift.at, lift.by, lift.reason, row.seq);
      lifted.push({ ...toRejection(row), lifted: lift });
    }
    return lifted;
  }

  async liveClaims(scope: string, fingerprint: string): Promise<Memory[]> {
    return readLiveClaims(this.#db, scope, fingerprint);
  }

  async sourceItem(connector: string, scope: string, itemId: string): Promise<string | null> {
    return readSourceItem(this.#db, connector, scope, itemId);
  }

  async insertSourceItem(item: SourceItem): Promise<void> {
    writeSourceItem(this.#db, item);
  }

  async insertMemory(memory: NewMemory): Promise<void> {
    let seq: number;
    try {
      seq = Number(
        this.#sql.insert.run(insertParams(memory) as Record<string, SQLInputValue>).lastInsertRowid,
      );
    } catch (error) {
      throw this.#uniqueConflict(error, memory.scope, memory.key, memory.supersedes);
    }
    this.#sql.scopeInsert.run(memory.scope, scopeToken(memory.scope));
    for (const subject of memory.subjects) this.#sql.subjectInsert.run(subject, seq);
    // Current memories in one index, versions that were current once in the other (as-of reads, I12).
    const index = indexOf(memory.state, memory.activeFrom);
    if (index !== null) this.#fts.insert(index, seq, memory);
  }

  async setLifecycle(id: string, change: LifecycleChange): Promise<void> {
    const before = this.#sql.byId.get(id) as MemoryRow | undefined;
    if (before === undefined) throw new MemoryError('not_found', `no memory ${id}`);
    const sets: string[] = [];
    const params: Record<string, SQLInputValue> = { id };
    const columns: Record<keyof LifecycleChange, string> = {
      state: 'state',
      trust: 'trust',
      supersededBy: 'superseded_by',
      activeFrom: 'active_from',
      activeUntil: 'active_until',
      confirmedBy: 'confirmed_by',
      validEnd: 'valid_end',
    };
    for (const [field, column] of Object.entries(columns) as [keyof LifecycleChange, string][]) {
      if (change[field] !== undefined) {
        sets.push(`${column} = :${column}`);
        params[column] = change[field] as SQLInputValue;
      }
    }
    if (sets.length === 0) return;
    const sql = `UPDATE memories SET ${sets.join(', ')} WHERE id = :id`;
    let statement = this.#updates.get(sql);
    if (statement === undefined) {
      statement = this.#db.prepare(sql);
      this.#updates.set(sql, statement);
    }
    try {
      statement.run(params);
    } catch (error) {
      throw this.#uniqueConflict(error, before.scope, before.key, before.supersedes);
    }
    // The indexes are a projection of state: the current index holds exactly the active memories, the history
    // index every version that was current once and is not now.
    const wasActive = before.state === 'active';
    const after = change.state ?? before.state;
    if (wasActive && after !== 'active') {
      const memory = toMemory(before);
      this.#fts.remove('current', before.seq, memory);
      if (after !== 'erased') this.#fts.insert('history', before.seq, memory);
    }
    if (!wasActive && after === 'active') this.#fts.insert('current', before.seq, toMemory(before));
  }

  async insertEvent(event: MemoryEvent): Promise<void> {
    this.#sql.eventInsert.run(
      event.id,
      event.type,
      event.memoryId,
      event.actor,
      event.actorKind,
      event.at,
      event.reason,
      JSON.stringify(event.detail),
    );
  }

  async hasEvent(id: string): Promise<boolean> {
    return this.#sql.eventExists.get(id) !== undefined;
  }

  async eventsOf(memoryId: string): Promise<MemoryEvent[]> {
    return (this.#sql.eventsFor.all(memoryId) as unknown as EventRow[]).map(toEvent);
  }

  async rejectionsOf(memoryId: string): Promise<Rejection[]> {
    return (this.#sql.rejectionsOf.all(memoryId) as unknown as RejectionRow[]).map(toRejection);
  }

  async insertRejection(r: Rejection): Promise<void> {
    if (r.lifted === null && this.#sql.rejectionStanding.get(r.scope, r.fingerprint) !== undefined) return;
    this.#sql.rejectionInsert.run(
      r.scope,
      r.fingerprint,
      r.memoryId,
      r.reason,
      r.by,
      r.at,
      r.lifted?.at ?? null,
      r.lifted?.by ?? null,
      r.lifted?.reason ?? null,
    );
  }

  async component(id: string): Promise<Memory[]> {
    return readComponent(this.#sql, id);
  }

  async memoriesAboutSubject(subject: string): Promise<Memory[]> {
    return (this.#sql.bySubject.all(subject) as unknown as MemoryRow[]).map(toMemory);
  }

  async memoriesByProvenance(selector: ProvenanceSelector): Promise<Memory[]> {
    const rows =
      'principal' in selector
        ? this.#sql.byPrincipal.all(selector.principal)
        : 'sessionId' in selector
          ? this.#sql.bySession.all(selector.sessionId)
          : this.#sql.bySource.all({ prefix: selector.sourcePrefix });
    return (rows as unknown as MemoryRow[]).map(toMemory);
  }

  async rotateHashKey(at: string): Promise<void> {
    // The old key's row is deleted, and secure_delete zeroes its page: nothing keyed with it can be tested again.
    this.#sql.hashKeyDrop.run();
    this.#sql.hashKeyInsert.run(`hk${randomBytes(4).toString('hex')}`, randomBytes(32), at);
  }

  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    this.#db.exec('SAVEPOINT line');
    try {
      const result = await fn();
      this.#db.exec('RELEASE line');
      return result;
    } catch (error) {
      this.#db.exec('ROLLBACK TO line');
      this.#db.exec('RELEASE line');
      throw error;
    }
  }

  async erase(record: ErasureRecord): Promise<void> {
    for (const id of record.memoryIds) {
      const row = this.#sql.byId.get(id) as MemoryRow | undefined;
      if (row === undefined || row.state === 'erased') continue;
      forgetGoverned(this.#gov, row);
      const memory = toMemory(row);
      this.#fts.remove('current', row.seq, memory);
      this.#fts.remove('history', row.seq, memory);
      this.#sql.subjectDeleteSeq.run(row.seq);
      const provenance = JSON.parse(row.provenance) as Record<string, unknown>;
      delete provenance.source;
      this.#sql.eraseRow.run({ at: record.at, provenance: JSON.stringify(provenance), id });
      this.#sql.eventsBlank.run(id);
      this.#sql.rejectionsBlank.run(id);
    }
    await this.insertErasure(record);
  }

  async insertErasure(record: ErasureRecord): Promise<boolean> {
    const { changes } = this.#sql.erasureInsert.run(
      record.id,
      record.selector,
      JSON.stringify(record.memoryIds),
      record.by,
      record.at,
    );
    return Number(changes) > 0;
  }

  #uniqueConflict(error: unknown, scope: string, key: string | null, supersedes: string | null): unknown {
    const message = (error as Error).message ?? '';
    if (message.includes('UNIQUE constraint failed: memories.supersedes') && supersedes !== null) {
      const winner = this.#sql.successor.get(supersedes) as { id: string } | undefined;
      return new MemoryError(
        'conflict',
        `memory ${supersedes} was already superseded by ${winner?.id ?? 'another write'}`,
        {
          details: { winner: winner?.id ?? null, supersedes },
          cause: error,
        },
      );
    }
    // Migration 5's holder index is on lower(key): SQLite names such a failure by the index.
    if (message.includes(`UNIQUE constraint failed: index 'memories_key_holder'`) && key !== null) {
      const holder = this.#sql.holder.get(scope, key) as MemoryRow | undefined;
      return new MemoryError(
        'conflict',
        `key ${key} in ${scope} is already held by ${holder?.id ?? 'another memory'}; supersede it instead`,
        {
          details: { winner: holder?.id ?? null, key },
          content: [key],
          cause: error,
        },
      );
    }
    return error;
  }
}

interface EventRow {
  id: string;
  type: string;
  memory_id: string;
  actor: string;
  actor_kind: string;
  at: string;
  reason: string | null;
  detail: string;
}

const toEvent = (r: EventRow): MemoryEvent => ({
  id: r.id,
  type: r.type as MemoryEvent['type'],
  memoryId: r.memory_id,
  actor: r.actor,
  actorKind: r.actor_kind as MemoryEvent['actorKind'],
  at: r.at,
  reason: r.reason,
  detail: JSON.parse(r.detail),
});

function prepareStatements(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    byId: p(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`),
    byIds: p(`SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id IN (SELECT value FROM json_each(?))`),
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
    insert: p(
      `INSERT INTO memories (id, scope, kind, key, body, value, subjects, valid_from, valid_to, confidence, supersedes, edit_of,
         fingerprint, provenance, recorded_at, state, trust, active_from, active_until, superseded_by, confirmed_by, rule,
         valid_start, valid_end, erased_at)
       VALUES (:id, :scope, :kind, :key, :body, :value, :subjects, :valid_from, :valid_to, :confidence, :supersedes, :edit_of,
         :fingerprint, :provenance, :recorded_at, :state, :trust, :active_from, :active_until, :superseded_by, :confirmed_by, :rule,
         :valid_start, :valid_end, :erased_at)`,
    ),
    scopeInsert: p(`INSERT OR IGNORE INTO scopes (scope, tok) VALUES (?, ?)`),
    scopesByPrefix: p(`SELECT tok FROM scopes WHERE scope LIKE ?`),
    scopeCount: p(`SELECT count(*) AS n FROM scopes`),
    subjectInsert: p(`INSERT OR IGNORE INTO memory_subjects (subject, memory_seq) VALUES (?, ?)`),
    subjectDeleteSeq: p(`DELETE FROM memory_subjects WHERE memory_seq = ?`),
    eventInsert: p(
      `INSERT INTO events (id, type, memory_id, actor, actor_kind, at, reason, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
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
type Statements = ReturnType<typeof prepareStatements>;

function readMemory(sql: Statements, id: string): Memory | null {
  const row = sql.byId.get(id) as MemoryRow | undefined;
  return row === undefined ? null : toMemory(row);
}

const REJECTION_COLUMNS =
  'seq, scope, fingerprint, memory_id, reason, by, at, lifted_at, lifted_by, lift_reason';

interface RejectionRow {
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

interface ErasureRow {
  id: string;
  selector: string;
  memory_ids: string;
  by: string;
  at: string;
}

const toRejection = (r: RejectionRow): Rejection => ({
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
function readComponent(sql: Statements, id: string): Memory[] {
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

export function inScopeSet(scopes: ScopeSet, scope: string): boolean {
  return scopes.all || scopes.exact.includes(scope) || scopes.prefixes.some((p) => scope.startsWith(p));
}
