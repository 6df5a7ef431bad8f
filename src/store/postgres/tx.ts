/** The Postgres write transaction (StoreTx): its statements, the writes it sends ahead, an import batch's COPY. */
import { MemoryError } from '../../model/errors.ts';
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
import type { SourceItem } from '../feeds-port.ts';
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
import type { TxSql } from './database.ts';
import type { BehaviorTx } from '../behaviors-port.ts';
import { postgresBehaviorQueries } from './behaviors.ts';
import { readLiveClaims, readSourceItem, writeSourceItem } from './feeds.ts';
import { PostgresCommitmentTx } from './commitments.ts';
import { dropClaim, readClaim, writeClaim, writeCorrection, writeShown } from './governance.ts';
import { CopyBatch } from './copy-batch.ts';
import { LookupCache } from './lookup-cache.ts';
import { updateLifecycle } from './tx-lifecycle.ts';
import { liftStanding, writeRejection } from './tx-rejections.ts';
import { eraseMemories, insertErasure, readByProvenance, rotateHashKey } from './tx-erasure.ts';
import { readHolder } from './unique-writes.ts';
import { EVENT_COLUMNS, eventValues } from '../memory-columns.ts';
import { insertMemoryStatement, insertWaiting, sendChecked } from './insert-memory.ts';
import type { NotifyEvent } from '../notify-port.ts';
import { enqueuePostgres } from './notify.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { insertDoc, removeDoc } from './scope-stats.ts';
import {
  one,
  REJECTION_COLUMNS,
  type RejectionRow,
  readComponent,
  readEvents,
  readMemory,
  readMemoryRow,
  readRejections,
  run,
  send,
  toRejection,
} from './statements.ts';

const INSERT_EVENT = `insert into memledger.events (${EVENT_COLUMNS.join(', ')})
  values (${EVENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`;

export class PostgresTx implements StoreTx {
  /** The transaction, or the savepoint inside it that is open now. */
  #q: TxSql;
  readonly commitments = new PostgresCommitmentTx(() => this.#drained());
  /** Writes sent without waiting (`send`): awaited before a savepoint ends and before COMMIT. */
  #sent: Promise<unknown>[] = [];
  /** What `preload` looked up ahead (an import batch's ids and rejections). */
  readonly #cache = new LookupCache();
  /** An import batch (it preloaded): outside a savepoint, its inserts are sent without waiting. */
  #batch = false;
  #savepoints = 0;
  /** An import batch's memories and events held for COPY (copy-batch.ts); null when the store sends each. */
  readonly #copy: CopyBatch | null;

  /** Send a new memory without waiting (outside a batch and a savepoint): its refusal aborts the transaction. */
  readonly #optimistic: boolean;
  #optimisticFailed = false;

  constructor(tx: TxSql, options: { copy?: boolean; optimistic?: boolean } = {}) {
    this.#q = tx;
    this.#copy = options.copy === true ? new CopyBatch() : null;
    this.#optimistic = options.optimistic === true;
  }

  /** A memory sent without waiting failed: the transaction rolled back, to be run again waiting (store.ts). */
  get optimisticFailed(): boolean {
    return this.#optimisticFailed;
  }

  /** On the savepoint open now, like every other statement of the transaction. */
  get behaviors(): BehaviorTx {
    return postgresBehaviorQueries(this.#drained());
  }

  /** Writes what is held, so the sub-ports (`commitments`, `behaviors`) may run after it (StoreTx.settle). */
  settle(): Promise<void> {
    return this.#drain();
  }

  /** Writes what is held, waits for what was sent: their failure is thrown here (a savepoint's end, COMMIT). */
  async flush(): Promise<void> {
    // A failed COPY is kept as a replay of the batch (copy-batch.ts), thrown before what it aborted.
    await this.#drain().catch(() => undefined);
    this.#copy?.check();
    while (this.#sent.length > 0) await Promise.all(this.#sent.splice(0));
  }

  /**
   * Before COMMIT: `flush`, except that outside an import batch the writes still in flight are handed back for
   * COMMIT to go out behind (at-once.ts inTenantWrite): each of them can fail only on the server, which aborts
   * the transaction, so the COMMIT rolls back. A batch's sent inserts are checked here on the client (a refusal
   * is an empty answer), so they are waited for.
   */
  async finish(): Promise<Promise<unknown>[]> {
    if (this.#batch) {
      await this.flush();
      return [];
    }
    await this.#drain().catch(() => undefined);
    this.#copy?.check();
    return this.#sent.splice(0);
  }

  #drain(): Promise<void> {
    return this.#copy === null ? Promise.resolve() : this.#copy.drain(this.#q);
  }

  /** For a read of rows never held (claims, rejections, source items): waits only for a drain in flight. */
  #settled(): Promise<void> {
    return this.#copy === null ? Promise.resolve() : this.#copy.settled();
  }

  /** The connection for a caller that cannot wait for a drain; an import batch never gets here with rows held. */
  #drained(): TxSql {
    if (this.#copy?.pending === true)
      throw new MemoryError('internal', 'rows held for COPY were not written first');
    return this.#q;
  }

  // Held for COPY: an import batch (it preloaded), outside any savepoint, on a store that copies.
  #holding(): CopyBatch | null {
    return this.#batch && this.#savepoints === 0 ? this.#copy : null;
  }

