/**
 * The audit outbox on SQLite (memory.db's `audit_outbox`, migration 7): a call's audit record is upserted just
 * before the COMMIT of each of its transactions, so the change and its record land together (I8). Rows whose
 * records audit.db holds are deleted inside the next transaction, so clearing them never costs a commit of its
 * own; at close, whatever is left to delete goes in one short transaction.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { AuditOutbox, PendingOutboxRow, TransactionOptions } from '../port.ts';

/** How long a closing process waits for the write lock to tidy its outbox; a row left is tidied on a later open. */
const CLOSE_BUSY_MS = 250;

export class SqliteAuditOutbox implements AuditOutbox {
  readonly #db: DatabaseSync;
  readonly #isOpen: () => boolean;
  /** Ids audit.db holds, waiting to be deleted with the next commit. Appended only, so a prefix can be taken. */
  readonly #drops: string[] = [];
  #sql: ReturnType<typeof prepare> | undefined;

  constructor(db: DatabaseSync, isOpen: () => boolean) {
    this.#db = db;
    this.#isOpen = isOpen;
  }

  /** A home is on one machine (WAL needs shared memory), so its rows carry no host: they are all of this one. */
  pending(): PendingOutboxRow[] {
    if (!this.#isOpen()) return [];
    return (this.#statements().all.all() as { id: string; pid: number; record: string }[]).map((r) => ({
      id: r.id,
      pid: Number(r.pid),
      host: null,
      ageMs: null,
      record: r.record,
    }));
  }

  /** `pending()` reads the table each time. */
  reload(): Promise<void> {
    return Promise.resolve();
  }

  flushed(ids: readonly string[]): void {
    this.#drops.push(...ids);
  }

  /**
   * Runs inside the transaction, just before COMMIT: the call's row, and the deletion of flushed rows. Returns
   * how many flushed ids it deleted, for `committed`. The row is written whether or not the transaction changed
   * anything: asking SQLite that (total_changes) twice per commit cost more than the row itself.
   */
  beforeCommit(options: TransactionOptions | undefined): number {
    if (options?.outbox !== undefined) {
      const row = options.outbox();
      this.#statements().put.run(row.id, row.pid, row.record);
    }
    return this.#deleteFlushed();
  }

  /** The transaction committed: the ids it deleted are gone. A rollback keeps them queued for the next one. */
  committed(deleted: number): void {
    if (deleted > 0) this.#drops.splice(0, deleted);
  }

  /** At close: delete what is still queued, waiting briefly for the lock; a busy home keeps the rows for later. */
  drainAtClose(): void {
    if (this.#drops.length === 0 || this.#db.isTransaction) return;
    try {
      this.#db.exec(`PRAGMA busy_timeout = ${CLOSE_BUSY_MS}`);
      this.#db.exec('BEGIN IMMEDIATE');
      const deleted = this.#deleteFlushed();
      this.#db.exec('COMMIT');
      this.committed(deleted);
    } catch {
      // Left rows are moved again by a later open: audit.db ignores an id it holds, so nothing doubles.
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
    }
  }

  #deleteFlushed(): number {
    const n = this.#drops.length;
    if (n === 0) return 0;
    const sql = this.#statements();
    if (n === 1) sql.dropOne.run(this.#drops[0]!);
    else sql.dropMany.run(JSON.stringify(this.#drops.slice(0, n)));
    return n;
  }

  #statements(): ReturnType<typeof prepare> {
    this.#sql ??= prepare(this.#db);
    return this.#sql;
  }
}

function prepare(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    all: p(`SELECT id, pid, record FROM audit_outbox ORDER BY id`),
    put: p(`INSERT OR REPLACE INTO audit_outbox (id, pid, record) VALUES (?, ?, ?)`),
    dropOne: p(`DELETE FROM audit_outbox WHERE id = ?`),
    dropMany: p(`DELETE FROM audit_outbox WHERE id IN (SELECT value FROM json_each(?))`),
  } satisfies Record<string, StatementSync>;
}
