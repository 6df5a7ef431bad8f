/**
 * A behavior's sources at `behavior_next`: each named read-only query runs over the views of the log the
 * behavior may read (source-views.ts), in its own child process (source-child.ts) killed at the time limit.
 * A failing source is reported in the window by name, class and message, and never fails the run.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Deps } from '../ledger/deps.ts';
import { sibling } from '../sibling.ts';
import type { BehaviorDefinition, BehaviorSource } from './definition.ts';
import type { SourceReply, SourceRequest } from './source-child.ts';
import { sourceViews } from './source-views.ts';
import type { WindowEvent } from './window.ts';

const CHILD = fileURLToPath(sibling(import.meta.url, 'source-child'));

export type SourceResult =
  | { columns: string[]; rows: unknown[][]; truncated: boolean }
  | { error: { class: 'permission' | 'invalid_input'; message: string } };

/** What a source may cost: the time limit (the child is killed), and the bytes and cells shown. */
export const SOURCE_LIMITS = { timeoutMs: 5_000, maxRows: 100, maxResultBytes: 32 * 1024, maxCellChars: 400 };

/** Runs every source of `def`; `{}` when it has none (no view is built, no process started). */
export async function runSources(
  deps: Deps,
  def: BehaviorDefinition,
  events: readonly WindowEvent[],
  timeoutMs = SOURCE_LIMITS.timeoutMs,
): Promise<Record<string, SourceResult>> {
  const out: Record<string, SourceResult> = {};
  if (def.sources.length === 0) return out;
  const views = await sourceViews(deps, def, events);
  for (const s of def.sources) out[s.name] = await runOne(views, s, timeoutMs);
  return out;
}

function runOne(views: SourceRequest['views'], s: BehaviorSource, timeoutMs: number): Promise<SourceResult> {
  const request: SourceRequest = {
    views,
    sql: s.sql,
    limits: {
      maxRows: s.limit ?? SOURCE_LIMITS.maxRows,
      maxResultBytes: SOURCE_LIMITS.maxResultBytes,
      maxCellChars: SOURCE_LIMITS.maxCellChars,
    },
  };
  return new Promise((resolve) => {
    const child = fork(CHILD, [], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: ['--disable-warning=ExperimentalWarning'],
    });
    let settled = false;
    const settle = (r: SourceResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle({
        error: {
          class: 'invalid_input',
          message: `the source ran past the ${timeoutMs / 1000} s time limit and was stopped`,
        },
      });
    }, timeoutMs);
    child.on('message', (reply: SourceReply) =>
      settle(
        reply.ok
          ? { columns: reply.columns, rows: reply.rows, truncated: reply.truncated }
          : { error: { class: reply.class, message: reply.message } },
      ),
    );
    child.on('exit', () =>
      settle({ error: { class: 'invalid_input', message: 'the source process stopped' } }),
    );
    child.send(request);
  });
}
