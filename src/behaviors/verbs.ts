/**
 * The behaviors verbs of a session, each one call audited like every other (I8). The modules behind them load on
 * first use, so a process that never touches behaviors (an agent's session hook) never loads them.
 */
import type { Deps } from '../ledger/deps.ts';
import type { CompleteInput, CompleteResult, FailInput } from './complete.ts';
import type { Behavior } from './manage.ts';
import type { RunReport } from './runs.ts';
import type { TickResult } from './scheduler.ts';
import type { BehaviorWindow } from './window.ts';

/** How a session runs one audited call. */
export type AuditedCall = <T>(operation: string, args: unknown, fn: (deps: Deps) => Promise<T>) => Promise<T>;

export interface BehaviorVerbs {
  /** Defines a behavior, or a new version of it (a human admin only). */
  add(definition: unknown): Promise<Behavior & { changed: boolean }>;
  list(): Promise<Behavior[]>;
  show(name: string): Promise<Behavior>;
  disable(name: string): Promise<{ name: string; disabled: true }>;
  /** Claims the outstanding window under a lease; null when nothing is outstanding. */
  next(name: string): Promise<BehaviorWindow | null>;
  complete(input: CompleteInput): Promise<CompleteResult>;
  fail(input: FailInput): Promise<{ run: string; state: 'failed' }>;
  runs(name: string, limit?: number): Promise<RunReport[]>;
  /** One scheduler tick: fires schedule and commitment windows, each exactly once. */
  tick(): Promise<TickResult>;
}

const load = {
  manage: () => import('./manage.ts'),
  window: () => import('./window.ts'),
  complete: () => import('./complete.ts'),
  runs: () => import('./runs.ts'),
  scheduler: () => import('./scheduler.ts'),
};

export function behaviorVerbs(call: AuditedCall): BehaviorVerbs {
  return {
    add: (definition) =>
      // The audit keeps the name, never the prompt (I8).
      call('behaviors.add', { name: nameOf(definition) }, async (d) =>
        (await load.manage()).behaviorAdd(d, definition),
      ),
    list: () => call('behaviors.list', {}, async (d) => (await load.manage()).behaviorList(d)),
    show: (name) =>
      call('behaviors.show', { name }, async (d) => (await load.manage()).behaviorShow(d, name)),
    disable: (name) =>
      call('behaviors.disable', { name }, async (d) => (await load.manage()).behaviorDisable(d, name)),
    next: (name) => call('behaviors.next', { name }, async (d) => (await load.window()).nextWindow(d, name)),
    complete: (input) =>
      call('behaviors.complete', { run: input.run, outputs: input.outputs?.length ?? 0 }, async (d) =>
        (await load.complete()).completeRun(d, input),
      ),
    fail: (input) =>
      call('behaviors.fail', { run: input.run }, async (d) => (await load.complete()).failRun(d, input)),
    runs: (name, limit) =>
      call('behaviors.runs', { name, limit }, async (d) => (await load.runs()).behaviorRuns(d, name, limit)),
    tick: () => call('behaviors.tick', {}, async (d) => (await load.scheduler()).schedulerTick(d)),
  };
}

function nameOf(definition: unknown): string | null {
  const name = (definition as { name?: unknown } | null)?.name;
  return typeof name === 'string' ? name.slice(0, 63) : null;
}
