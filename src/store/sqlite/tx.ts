/** A write transaction on memory.db: the log, its projections and the index change together, or not at all. */
import { randomBytes } from 'node:crypto';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { MemoryError } from '../../model/errors.ts';
import type { MemoryEvent } from '../../model/event.ts';
import { eventValues, LIFECYCLE_COLUMNS } from '../memory-columns.ts';
import type { Memory } from '../../model/memory.ts';
import type {
  Claim,
  CorrectionRow,
  ErasureRecord,
  LifecycleChange,
  NewMemory,
  ProvenanceSelector,
  Rejection,
  RejectionLift,
  StoreTx,
} from '../port.ts';
import {
  dropClaim,
  forgetGoverned,
  type GovernanceStatements,
  readClaim,
  writeClaim,
  writeCorrection,
  writeShown,
} from './governance.ts';
import { insertValues, type MemoryRow, scopeToken, toMemory } from './rows.ts';
import type { SourceItem } from '../feeds-port.ts';
import { readLiveClaims, readSourceItem, writeSourceItem } from './feeds.ts';
import { type FtsIndex, type FtsIndexes, indexOf, StatTotals } from './scope-stats.ts';
import { SqliteCommitmentTx } from './commitments.ts';
import type { BehaviorTx } from '../behaviors-port.ts';
import { sqliteBehaviorQueries } from './behaviors.ts';

import {
  type RejectionRow,
  readComponent,
  readMemory,
  type Statements,
  toEvent,
  toRejection,
  type EventRow,
} from './statements.ts';
import type { NotifyEvent } from '../notify-port.ts';
import { enqueueSqlite } from './notify.ts';

export class SqliteTx implements StoreTx {
  readonly #db: DatabaseSync;
  readonly #sql: Statements;
  readonly #gov: GovernanceStatements;
  readonly #fts: FtsIndexes;
  readonly #updates: Map<string, StatementSync>;
  readonly commitments: SqliteCommitmentTx;
  /**
   * This transaction's new index documents, written together by `#flushIndex` just before the COMMIT (or before
   * anything that reads or removes index rows). A memories insert runs in a statement savepoint (its trigger and
   * foreign keys), and FTS5 writes its pending documents out as a new segment at every savepoint: interleaved,
   * an import batch wrote one tiny segment per line and merged them (40 against 22 us of CPU a row, measured
   * with the insert alone, 20k rows). Together, their statistics are one upsert per scope, not one per line.
   */
  #pendingIndex: { index: FtsIndex; seq: number; doc: NewMemory }[] = [];
  /** Scopes this transaction has registered already: one scope insert per scope, not per line. */
  #scopes = new Set<string>();

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
    this.commitments = new SqliteCommitmentTx(db);
  }

  get behaviors(): BehaviorTx {
    return sqliteBehaviorQueries(this.#db);
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
      seq = Number(this.#sql.insert.run(...insertValues(memory)).lastInsertRowid);
    } catch (error) {
      throw this.#uniqueConflict(error, memory.scope, memory.key, memory.supersedes);
    }
    if (!this.#scopes.has(memory.scope)) {
      this.#sql.scopeInsert.run(memory.scope, scopeToken(memory.scope));
      this.#scopes.add(memory.scope);
    }
    for (const subject of memory.subjects) this.#sql.subjectInsert.run(subject, seq);
    // Current memories in one index, versions that were current once in the other (as-of reads, I12).
    const index = indexOf(memory.state, memory.activeFrom);
    if (index !== null) this.#pendingIndex.push({ index, seq, doc: memory });
  }

  /** Writes the index documents this transaction holds back; the store calls it just before COMMIT. */
  flush(): void {
    this.#flushIndex();
  }

  #flushIndex(): void {
    if (this.#pendingIndex.length === 0) return;
    const totals = new StatTotals();
    for (const { index, seq, doc } of this.#pendingIndex) this.#fts.insert(index, seq, doc, totals);
    this.#pendingIndex = [];
    this.#fts.bump(totals);
  }

  async setLifecycle(id: string, change: LifecycleChange): Promise<void> {
    // The change may move a document between the indexes: every document of this transaction is there first.
    this.#flushIndex();
    const before = this.#sql.byId.get(id) as MemoryRow | undefined;
    if (before === undefined) throw new MemoryError('not_found', `no memory ${id}`);
    const sets: string[] = [];
    const params: Record<string, SQLInputValue> = { id };
    for (const [field, column] of Object.entries(LIFECYCLE_COLUMNS) as [keyof LifecycleChange, string][]) {
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
    this.#sql.eventInsert.run(...eventValues(event));
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

  async enqueueNotification(event: NotifyEvent): Promise<number> {
    return enqueueSqlite(this.#db, event);
  }

  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    // Documents of earlier lines are written first, so rolling this line back cannot take them with it; what the
    // line itself held back or registered goes back with its rows.
    this.#flushIndex();
    const scopes = new Set(this.#scopes);
    this.#db.exec('SAVEPOINT line');
    try {
      const result = await fn();
      this.#db.exec('RELEASE line');
      return result;
    } catch (error) {
      this.#db.exec('ROLLBACK TO line');
      this.#db.exec('RELEASE line');
      this.#pendingIndex = [];
      this.#scopes = scopes;
      throw error;
    }
  }

  async erase(record: ErasureRecord): Promise<void> {
    this.#flushIndex();
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