  #later(sent: Promise<unknown>): void {
    // Its failure is thrown where it is awaited (flush, COMMIT), never as an unhandled rejection before.
    sent.catch(() => undefined);
    this.#sent.push(sent);
  }

  preload(hint: Parameters<NonNullable<StoreTx['preload']>>[0]): Promise<void> {
    this.#batch = true;
    return this.#cache.preload(this.#q, hint);
  }

  async getMemory(id: string): Promise<Memory | null> {
    if (this.#cache.absent(id)) return null;
    await this.#drain();
    return readMemory(this.#q, id);
  }

  // Claims, rejections and source items are never held: their reads need no drain (writes drain: they name memories).
  async claimFor(scope: string, key: string): Promise<Claim | null> {
    await this.#settled();
    return readClaim(this.#q, scope, key);
  }

  async setClaim(claim: Claim): Promise<void> {
    await this.#drain();
    // An upsert nobody reads: it fails only on the server (checked at the savepoint's end or the commit).
    this.#later(writeClaim(this.#q, claim));
  }

  async dropClaim(scope: string, key: string): Promise<void> {
    await this.#drain();
    return dropClaim(this.#q, scope, key);
  }

  async insertCorrection(correction: Omit<CorrectionRow, 'reason'>): Promise<void> {
    await this.#drain();
    return writeCorrection(this.#q, correction);
  }

  async recordShown(principal: string, sessionId: string, ids: string[], at: string): Promise<void> {
    await this.#drain();
    return writeShown(this.#q, principal, sessionId, ids, at);
  }

  async currentHolder(scope: string, key: string): Promise<Memory | null> {
    if (this.#copy?.mayHold(scope, key) === true) await this.#drain();
    else {
      // Looked up ahead, and no write of this transaction has touched it since (lookup-cache.ts).
      const known = this.#cache.holder(scope, key);
      if (known !== undefined) return known === null ? null : toMemory(known);
      await this.#settled();
    }
    const row = await readHolder(this.#q, scope, key);
    return row === undefined ? null : toMemory(row);
  }

  async findRejection(scope: string, fingerprints: readonly string[]): Promise<Rejection | null> {
    // One statement for every identity (none when preloaded); the first identity with a standing rejection wins.
    await this.#settled();
    const rows =
      this.#cache.standing(scope) ??
      (await run<RejectionRow>(
        this.#q,
        `select ${REJECTION_COLUMNS} from memledger.rejections
         where scope = $1 and fingerprint = any($2::text[]) and lifted_at is null`,
        [scope, [...fingerprints]],
      ));
    for (const fp of fingerprints) {
      const row = rows.find((r) => r.fingerprint === fp);
      if (row !== undefined) return toRejection(row);
    }
    return null;
  }

  async liftRejections(
    scope: string,
    fingerprints: readonly string[],
    lift: RejectionLift,
  ): Promise<Rejection[]> {
    this.#cache.rejectionsChanged(scope);
    await this.#drain();
    return liftStanding(this.#q, scope, fingerprints, lift);
  }

  async liveClaims(scope: string, fingerprint: string): Promise<Memory[]> {
    await this.#drain();
    return readLiveClaims(this.#q, scope, fingerprint);
  }

  async sourceItem(connector: string, scope: string, itemId: string): Promise<string | null> {
    await this.#settled();
    return readSourceItem(this.#q, connector, scope, itemId);
  }

  async insertSourceItem(item: SourceItem): Promise<void> {
    await this.#drain();
    return writeSourceItem(this.#q, item);
  }

  async insertMemory(memory: NewMemory): Promise<void> {
    this.#cache.inserted(memory.id);
    if (memory.key !== null && memory.state === 'active') this.#cache.holderChanged(memory.scope, memory.key);
    const holding = this.#holding();
    if (holding !== null) {
      // An id held already is written first, so its unique index, not the staging join, sees the repeat.
      if (holding.hasMemory(memory.id)) await this.#drain();
      holding.addMemory(memory);
      return;
    }
    await this.#drain();
    if (this.#batch && this.#savepoints === 0) {
      // The batch's next line goes out behind it. A refusal (no row) or a failure is found before COMMIT, and
      // the whole batch is replayed line by line, where each insert waits and names the winner.
      this.#later(sendChecked(this.#q, memory));
    } else if (this.#optimistic && this.#savepoints === 0) {
      // One round trip less: nothing waits for the row, COMMIT goes out behind it. A refusal fails the strict
      // statement on the server; the store then runs the transaction again, waiting here to name the winner.
      const { text, params } = insertMemoryStatement(memory, true);
      this.#later(
        send(this.#q, text, params).catch((error: unknown) => {
          this.#optimisticFailed = true;
          throw error;
        }),
      );
    } else await insertWaiting(this.#q, memory);
  }

  async setLifecycle(id: string, change: LifecycleChange): Promise<void> {
    this.#cache.holdersChanged();
    await this.#drain();
    const before = await readMemoryRow(this.#q, id);
    if (before === undefined) throw new MemoryError('not_found', `no memory ${id}`);
    if (!(await updateLifecycle(this.#q, id, before, change))) return;
    // The search documents are a projection of state, as SQLite's two FTS5 indexes.
    const wasActive = before.state === 'active';
    const after = change.state ?? before.state;
    const seq = Number(before.seq);
    if (wasActive && after !== 'active') {
      const memory = toMemory(before);
      this.#later(removeDoc(this.#q, 'current', seq, memory));
      if (after !== 'erased') this.#later(insertDoc(this.#q, 'history', seq, memory));
    }
    if (!wasActive && after === 'active') this.#later(insertDoc(this.#q, 'current', seq, toMemory(before)));
  }

  async insertEvent(event: MemoryEvent): Promise<void> {
    this.#cache.eventInserted(event.id);
    const holding = this.#holding();
    if (holding !== null && !holding.hasEvent(event.id)) {
      holding.addEvent(event);
      return;
    }
    await this.#drain();
    // Nobody reads its result: sent, and checked at the savepoint's end or the commit.
    this.#later(send(this.#q, INSERT_EVENT, eventValues(event)));
  }

  async hasEvent(id: string): Promise<boolean> {
    if (this.#copy?.hasEvent(id) === true) return true;
    if (this.#cache.eventAbsent(id)) return false;
    await this.#drain();
    return (await one(this.#q, 'select 1 from memledger.events where id = $1', [id])) !== undefined;
  }

  async eventsOf(memoryId: string): Promise<MemoryEvent[]> {
    await this.#drain();
    return readEvents(this.#q, memoryId);
  }

  async rejectionsOf(memoryId: string): Promise<Rejection[]> {
    await this.#settled();
    return readRejections(this.#q, memoryId);
  }

  async insertRejection(r: Rejection): Promise<void> {
    this.#cache.rejectionsChanged(r.scope);
    await this.#drain();
    await writeRejection(this.#q, r);
  }

  async component(id: string): Promise<Memory[]> {
    await this.#drain();
    return readComponent(this.#q, id);
  }

  async memoriesAboutSubject(subject: string): Promise<Memory[]> {
    await this.#drain();
    const rows = await run<MemoryRow>(
      this.#q,
      `select ${MEMORY_COLUMNS} from memledger.memory_subjects s join memledger.memories m on m.seq = s.memory_seq
       where s.subject = $1`,
      [subject],
    );
    return rows.map(toMemory);
  }

  async memoriesByProvenance(selector: ProvenanceSelector): Promise<Memory[]> {
    await this.#drain();
    return readByProvenance(this.#q, selector);
  }

  async enqueueNotification(event: NotifyEvent): Promise<number> {
    await this.#drain();
    return enqueuePostgres(this.#q, event);
  }

  async rotateHashKey(at: string): Promise<void> {
    await this.#drain();
    await rotateHashKey(this.#q, at);
  }

  async savepoint<T>(fn: () => Promise<T>): Promise<T> {
    // Held rows are the transaction's, not the savepoint's: written before it opens.
    await this.#drain();
    const outer = this.#q;
    const mark = this.#sent.length;
    this.#savepoints++;
    try {
      return (await outer.savepoint(async (sp) => {
        this.#q = sp;
        try {
          const out = await fn();
          // A write sent inside the savepoint fails inside it, so the savepoint, not the transaction, rolls back.
          await this.flush();
          return out;
        } catch (error) {
          // Rolled back with the savepoint: their outcome is no longer the transaction's.
          this.#sent.splice(mark);
          throw error;
        } finally {
          this.#q = outer;
        }
      })) as T;
    } finally {
      this.#q = outer;
      this.#savepoints--;
    }
  }

  async erase(record: ErasureRecord): Promise<void> {
    this.#cache.erased();
    await this.#drain();
    await eraseMemories(this.#q, record.memoryIds, record.at);
    await this.insertErasure(record);
  }

  async insertErasure(record: ErasureRecord): Promise<boolean> {
    await this.#drain();
    return insertErasure(this.#q, record);
  }
}
