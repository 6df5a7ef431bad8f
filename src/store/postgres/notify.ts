/** Notification targets, deliveries and Slack signatures on Postgres (migration 6), one tenant's rows by RLS. */
import type {
  ClaimedDelivery,
  Delivery,
  DeliveryOutcome,
  DeliveryStatus,
  NotifyEvent,
  NotifyStore,
  NotifyTarget,
} from '../notify-port.ts';
import {
  DELIVERY_COLUMNS,
  type DeliveryDbRow,
  type TargetDbRow,
  toDelivery,
  toTarget,
} from '../sqlite/notify.ts';
import { type Q, run } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;
type Write = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;

const TARGET_COLUMNS = 'id, kind, url, events, secret_env, users, include_body, created_at, created_by';

/** Queues one delivery per target subscribed to the event, in the caller's transaction; returns how many. */
export async function enqueuePostgres(q: Q, event: NotifyEvent): Promise<number> {
  const rows = await run(
    q,
    `insert into memledger.notify_deliveries (id, target_id, event, status, attempts, next_at, created_at)
     select 'dlv_' || replace(gen_random_uuid()::text, '-', ''), t.id, $1, 'pending', 0, $2, $2
     from memledger.notify_targets t where $3 = any(t.events) returning 1`,
    [JSON.stringify(event), event.at, event.type],
  );
  return rows.length;
}

export class PostgresNotifyStore implements NotifyStore {
  readonly #read: Read;
  readonly #write: Write;

  constructor(read: Read, write: Write) {
    this.#read = read;
    this.#write = write;
  }

  addTarget(t: NotifyTarget): Promise<void> {
    return this.#write(async (q) => {
      await run(
        q,
        `insert into memledger.notify_targets (${TARGET_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          t.id,
          t.kind,
          t.url,
          [...t.events],
          t.secretEnv,
          JSON.stringify(t.users),
          t.includeBody,
          t.createdAt,
          t.createdBy,
        ],
      );
    });
  }

  listTargets(): Promise<NotifyTarget[]> {
    return this.#read(async (q) => (await targets(q)).map(toTarget));
  }

  removeTarget(id: string): Promise<boolean> {
    return this.#write(async (q) => {
      await run(q, `delete from memledger.notify_deliveries where target_id = $1 and status = 'pending'`, [
        id,
      ]);
      return (
        (await run(q, 'delete from memledger.notify_targets where id = $1 returning 1', [id])).length > 0
      );
    });
  }

  claim(holder: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]> {
    return this.#write(async (q) => {
      // SKIP LOCKED as well as the tenant's write lock: a claim never waits on a row another replica is leasing.
      const rows = await run<DeliveryDbRow>(
        q,
        `update memledger.notify_deliveries d set lease_holder = $1, lease_until = $2, attempts = d.attempts + 1
         where d.seq in (select seq from memledger.notify_deliveries
           where status = 'pending' and next_at <= $3 and (lease_until is null or lease_until <= $3)
           order by next_at, seq limit $4 for update skip locked)
         returning ${DELIVERY_COLUMNS.split(', ')
           .map((c) => `d.${c}`)
           .join(', ')}`,
        [holder, leaseUntil, now, limit],
      );
      const byId = new Map((await targets(q)).map((t) => [t.id, toTarget(t)]));
      const claimed: ClaimedDelivery[] = [];
      for (const r of rows.sort((a, b) => a.next_at.localeCompare(b.next_at))) {
        const target = byId.get(r.target_id);
        if (target !== undefined) claimed.push({ ...toDelivery(r), target });
      }
      return claimed;
    });
  }

  finish(id: string, holder: string, o: DeliveryOutcome): Promise<boolean> {
    return this.#write(async (q) => {
      const rows = await run(
        q,
        `update memledger.notify_deliveries set status = $1, next_at = $2, last_attempt_at = $3, last_status = $4,
           last_error = $5, delivered_at = $6, lease_holder = null, lease_until = null
         where id = $7 and lease_holder = $8 returning 1`,
        [
          o.status,
          o.nextAt ?? o.at,
          o.at,
          o.httpStatus,
          o.error,
          o.status === 'delivered' ? o.at : null,
          id,
          holder,
        ],
      );
      return rows.length > 0;
    });
  }

  pruneFinished(before: string, limit: number): Promise<number> {
    return this.#write(
      async (q) =>
        (
          await run(
            q,
            `delete from memledger.notify_deliveries where seq in (select seq from memledger.notify_deliveries
               where status in ('delivered', 'failed') and last_attempt_at < $1 order by seq limit $2)
             returning 1`,
            [before, limit],
          )
        ).length,
    );
  }

  deliveries(filter: { status?: DeliveryStatus; limit: number }): Promise<Delivery[]> {
    return this.#read(async (q) => {
      const rows =
        filter.status === undefined
          ? await run<DeliveryDbRow>(
              q,
              `select ${DELIVERY_COLUMNS} from memledger.notify_deliveries order by seq desc limit $1`,
              [filter.limit],
            )
          : await run<DeliveryDbRow>(
              q,
              `select ${DELIVERY_COLUMNS} from memledger.notify_deliveries where status = $1
               order by seq desc limit $2`,
              [filter.status, filter.limit],
            );
      return rows.map(toDelivery);
    });
  }

  firstSighting(signature: string, at: string, staleBefore: string): Promise<boolean> {
    return this.#write(async (q) => {
      await run(q, 'delete from memledger.slack_signatures where seen_at < $1', [staleBefore]);
      const rows = await run(
        q,
        `insert into memledger.slack_signatures (signature, seen_at) values ($1, $2)
         on conflict do nothing returning 1`,
        [signature, at],
      );
      return rows.length > 0;
    });
  }
}

const targets = (q: Q) =>
  run<TargetDbRow>(q, `select ${TARGET_COLUMNS} from memledger.notify_targets order by created_at, id`);
