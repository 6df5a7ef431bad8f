/**
 * `behaviors run NAME --exec CMD`: runs an operator's command once per outstanding window, for users who drive an
 * agent CLI from cron. The window is JSON on the command's stdin; its stdout is JSON outputs (an array of writes,
 * or `{ "outputs": [...] }`). A command that exits non-zero, times out or prints anything else fails the run,
 * which links nothing (I17). memledger never calls a model itself: the command does the thinking.
 */
import { spawn } from 'node:child_process';
import type { LedgerSession } from '../ledger/session.ts';
import { asMemoryError, MemoryError } from '../model/errors.ts';
import type { CompleteResult } from './complete.ts';

export interface ExecOptions {
  timeoutMs: number;
  /** Windows run at most (each claims one lease). */
  maxWindows: number;
  env?: NodeJS.ProcessEnv;
}

export interface ExecRun {
  run: string;
  events: number;
  fired: number;
  outcome: 'finished' | 'failed';
  /** Why it failed: an exit code, a timeout, unreadable output, or the completion's error class. */
  failure?: string;
  outputs?: CompleteResult['outputs'];
}

const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

export async function execBehavior(
  session: LedgerSession,
  name: string,
  command: string,
  options: ExecOptions,
): Promise<ExecRun[]> {
  const runs: ExecRun[] = [];
  for (let i = 0; i < options.maxWindows; i++) {
    const window = await session.behaviors.next(name);
    if (window === null) break;
    const base = { run: window.run, events: window.events.length, fired: window.fired.length };
    let outputs: unknown[];
    try {
      outputs = parseOutputs(
        await runCommand(command, JSON.stringify({ ...window, token: undefined }), options),
      );
    } catch (error) {
      await session.behaviors.fail({ run: window.run, token: window.token });
      runs.push({ ...base, outcome: 'failed', failure: (error as Error).message });
      continue;
    }
    try {
      const done = await session.behaviors.complete({
        run: window.run,
        token: window.token,
        outputs: outputs as Record<string, unknown>[],
      });
      runs.push({ ...base, outcome: 'finished', outputs: done.outputs });
    } catch (error) {
      const failure = asMemoryError(error);
      await session.behaviors.fail({ run: window.run, token: window.token }).catch(() => undefined);
      runs.push({ ...base, outcome: 'failed', failure: `${failure.class}: ${failure.message}` });
    }
  }
  return runs;
}

function parseOutputs(stdout: string): unknown[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new MemoryError('invalid_input', 'the command did not print JSON outputs');
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { outputs?: unknown } | null)?.outputs;
  if (!Array.isArray(list)) throw new MemoryError('invalid_input', 'the command printed no outputs array');
  return list;
}

/** Runs CMD through the shell, the window on stdin; resolves with stdout when it exits 0 in time. */
function runCommand(command: string, input: string, options: ExecOptions): Promise<string> {
  return new Promise((resolve, reject) => {
    // Its own process group: the shell's children go with it when it is stopped, and hold no pipe of ours open.
    const child = spawn(command, {
      shell: true,
      detached: true,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: options.env,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
      child.stdout.destroy();
    };
    const timer = setTimeout(() => {
      stop();
      reject(new MemoryError('upstream', `the command timed out after ${options.timeoutMs} ms`));
    }, options.timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_OUTPUT_BYTES) stop();
      else chunks.push(c);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new MemoryError('upstream', `the command could not start: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(Buffer.concat(chunks).toString('utf8'));
      else reject(new MemoryError('upstream', `the command exited with ${code ?? signal}`));
    });
    // A command that never reads its stdin must not fail the write with EPIPE.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  });
}
