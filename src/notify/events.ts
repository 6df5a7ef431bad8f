/**
 * The notification events and the one function every part of the ledger calls to raise one: `notify(tx, event)`
 * queues a delivery per subscribed target in the caller's transaction, so the notification commits or rolls back
 * with the change it announces (a crash after COMMIT loses none; a rolled-back write announces nothing). The
 * deliverer (deliverer.ts) sends them later, off the write path.
 */
import type { NotifyEvent, NotifyEventType } from '../store/notify-port.ts';
import type { StoreTx } from '../store/port.ts';

export type { NotifyEvent, NotifyEventType };
export { NOTIFY_EVENT_TYPES } from '../store/notify-port.ts';

/**
 * Queues `event` for every target subscribed to its type; returns how many deliveries were queued (0: nobody
 * listens). Call it inside the transaction that makes the change. The event carries ids, a scope, a kind and
 * principal labels only, never memory content: the message is rendered from the current memory when it is sent.
 * @example
 * await notify(tx, { type: 'commitment_due', ref: memoryId, scope, kind: 'commitment', actor: owner, dueAt, at: now });
 * await notify(tx, { type: 'run_outputs_waiting', ref: runId, behavior: name, scope, ids: heldIds, actor, at: now });
 */
export function notify(tx: StoreTx, event: NotifyEvent): Promise<number> {
  return tx.enqueueNotification(event);
}
