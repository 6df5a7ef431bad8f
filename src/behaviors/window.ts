/**
 * `behavior_next`: claims a behavior's outstanding window under a lease. Outstanding is a subtraction (I17):
 * every matching event on the arrival axis (recorded at least the settle delay ago) and every fired window,
 * minus what a finished run of the behavior consumed, minus what a live lease holds. Nothing moves a cursor.
 */
import { randomBytes } from 'node:crypto';
import { newId } from '../model/ids.ts';
import type { Memory } from '../model/memory.ts';
import { principalLabel } from '../model/principal.ts';
import { assertRole, can } from '../policy/access.ts';
import type { FireRow, RunRow } from '../store/behaviors-port.ts';
import type { StoreTx } from '../store/port.ts';
import type { Deps } from '../ledger/deps.ts';
import { maskMemory } from '../ledger/visibility.ts';
import { type BehaviorCorrection, foldedCorrections } from './corrections.ts';
import type { BehaviorDefinition } from './definition.ts';
import { causallyAllowed, CONTENT_EVENTS, eventTriggers, matches } from './match.ts';
import { runSources, type SourceResult } from './sources.ts';
import { encodeToken } from './token.ts';
import { loadEnabled } from './stored.ts';

export interface WindowEvent {
  /** The event's id: what the run links when it finishes. */
  id: string;
  type: string;
  /** When memledger recorded it (the arrival axis). */
  at: string;
  memory: Memory;
}

export interface WindowFire {
  id: string;
  trigger: string;
  at: string;
  /** The commitment that came due, for a commitment trigger. */
  commitment: Memory | null;
}

/** What an agent (or an operator's command) is handed for one run. */
export interface BehaviorWindow {
  run: string;
  behavior: string;
  version: number;
  prompt: string;
  leaseUntil: string;
  /** Names exactly the ids shown; `behavior_complete` must hand it back. */
  token: string;
  depth: number;
  events: WindowEvent[];
  fired: WindowFire[];
  /** The latest correction per key of this behavior's past outputs, older ones dropped. */
  corrections: BehaviorCorrection[];
  writes: BehaviorDefinition['writes'];
  /** Each source query's rows, or its error (class and message): see sources.ts. Empty when it has none. */
  sources: Record<string, SourceResult>;
}

const PAGE = 500;

/** Claims the outstanding window, or returns null when nothing is outstanding. */
export async function nextWindow(deps: Deps, name: string): Promise<BehaviorWindow | null> {
  assertRole(deps.principal, 'writer', 'run a behavior');
  const claimed = await deps.store.transaction(async (tx) => {
    const { row, def } = await loadEnabled(tx, name);
    const now = deps.now();
    const held = new Set((await tx.behaviors.liveRuns(name, now)).flatMap((r) => r.shown));
    const sources = new Map<string, RunRow | null>();
    const events = await outstandingEvents(deps, tx, name, def, now, held, sources);
    const fires = (await tx.behaviors.unconsumedFires(name)).filter((f) => !held.has(f.id));
    if (events.length === 0 && fires.length === 0) return null;

    const upstream = events
      .map((e) => sources.get(e.memory.provenance.runId ?? '') ?? null)
      .filter((r): r is RunRow => r !== null);
    const depth = 1 + Math.max(0, ...upstream.map((r) => r.depth));
    const chain = [...new Set([...upstream.flatMap((r) => r.chain), name])];
    const shown = [...events.map((e) => e.id), ...fires.map((f) => f.id)];
    const run: RunRow = {
      id: newId('run'),
      behavior: name,
      version: row.version,
      state: 'leased',
      shown,
      nonce: randomBytes(18).toString('base64url'),
      leaseUntil: new Date(Date.parse(now) + def.leaseSeconds * 1000).toISOString(),
      depth,
      chain,
      outputs: [],
      startedBy: principalLabel(deps.principal),
      startedAt: now,
      endedAt: null,
      failure: null,
    };
    await tx.behaviors.insertRun(run);
    deps.trace.targets.add(run.id);
    return {
      run: run.id,
      behavior: name,
      version: row.version,
      prompt: def.prompt,
      leaseUntil: run.leaseUntil,
      token: encodeToken(run),
      depth,
      events,
      fired: await Promise.all(fires.map((f) => windowFire(deps, tx, f))),
      corrections: await foldedCorrections(deps, tx, name),
      writes: def.writes,
      def,
    };
  });
  if (claimed === null) return null;
  // After the claim commits: a source runs for up to its time limit in a child process, and holding the
  // store's write transaction that long would stall every other writer. The views are read afresh.
  const { def, ...window } = claimed;
  return { ...window, sources: await runSources(deps, def, window.events) };
}

async function outstandingEvents(
  deps: Deps,
  tx: StoreTx,
  name: string,
  def: BehaviorDefinition,
  now: string,
  held: Set<string>,
  sources: Map<string, RunRow | null>,
): Promise<WindowEvent[]> {
  if (eventTriggers(def).length === 0) return [];
  const until = new Date(Date.parse(now) - def.settleSeconds * 1000).toISOString();
  const out: WindowEvent[] = [];
  let afterSeq = 0;
  for (;;) {
    const page = await tx.behaviors.candidates(name, { until, types: CONTENT_EVENTS, afterSeq, limit: PAGE });
    for (const e of page) {
      afterSeq = e.seq;
      if (held.has(e.id)) continue;
      const memory = await tx.getMemory(e.memoryId);
      if (memory === null || !matches(def, deps.principal, memory)) continue;
      if (!causallyAllowed(name, await sourceRun(tx, memory, sources))) continue;
      out.push({ id: e.id, type: e.type, at: e.at, memory: maskMemory(memory) });
      if (out.length >= def.maxEvents) return out;
    }
    if (page.length < PAGE) return out;
  }
}

/** The run that wrote a memory (its provenance names it), looked up once per window. */
async function sourceRun(
  tx: StoreTx,
  memory: Memory,
  cache: Map<string, RunRow | null>,
): Promise<RunRow | null> {
  const id = memory.provenance.runId;
  if (id === undefined) return null;
  if (!cache.has(id)) cache.set(id, await tx.behaviors.getRun(id));
  return cache.get(id) ?? null;
}

async function windowFire(deps: Deps, tx: StoreTx, f: FireRow): Promise<WindowFire> {
  const memory = f.memoryId === null ? null : await tx.getMemory(f.memoryId);
  const readable = memory !== null && memory.state === 'active' && can(deps.principal, 'read', memory.scope);
  return { id: f.id, trigger: f.trigger, at: f.at, commitment: readable ? maskMemory(memory) : null };
}
