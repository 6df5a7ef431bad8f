/**
 * reviewWatch: the review queue as a stream of pulses (how many writes wait, which is newest), for a console
 * that shows the count everywhere and refreshes when a proposal arrives. One audited call opens the watch;
 * the ticks after it are the same read and are not audited again, so an open console cannot flood the audit.
 * Each tick first asks the surface whether the credential still holds; a revoked one ends the watch, audited.
 */
import { z } from 'zod';
import { assertRole, inFilter, readFilter } from '../policy/access.ts';
import type { ChangeFeed } from '../store/port.ts';
import type { Deps } from './deps.ts';
import { readableScopes } from './scopes.ts';

/** The shortest time between two reads of the queue by one watch. */
const MIN_INTERVAL_MS = 200;

/** Counting stops here: a console shows "1000+" rather than reading an unbounded queue every tick. */
export const PULSE_CAP = 1000;

export const reviewWatchInputSchema = z
  .object({
    /** Time between reads of the queue. */
    intervalMs: z.number().int().min(MIN_INTERVAL_MS).max(60_000).default(2000),
    /** The watch ends after this long; a client reconnects, which checks its credential again. */
    maxMs: z.number().int().min(1000).max(3_600_000).default(300_000),
  })
  .strict();
export type ReviewWatchInput = z.input<typeof reviewWatchInputSchema>;

/**
 * How a surface lets an open watch ask whether the credential it was opened with still holds: resolves while it
 * does, throws a MemoryError (`permission`) once it was revoked. Asked before every tick, so a revoked token's
 * stream ends within one interval instead of counting the queue until `maxMs`.
 */
export type CredentialCheck = () => void | Promise<void>;

export interface ReviewWatchOptions {
  credential?: CredentialCheck;
}

export interface ReviewPulse {
  /** Held writes in the readable scopes, up to PULSE_CAP. */
  pending: number;
  /** True when there are more than `pending`. */
  more: boolean;
  /** The newest held write, so a new proposal is noticed even when another left the queue in the same tick. */
  newest: string | null;
  /** Whether this pulse differs from the one before it (the first is always a change). */
  changed: boolean;
}

/** One read of the queue, with the same role and grants as the review list (I4). */
export async function reviewPulse(deps: Deps, previous: ReviewPulse | null): Promise<ReviewPulse> {
  assertRole(deps.principal, 'reviewer', 'watch the review queue');
  const filter = readFilter(deps.principal);
  const rows = await deps.store.list({
    scopes: readableScopes(deps.principal),
    states: ['held'],
    limit: PULSE_CAP + 1,
  });
  const held = rows.filter((m) => inFilter(filter, m.scope));
  const pending = Math.min(held.length, PULSE_CAP);
  const newest = held[0]?.id ?? null;
  const changed = previous === null || previous.pending !== pending || previous.newest !== newest;
  return { pending, more: held.length > PULSE_CAP, newest, changed };
}

/**
 * The ticks after the first pulse: one pulse per interval (changed or not, so the consumer can send a
 * keep-alive and a closed connection is noticed within one interval), until `maxMs` has passed or `read`
 * throws (a revoked credential: the session's read checks it first). Where the store announces other
 * processes' writes (`changes`: Postgres replicas), a write wakes the watch before its interval is over, but
 * never sooner than the smallest interval after the last read, so a burst of writes cannot flood the queue
 * with reads.
 */
export async function* reviewTicks(
  read: (previous: ReviewPulse) => Promise<ReviewPulse>,
  first: ReviewPulse,
  options: z.output<typeof reviewWatchInputSchema>,
  changes?: { feed: ChangeFeed; seen: number },
): AsyncGenerator<ReviewPulse> {
  const until = performance.now() + options.maxMs;
  let last = first;
  let seen = changes?.seen ?? 0;
  while (performance.now() + MIN_INTERVAL_MS <= until) {
    const readAt = performance.now();
    if (changes === undefined) {
      if (readAt + options.intervalMs > until) return;
      await sleep(options.intervalMs);
    } else {
      await changes.feed.wait(seen, Math.min(options.intervalMs, until - readAt));
      const gap = MIN_INTERVAL_MS - (performance.now() - readAt);
      if (gap > 0) await sleep(gap);
      // Taken before the read: a change during it wakes the next wait at once.
      seen = changes.feed.seen;
    }
    last = await read(last);
    yield last;
  }
}

/** An unreferenced timer: an open watch never keeps a stopping server's process alive. */
const sleep = (ms: number) =>
  new Promise<void>((resolve) => {
    setTimeout(resolve, ms).unref();
  });
