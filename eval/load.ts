/**
 * Loads a labelled set into a ledger through the public API only: remember, approve, reject, confirm and
 * retract as the file says, each at the file's time on the ledger's clock, so recorded times are realistic.
 */
import type { Kind, Ledger, LedgerSession } from '../src/index.ts';
import type { EvalMemory, EvalSet } from './format.ts';

/** A settable clock handed to openLedger as `now`: the load moves it forward to each event's time. */
export class EvalClock {
  #current: string;
  constructor(start: string) {
    this.#current = new Date(start).toISOString();
  }
  set(time: string): void {
    this.#current = new Date(time).toISOString();
  }
  readonly now = (): string => this.#current;
}

export interface Loaded {
  /** label → memory id (an approved-with-edits label points at the edited version). */
  ids: Map<string, string>;
  /** memory id → label */
  labels: Map<string, string>;
  /** How many labelled memories ended in each state. */
  states: Record<string, number>;
}

type Op =
  | { at: string; order: number; type: 'write'; m: EvalMemory }
  | { at: string; order: number; type: 'review' | 'confirm' | 'retract'; m: EvalMemory };

const DEFAULT_ACTOR = 'human:eval';

/** Replays the set's memories and verdicts in time order (file order breaks ties). */
export async function loadSet(ledger: Ledger, clock: EvalClock, set: EvalSet): Promise<Loaded> {
  const ids = new Map<string, string>();
  // `human:x` reads and judges everywhere; agents and services get what the home's policy grants them.
  const sessions = new Map<string, LedgerSession>();
  // One session per writer and conversation: a memory without one is a session of its own, as separate writes
  // are, so only the turns of one conversation are each other's neighbours.
  const as = (ref: string, session = 'eval-load'): LedgerSession => {
    let s = sessions.get(`${ref}\u0000${session}`);
    if (s === undefined) {
      s = ledger.as(ledger.principal(ref), {
        surface: 'library',
        sessionId: session,
        client: 'memledger-eval',
      });
      sessions.set(`${ref}\u0000${session}`, s);
    }
    return s;
  };
  for (const op of timeline(set.memories)) {
    clock.set(op.at);
    try {
      await apply(op, as, ids);
    } catch (error) {
      throw new Error(`memory ${op.m.id} (${op.type} at ${op.at}): ${(error as Error).message}`);
    }
  }
  const labels = new Map([...ids].map(([l, id]) => [id, l] as [string, string]));
  const states: Record<string, number> = {};
  const reader = as(DEFAULT_ACTOR);
  for (const id of ids.values()) {
    const { state } = await reader.get(id);
    states[state] = (states[state] ?? 0) + 1;
  }
  return { ids, labels, states };
}

function timeline(memories: readonly EvalMemory[]): Op[] {
  const ops: Op[] = [];
  memories.forEach((m, i) => {
    ops.push({ at: m.recorded, order: i * 4, type: 'write', m });
    if (m.review !== undefined) ops.push({ at: m.review.at, order: i * 4 + 1, type: 'review', m });
    if (m.confirm !== undefined) ops.push({ at: m.confirm.at, order: i * 4 + 2, type: 'confirm', m });
    if (m.retract !== undefined) ops.push({ at: m.retract.at, order: i * 4 + 3, type: 'retract', m });
  });
  const ms = (t: string): number => Date.parse(t);
  return ops.sort((a, b) => ms(a.at) - ms(b.at) || a.order - b.order);
}

async function apply(
  op: Op,
  as: (ref: string, session?: string) => LedgerSession,
  ids: Map<string, string>,
): Promise<void> {
  const m = op.m;
  const id = (label: string): string => {
    const found = ids.get(label);
    if (found === undefined) throw new Error(`${label} is not written yet`);
    return found;
  };
  switch (op.type) {
    case 'write': {
      const result = await as(m.by, m.session ?? `eval-${m.id}`).remember({
        body: m.body,
        kind: m.kind as Kind,
        scope: m.scope,
        ...(m.key === undefined ? {} : { key: m.key }),
        ...(m.value === undefined ? {} : { value: m.value }),
        subjects: m.subjects,
        ...(m.validFrom === undefined ? {} : { validFrom: m.validFrom }),
        ...(m.validTo === undefined ? {} : { validTo: m.validTo }),
        ...(m.confidence === undefined ? {} : { confidence: m.confidence }),
        ...(m.source === undefined ? {} : { source: m.source }),
        ...(m.supersedes === undefined ? {} : { supersedes: id(m.supersedes) }),
      });
      ids.set(m.id, result.id);
      return;
    }
    case 'review': {
      const r = m.review!;
      const actor = as(r.by ?? DEFAULT_ACTOR);
      if (r.action === 'reject') {
        await actor.reject({ id: id(m.id), reason: r.reason ?? 'rejected in the evaluation set' });
        return;
      }
      const result = await actor.approve({
        id: id(m.id),
        ...(r.edits === undefined ? {} : { body: r.edits.body }),
        ...(r.reason === undefined ? {} : { note: r.reason }),
      });
      ids.set(m.id, result.id);
      return;
    }
    case 'confirm':
      await as(m.confirm!.by ?? DEFAULT_ACTOR).confirm({ id: id(m.id) });
      return;
    case 'retract':
      await as(m.retract!.by ?? DEFAULT_ACTOR).retract({ id: id(m.id), reason: m.retract!.reason });
      return;
  }
}
