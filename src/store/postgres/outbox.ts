/**
 * The audit outbox on Postgres (`audit_outbox`), the same mechanism as SQLite's outbox.ts: a call's audit record
 * is upserted just before COMMIT of each of its transactions (I8), and rows the audit store holds are deleted
 * inside the next transaction. `pending()` is synchronous by the port (a ledger reads it while opening), so the
 * rows are read once when the store opens (open.ts) and served from that snapshot, each with its writer's host
 * and its age by the database's clock (one clock for every replica, so no machine's skew moves a lease).
 */
import type { AuditOutbox, PendingOutboxRow, TransactionOptions } from '../port.ts';
import { type Q, run, send } from './statements.ts';

export class PostgresAuditOutbox implements AuditOutbox {
  #snapshot: PendingOutboxRow[] = [];
  /** Runs a read in the store's tenant: how `reload` reaches the table. */
  readonly #read: (fn: (q: Q) => Promise<void>) => Promise<void>;
  /** Ids the audit store holds, waiting to be deleted with the next commit. */
  readonly #drops: string[] = [];

  constructor(read: (fn: (q: Q) => Promise<void>) => Promise<void>) {
    this.#read = read;
  }

  /** Reads the rows waiting again (a periodic recovery): a fresh snapshot, minus what is queued for deletion. */
  reload(): Promise<void> {
    return this.#read((q) => this.load(q));
  }

  /** Reads the rows waiting; called by open.ts before the store is handed out. */
  async load(q: Q): Promise<void> {
    this.#snapshot = (
      await run<{ id: string; pid: number; host: string; age_ms: number; record: string }>(
        q,
        // A row with no host (written before migration 2) is nobody's on this machine: it waits out the lease.
        `select id, pid, coalesce(host, '') as host, record,
                extract(epoch from clock_timestamp() - written_at) * 1000 as age_ms
         from memledger.audit_outbox order by id`,
      )
    ).map((r) => ({ id: r.id, pid: Number(r.pid), host: r.host, ageMs: Number(r.age_ms), record: r.record }));
  }

  pending(): PendingOutboxRow[] {
    const dropped = new Set(this.#drops);
    return this.#snapshot.filter((r) => !dropped.has(r.id));
  }

  flushed(ids: readonly string[]): void {
    this.#drops.push(...ids);
  }

  /**
   * Inside the transaction, just before COMMIT: the call's row and the deletion of flushed rows, sent together;
   * the caller waits for `sent` before COMMIT (a COMMIT after a failed statement would roll back silently).
   */
  beforeCommit(q: Q, options: TransactionOptions | undefined): { deleted: number; sent: Promise<unknown>[] } {
    const sent: Promise<unknown>[] = [];
    if (options?.outbox !== undefined) {
      const row = options.outbox();
      sent.push(
        send(
          q,
          `insert into memledger.audit_outbox (id, pid, host, record, written_at) values ($1, $2, $3, $4, now())
           on conflict (tenant, id) do update
             set pid = excluded.pid, host = excluded.host, record = excluded.record, written_at = excluded.written_at`,
          [row.id, row.pid, row.host, row.record],
        ),
      );
    }
    const n = this.#drops.length;
    if (n > 0)
      sent.push(
        send(q, 'delete from memledger.audit_outbox where id = any($1::text[])', [this.#drops.slice(0, n)]),
      );
    return { deleted: n, sent };
  }

  /** The transaction committed: the ids it deleted are gone. A rollback keeps them queued. */
  committed(deleted: number): void {
    if (deleted === 0) return;
    const gone = new Set(this.#drops.splice(0, deleted));
    this.#snapshot = this.#snapshot.filter((r) => !gone.has(r.id));
  }

  /** Ids still to delete, for the store's close. */
  takeDrops(): string[] {
    return this.#drops.splice(0);
  }
}
