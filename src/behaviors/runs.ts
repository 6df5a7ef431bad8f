/**
 * `behaviors runs NAME`: each run with what it consumed (the linked ids), what it wrote and the verdicts on
 * those outputs (their state now), and the corrections reviewers made to them. Outputs in scopes the caller
 * cannot read are counted, never shown (I4).
 */
import { MemoryError } from '../model/errors.ts';
import type { State } from '../model/memory.ts';
import { assertRole, can } from '../policy/access.ts';
import type { Deps } from '../ledger/deps.ts';
import type { RunState } from '../store/behaviors-port.ts';
import { checkName } from './manage.ts';

export interface RunReport {
  id: string;
  version: number;
  state: RunState;
  /** A leased run whose lease ran out: it linked nothing. */
  expired: boolean;
  startedBy: string;
  startedAt: string;
  endedAt: string | null;
  failure: string | null;
  depth: number;
  consumed: string[];
  outputs: { id: string; state: State; scope: string; kind: string }[];
  hiddenOutputs: number;
  corrections: { proposalId: string; action: string; by: string; at: string }[];
}

export async function behaviorRuns(deps: Deps, name: string, limit = 20): Promise<RunReport[]> {
  assertRole(deps.principal, 'reader', 'read behavior runs');
  checkName(name);
  if ((await deps.store.behaviors.behavior(name)) === null) {
    throw new MemoryError('not_found', `no behavior named ${name}`);
  }
  const now = deps.now();
  const out: RunReport[] = [];
  for (const run of await deps.store.behaviors.runs(name, Math.min(Math.max(limit, 1), 200))) {
    const memories = (await deps.store.getMemories(run.outputs)).filter((m) => m !== null);
    const readable = memories.filter((m) => can(deps.principal, 'read', m.scope));
    const events = await deps.store.eventsFor(readable.map((m) => m.id));
    out.push({
      id: run.id,
      version: run.version,
      state: run.state,
      expired: run.state === 'leased' && run.leaseUntil <= now,
      startedBy: run.startedBy,
      startedAt: run.startedAt,
      endedAt: run.endedAt,
      failure: run.failure,
      depth: run.depth,
      consumed: run.state === 'finished' ? await deps.store.behaviors.consumed(run.id) : [],
      outputs: readable.map((m) => ({ id: m.id, state: m.state, scope: m.scope, kind: m.kind })),
      hiddenOutputs: run.outputs.length - readable.length,
      corrections: events
        .filter((e) => e.type === 'corrected')
        .map((e) => ({
          proposalId: e.memoryId,
          action: String(e.detail.action ?? ''),
          by: e.actor,
          at: e.at,
        })),
    });
  }
  return out;
}
