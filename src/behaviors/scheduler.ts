/**
 * The scheduler's tick: fires schedule and commitment triggers into pending windows. Exactly once per window
 * across processes and replicas: a fired window is a row unique on (behavior, trigger, window) in the store, so
 * a second process's insert of the same window changes nothing. No in-process flag decides it. A commitment
 * window raises `commitment_due` in the transaction that records the fire, so only the process that won the
 * window announces it, and a fire that rolls back announces nothing.
 */
import { newId } from '../model/ids.ts';
import { assertRole } from '../policy/access.ts';
import type { Deps } from '../ledger/deps.ts';
import type { ScopeSet } from '../store/port.ts';
import { latestAtOrBefore, parseCron } from '../model/cron.ts';
import type { BehaviorDefinition } from './definition.ts';
import { notify } from '../notify/events.ts';
import { dueCommitments } from './due-commitments.ts';
import { definitionOf } from './stored.ts';

export interface TickResult {
  /** Windows this tick fired (another process may have fired others). */
  fired: { behavior: string; trigger: string; at: string }[];
}

export async function schedulerTick(deps: Deps): Promise<TickResult> {
  assertRole(deps.principal, 'writer', 'run the scheduler');
  const now = deps.now();
  const fired: TickResult['fired'] = [];
  for (const row of await deps.store.behaviors.list()) {
    if (row.disabledAt !== null) continue;
    const def = definitionOf(row);
    // Only windows after the version was defined: a new behavior does not replay a year of its schedule.
    for (const w of await windows(deps, def, row.createdAt, now)) {
      const { commitment, ...key } = w;
      const fire = { id: newId('fire'), behavior: def.name, firedAt: now, ...key };
      const won = await deps.store.transaction(async (tx) => {
        if (!(await tx.behaviors.insertFire(fire))) return false;
        if (commitment !== undefined && fire.memoryId !== null) {
          await notify(tx, {
            type: 'commitment_due',
            ref: fire.memoryId,
            scope: commitment.scope,
            kind: 'commitment',
            actor: commitment.owner,
            dueAt: fire.at,
            behavior: def.name,
            at: now,
          });
        }
        return true;
      });
      if (won) {
        fired.push({ behavior: def.name, trigger: w.trigger, at: w.at });
        deps.trace.targets.add(fire.id);
      }
    }
  }
  return { fired };
}

interface Window {
  trigger: string;
  windowKey: string;
  at: string;
  memoryId: string | null;
  /** A commitment window: what its notification names (ids and labels only). */
  commitment?: { scope: string; owner: string };
}

async function windows(deps: Deps, def: BehaviorDefinition, since: string, now: string): Promise<Window[]> {
  const out: Window[] = [];
  for (const t of def.triggers) {
    if (t.type === 'schedule') {
      const at = latestAtOrBefore(parseCron(t.cron), t.timezone, new Date(now))?.toISOString();
      if (at !== undefined && at > since) {
        out.push({ trigger: 'schedule', windowKey: `${t.cron} ${t.timezone} ${at}`, at, memoryId: null });
      }
    } else if (t.type === 'commitment') {
      const patterns = t.scopes ?? def.reads.scopes;
      for (const c of await dueCommitments(deps.store, scopeSet(patterns), since, now)) {
        out.push({
          trigger: 'commitment',
          windowKey: `${c.memory.id} ${c.due}`,
          at: c.due,
          memoryId: c.memory.id,
          commitment: { scope: c.memory.scope, owner: c.owner },
        });
      }
    }
  }
  return out;
}

function scopeSet(patterns: readonly string[]): ScopeSet {
  if (patterns.includes('*')) return { all: true };
  return {
    all: false,
    exact: patterns.filter((p) => !p.endsWith(':*')),
    prefixes: patterns.filter((p) => p.endsWith(':*')).map((p) => p.slice(0, -1)),
  };
}
