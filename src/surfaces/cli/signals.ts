/**
 * Ctrl-C and SIGTERM for commands that stop cleanly between steps (an import between batches): the first signal
 * aborts, so the command finishes the step in flight, reports and exits 128 + the signal's number (130 for
 * SIGINT, 143 for SIGTERM); a second one meets Node's default and ends the process at once, which still writes
 * nothing half-way, since every step is a transaction.
 */
import { constants } from 'node:os';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

export interface SignalStop {
  signal: AbortSignal;
  /** The conventional exit code for the signal that arrived, if one did. */
  exitCode(): number | undefined;
  /** Removes the handlers: after the command, signals behave as Node's default again. */
  dispose(): void;
}

export function abortOnSignals(onAbort?: () => void): SignalStop {
  const controller = new AbortController();
  let received: (typeof SIGNALS)[number] | undefined;
  const handlers = SIGNALS.map((name) => {
    const handler = () => {
      received ??= name;
      for (const [n, h] of handlers) process.off(n, h);
      controller.abort(name);
      onAbort?.();
    };
    process.once(name, handler);
    return [name, handler] as const;
  });
  return {
    signal: controller.signal,
    exitCode: () => (received === undefined ? undefined : 128 + constants.signals[received]),
    dispose: () => {
      for (const [n, h] of handlers) process.off(n, h);
    },
  };
}
