/** Notification targets, deliveries and Slack signatures on SQLite (migration 13), statements prepared once. */
import type { DatabaseSync } from 'node:sqlite';
import type {
  ClaimedDelivery,
  Delivery,
  DeliveryOutcome,
  DeliveryStatus,
  NotifyEvent,
  NotifyStore,
  NotifyTarget,
} from '../notify-port.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;
/** The store's write transaction (BEGIN IMMEDIATE): two processes claiming on one home serialise on it. */
type Write = <T>(fn: () => T) => Promise<T>;

export interface TargetDbRow {
  id: string;
  kind: 'webhook' | 'slack';
  url: string;
  events: string | string[];
  secret_env: string;
  users: string;
  include_body: number | boolean;
  created_at: string;
  created_by: string;
}

export interface DeliveryDbRow {
  id: string;
  target_id: string;
  event: string;
  status: DeliveryStatus;
  attempts: number;
  next_at: string;
  last_attempt_at: string | null;
  last_status: number | null;
  last_error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export const DELIVERY_COLUMNS =
  'id, target_id, event, status, attempts, next_at, last_attempt_at, last_status, last_error, created_at, delivered_at';
const TARGET_COLUMNS = 'id, kind, url, events, secret_env, users, include_body, created_at, created_by';

/**
 * Queues one delivery per target subscribed to the event, in the caller's transaction; returns how many.
 * @example enqueueSqlite(db, { type: 'held', ref: id, scope, kind, actor, at }) // in a write transaction
 */
export function enqueueSqlite(db: DatabaseSync, event: NotifyEvent): number {
  const result = db
    .prepare(
      `INSERT INTO notify_deliveries (id, target_id, event, status, attempts, next_at, created_at)
       SELECT 'dlv_' || lower(hex(randomblob(12))), t.id, ?, 'pending', 0, ?, ?
       FROM notify_targets t WHERE EXISTS (SELECT 1 FROM json_each(t.events) e WHERE e.value = ?)`,
    )
    .run(JSON.stringify(event), event.at, event.at, event.type);
  return Number(result.changes);
}

export class SqliteNotifyStore implements NotifyStore {
  readonly #sql: ReturnType<typeof prepare>;
  readonly #serial: Serial;
  readonly #write: Write;

  constructor(db: DatabaseSync, serial: Serial, write: Write) {
    this.#sql = prepare(db);
    this.#serial = serial;
    this.#write = write;
  }

  addTarget(t: NotifyTarget): Promise<void> {
    return this.#write(() => {
      this.#sql.addTarget.run(
        t.id,
        t.kind,
        t.url,
        JSON.stringify(t.events),
        t.secretEnv,
        JSON.stringify(t.users),
        t.includeBody ? 1 : 0,
        t.createdAt,
        t.createdBy,
      );
    });
  }

  listTargets(): Promise<NotifyTarget[]> {
    return this.#serial(async () => (this.#sql.targets.all() as unknown as TargetDbRow[]).map(toTarget));
  }

  removeTarget(id: string): Promise<boolean> {
    return this.#write(() => {
      this.#sql.dropPending.run(id);
      return Number(this.#sql.dropTarget.run(id).changes) > 0;
    });
  }

  claim(holder: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    return this.#write(() => {
      const rows = this.#sql.due.all(now, now, limit) as unknown as DeliveryDbRow[];
      const targets = new Map(
        (this.#sql.targets.all() as unknown as TargetDbRow[]).map((t) => [t.id, toTarget(t)]),
      );
      const claimed: ClaimedDelivery[] = [];
      for (const r of rows) {
        const target = targets.get(r.target_id);
        if (target === undefined) continue;
        this.#sql.lease.run(holder, leaseUntil, r.id);
        claimed.push({ ...toDelivery(r), attempts: r.attempts + 1, target });
      }
      return claimed;
    });
  }

  finish(id: string, holder: string, o: DeliveryOutcome): Promise<boolean> {
    return this.#write(() => {
      const changed = this.#sql.finish.run(
        o.status,
        o.nextAt ?? o.at,
        o.at,
        o.httpStatus,
        o.error,
        o.status === 'delivered' ? o.at : null,
        id,
        holder,
      );
      return Number(changed.changes) > 0;
    });
  }

  pruneFinished(before: string, limit: number): Promise<number> {
    return this.#write(() => Number(this.#sql.prune.run(before, limit).changes));
  }

  deliveries(filter: { status?: DeliveryStatus; limit: number }): Promise<Delivery[]> {
    return this.#serial(async () => {
      const rows =
        filter.status === undefined
          ? this.#sql.log.all(filter.limit)
          : this.#sql.logOf.all(filter.status, filter.limit);
      return (rows as unknown as DeliveryDbRow[]).map(toDelivery);
    });
  }

  firstSighting(signature: string, at: string, staleBefore: string): Promise<boolean> {
    return this.#write(() => {
      this.#sql.dropSeen.run(staleBefore);
      return Number(this.#sql.seen.run(signature, at).changes) > 0;
    });
  }
}

