/**
 * The part of the Store port that notifications need (src/notify): who gets which events (targets), the
 * deliveries queued for them with their lease and log, and the Slack request signatures already seen. Kept apart
 * from port.ts: a delivery is transport state about a memory, never memory content. A target names the
 * environment variables its secrets are read from, never the secrets themselves (I10).
 */

/** The events a target may subscribe to. */
export const NOTIFY_EVENT_TYPES = ['held', 'run_outputs_waiting', 'commitment_due'] as const;
export type NotifyEventType = (typeof NOTIFY_EVENT_TYPES)[number];

/**
 * One event to notify, as it is queued: ids, a scope, a kind and who, never a body, key, subject or reason, so
 * a queued row needs nothing from erasure (I9). The message is rendered at send time from the current memory.
 */
export interface NotifyEvent {
  type: NotifyEventType;
  /** The memory (held, commitment_due) or the run (run_outputs_waiting) the event is about. */
  ref: string;
  scope: string;
  /** The memory's kind, where there is one memory. */
  kind?: string;
  /** Who proposed the write or owns the commitment, as a principal label (`agent:claude-code`). */
  actor: string;
  /** The gate rule that held a write. */
  rule?: string;
  /** A run's outputs waiting for review: their memory ids. */
  ids?: string[];
  /** A commitment's due time. */
  dueAt?: string;
  /** A behavior's name (run_outputs_waiting). */
  behavior?: string;
  at: string;
}

export type TargetKind = 'webhook' | 'slack';

export interface NotifyTarget {
  id: string;
  kind: TargetKind;
  url: string;
  events: NotifyEventType[];
  /** The environment variable holding the HMAC secret (webhook) or Slack's signing secret (slack). */
  secretEnv: string;
  /** Slack user id → memledger principal label (`human:alice`); empty for a webhook. */
  users: Record<string, string>;
  /** Whether messages carry the memory's body (default false: see README, Notifications). */
  includeBody: boolean;
  createdAt: string;
  createdBy: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** A delivery as the log shows it: attempts, the last status code and error class, never a message body. */
export interface Delivery {
  id: string;
  targetId: string;
  event: NotifyEvent;
  status: DeliveryStatus;
  attempts: number;
  nextAt: string;
  lastAttemptAt: string | null;
  lastStatus: number | null;
  /** `http_5xx`, `http_4xx`, `network`, `timeout`, `secret_missing`, `target_gone`: a class, never a message. */
  lastError: string | null;
  createdAt: string;
  deliveredAt: string | null;
}

/** A delivery claimed for one attempt, with its target. */
export interface ClaimedDelivery extends Delivery {
  target: NotifyTarget;
}

export interface DeliveryOutcome {
  status: DeliveryStatus;
  /** When to try again (status `pending`). */
  nextAt?: string;
  httpStatus: number | null;
  error: string | null;
  at: string;
}

export interface NotifyStore {
  addTarget(target: NotifyTarget): Promise<void>;
  listTargets(): Promise<NotifyTarget[]>;
  /** Removes a target and its pending deliveries (the log of finished ones stays); false when there was none. */
  removeTarget(id: string): Promise<boolean>;
  /**
   * Claims up to `limit` due deliveries for one attempt each: pending, due by `now`, and not leased by a live
   * claim. Each claimed row's attempts count goes up and its lease runs to `leaseUntil`, in one transaction, so
   * two processes (or replicas) never claim one delivery for the same attempt.
   */
  claim(holder: string, now: string, leaseUntil: string, limit: number): Promise<ClaimedDelivery[]>;
  /** Records an attempt's outcome; ignored (false) unless `holder` still holds the delivery's lease. */
  finish(id: string, holder: string, outcome: DeliveryOutcome): Promise<boolean>;
  /**
   * Deletes up to `limit` finished deliveries (delivered or failed for good) whose last attempt was before
   * `before`, oldest first; returns how many. Pending ones are never pruned, whatever their age.
   */
  pruneFinished(before: string, limit: number): Promise<number>;
  /** The delivery log, newest first. */
  deliveries(filter: { status?: DeliveryStatus; limit: number }): Promise<Delivery[]>;
  /** Notes a Slack request signature; false when it was seen already (a replay). Drops ones seen before `staleBefore`. */
  firstSighting(signature: string, at: string, staleBefore: string): Promise<boolean>;
}
