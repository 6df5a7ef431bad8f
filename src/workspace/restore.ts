/**
 * Restoring a snapshot in a child process (restore-child.ts) with a timeout: decompression bombs, corrupt and
 * truncated files are expected states, and none of them may cost the serving process its memory or its time.
 * A child that runs out of time, dies or says nothing readable is a `reset`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sibling } from '../sibling.ts';
import type { RestoreReport, RestoreRequest } from './restore-file.ts';

/** The child's entry beside this file (`.ts` from source, `.js` once built). */
const CHILD = fileURLToPath(sibling(import.meta.url, 'restore-child'));

export async function restoreInChild(request: RestoreRequest, timeoutMs: number): Promise<RestoreReport> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--disable-warning=ExperimentalWarning', CHILD, JSON.stringify(request)],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    let out = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      // One line of counts is expected; a child writing more is not believed.
      if (out.length < 1_000_000) out += chunk;
    });
    const settle = (report: RestoreReport) => {
      clearTimeout(timer);
      resolve(report);
    };
    child.on('error', () => settle({ outcome: 'reset', reason: 'the restore process could not start' }));
    child.on('close', () => {
      if (timedOut)
        return settle({ outcome: 'reset', reason: `the restore took longer than ${timeoutMs} ms` });
      try {
        settle(JSON.parse(out.trim()) as RestoreReport);
      } catch {
        settle({ outcome: 'reset', reason: 'the restore process ended without a report' });
      }
    });
  });
}
