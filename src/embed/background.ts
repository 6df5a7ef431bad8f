/**
 * The embedding queue's drain in a long-running process (`serve`, `mcp`): every few seconds, whatever was
 * written since (by this process or another) gets its vector, so searches rarely find a candidate without one.
 * The timer never keeps the process alive, and a failed drain is retried on the next tick.
 */
import type { Ledger } from '../ledger/ledger.ts';

const EVERY_MS = 2_000;

/** Starts draining; returns the stop function. Does nothing for a ledger without an embedder. */
export function drainInBackground(ledger: Ledger, everyMs = EVERY_MS): () => void {
  if (ledger.semantic === undefined) return () => undefined;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    ledger
      .embedPending()
      .catch((error: unknown) => {
        process.emitWarning(`memledger: embedding queued memories failed: ${(error as Error).message}`);
      })
      .finally(() => {
        running = false;
      });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