function prepare(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    addTarget: p(`INSERT INTO notify_targets (${TARGET_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    targets: p(`SELECT ${TARGET_COLUMNS} FROM notify_targets ORDER BY created_at, id`),
    dropTarget: p(`DELETE FROM notify_targets WHERE id = ?`),
    dropPending: p(`DELETE FROM notify_deliveries WHERE target_id = ? AND status = 'pending'`),
    due: p(
      `SELECT ${DELIVERY_COLUMNS} FROM notify_deliveries
       WHERE status = 'pending' AND next_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
       ORDER BY next_at, seq LIMIT ?`,
    ),
    lease: p(
      `UPDATE notify_deliveries SET lease_holder = ?, lease_until = ?, attempts = attempts + 1 WHERE id = ?`,
    ),
    finish: p(
      `UPDATE notify_deliveries SET status = ?, next_at = ?, last_attempt_at = ?, last_status = ?,
         last_error = ?, delivered_at = ?, lease_holder = NULL, lease_until = NULL
       WHERE id = ? AND lease_holder = ?`,
    ),
    // Finished rows by (status, seq): the log's own index; seq order is the order they were queued.
    prune: p(
      `DELETE FROM notify_deliveries WHERE seq IN (SELECT seq FROM notify_deliveries
         WHERE status IN ('delivered', 'failed') AND last_attempt_at < ? ORDER BY seq LIMIT ?)`,
    ),
    log: p(`SELECT ${DELIVERY_COLUMNS} FROM notify_deliveries ORDER BY seq DESC LIMIT ?`),
    logOf: p(`SELECT ${DELIVERY_COLUMNS} FROM notify_deliveries WHERE status = ? ORDER BY seq DESC LIMIT ?`),
    seen: p(`INSERT INTO slack_signatures (signature, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING`),
    dropSeen: p(`DELETE FROM slack_signatures WHERE seen_at < ?`),
  };
}

/** Both backends store the same columns; Postgres keeps `events` as text[] and `include_body` as boolean. */
export const toTarget = (r: TargetDbRow): NotifyTarget => ({
  id: r.id,
  kind: r.kind,
  url: r.url,
  events: (typeof r.events === 'string' ? JSON.parse(r.events) : r.events) as NotifyTarget['events'],
  secretEnv: r.secret_env,
  users: JSON.parse(r.users) as Record<string, string>,
  includeBody: r.include_body === true || r.include_body === 1,
  createdAt: r.created_at,
  createdBy: r.created_by,
});

export const toDelivery = (r: DeliveryDbRow): Delivery => ({
  id: r.id,
  targetId: r.target_id,
  event: JSON.parse(r.event) as NotifyEvent,
  status: r.status,
  attempts: Number(r.attempts),
  nextAt: r.next_at,
  lastAttemptAt: r.last_attempt_at,
  lastStatus: r.last_status === null ? null : Number(r.last_status),
  lastError: r.last_error,
  createdAt: r.created_at,
  deliveredAt: r.delivered_at,
});
