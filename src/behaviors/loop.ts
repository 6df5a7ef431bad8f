/**
 * The scheduler's loop, for `memledger scheduler` and inside `memledger serve`: one tick now, then one per
 * interval. A failed tick is warned and the loop goes on; the store decides exactly-once, not this loop.
 */
import type { LedgerSession } from '../ledger/session.ts';

/** Starts ticking; the returned function stops it and waits for a tick in flight. */
export function runScheduler(session: LedgerSession, options: { intervalMs: number }): () => Promise<void> {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  const tick = () => {
    current = session.behaviors
      .tick()
      .then(() => undefined)
      .catch((error: Error) => process.emitWarning(`memledger scheduler: a tick failed: ${error.message}`));
  };
  tick();
  const timer = setInterval(() => {
    if (!stopped) tick();
  }, options.intervalMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await current;
  };
}
