/**
 * `behavior_complete` and `behavior_fail`. Complete checks the lease and the token, writes the outputs through
 * the normal write path (guard, grants, rejection, gate, ownership: I18), links exactly the shown ids to the run
 * and closes it, in one transaction: either all of it commits or none of it, so a run that fails links nothing.
 * Outputs left held raise one `run_outputs_waiting` for the run in that transaction too (each held write has
 * raised its own `held` already; the summary is what a channel that follows runs, not single writes, listens to).
 */
import { z } from 'zod';
import { MemoryError } from '../model/errors.ts';
import type { RememberFields, RememberInput, WriteResult } from '../model/memory.ts';
import { type Principal, principalLabel } from '../model/principal.ts';
import { scopeMatches } from '../model/scope.ts';
import type { Deps } from '../ledger/deps.ts';
import { parseInput } from '../ledger/parse.ts';
import { notify } from '../notify/events.ts';
import { prepareWrite, writeInTx } from '../ledger/remember.ts';
import type { RunRow } from '../store/behaviors-port.ts';
import type { StoreTx } from '../store/port.ts';
import { type BehaviorDefinition, keyMatches } from './definition.ts';
import { definitionOf } from './stored.ts';
import { decodeToken, tokenFits } from './token.ts';

export const completeInputSchema = z
  .object({
    run: z.string().max(64),
    token: z.string().max(200_000),
    /** Each output is a write as `remember` takes it. */
    outputs: z.array(z.record(z.string(), z.unknown())).max(100).default([]),
  })
  .strict();
export type CompleteInput = z.input<typeof completeInputSchema>;

export interface CompleteResult {
  run: string;
  /** How many events and fired windows the run consumed (linked to it). */
  consumed: number;
  outputs: WriteResult[];
}

export const failInputSchema = z.object({ run: z.string().max(64), token: z.string().max(200_000) }).strict();
export type FailInput = z.input<typeof failInputSchema>;

export async function completeRun(deps: Deps, input: CompleteInput): Promise<CompleteResult> {
  const f = parseInput(completeInputSchema, input, 'behavior completion');
  const decoded = decodeToken(f.token);
  if (decoded.run !== f.run) throw new MemoryError('invalid_input', 'token is for another run');
  return deps.store.transaction(async (tx) => {
    const run = await leasedRun(deps, tx, f.run, decoded);
    const version = await tx.behaviors.version(run.behavior, run.version);
    if (version === null) throw new MemoryError('internal', `run ${run.id} names a missing behavior version`);
    const def = definitionOf(version);
    // Every output names its run (I14), and is written as the agent that ran it: a person running a behavior
    // lends it no trust, so its writes meet the gate as any agent's would (I18).
    const runDeps: Deps = {
      ...deps,
      principal: writerOf(deps.principal, def),
      ctx: {
        ...deps.ctx,
        runId: run.id,
        ...(deps.principal.kind === 'agent' ? {} : { onBehalfOf: principalLabel(deps.principal) }),
      },
    };
    const prepared = f.outputs.map((o, i) => allowedWrite(runDeps, def, o as RememberInput, i));
    const outputs: WriteResult[] = [];
    for (const fields of prepared) outputs.push(await writeInTx(runDeps, tx, fields));
    const held = outputs.flatMap((o, i) =>
      o.state === 'held' ? [{ id: o.id, scope: prepared[i]!.scope }] : [],
    );
    if (held.length > 0) {
      // Ids only (I8, I9): the message is rendered at send time. One event has one scope: the first held
      // output's; `ids` names every held output whatever its scope.
      await notify(tx, {
        type: 'run_outputs_waiting',
        ref: run.id,
        behavior: def.name,
        scope: held[0]!.scope,
        actor: principalLabel(runDeps.principal),
        ids: held.map((h) => h.id),
        at: deps.now(),
      });
    }
    await tx.behaviors.finishRun(
      run.id,
      deps.now(),
      outputs.map((o) => o.id),
    );
    return { run: run.id, consumed: run.shown.length, outputs };
  });
}

/** Ends a run as failed: nothing is linked, so the next window shows its events again (I17). */
export async function failRun(deps: Deps, input: FailInput): Promise<{ run: string; state: 'failed' }> {
  const f = parseInput(failInputSchema, input, 'behavior failure');
  const decoded = decodeToken(f.token);
  if (decoded.run !== f.run) throw new MemoryError('invalid_input', 'token is for another run');
  return deps.store.transaction(async (tx) => {
    const run = await leasedRun(deps, tx, f.run, decoded);
    await tx.behaviors.failRun(run.id, deps.now(), 'failed by its runner');
    return { run: run.id, state: 'failed' as const };
  });
}

async function leasedRun(
  deps: Deps,
  tx: StoreTx,
  id: string,
  decoded: { ids: string[]; nonce: string },
): Promise<RunRow> {
  const run = await tx.behaviors.getRun(id);
  // Another principal's run is as absent as a run that never was: its window is not this caller's business.
  if (run === null || run.startedBy !== principalLabel(deps.principal)) {
    throw new MemoryError('not_found', `no run ${id} of this caller`);
  }
  if (!tokenFits(decoded, run)) throw new MemoryError('permission', `token does not fit run ${id}`);
  if (run.state !== 'leased') throw new MemoryError('conflict', `run ${id} is ${run.state} already`);
  if (run.leaseUntil <= deps.now()) {
    throw new MemoryError('conflict', `the lease of run ${id} expired; its events are outstanding again`);
  }
  return run;
}

/** The principal a run's outputs are written as: an agent as itself; anyone else as the behavior's agent. */
function writerOf(caller: Principal, def: BehaviorDefinition): Principal {
  if (caller.kind === 'agent') return caller;
  return {
    kind: 'agent',
    id: `behavior.${def.name}`,
    roles: ['writer'],
    grants: def.writes.scopes.map((scope) => ({ scope, read: true, write: true })),
  };
}

/** An output the definition allows (kind, scope, key), through the write path's own checks (I10, I4). */
function allowedWrite(
  deps: Deps,
  def: BehaviorDefinition,
  output: RememberInput,
  index: number,
): RememberFields {
  const fields = prepareWrite(deps, output, `output ${index}`);
  const w = def.writes;
  if (!w.kinds.includes(fields.kind)) {
    throw new MemoryError(
      'permission',
      `output ${index}: behavior ${def.name} may not write kind ${fields.kind}`,
    );
  }
  if (!w.scopes.some((p) => scopeMatches(p, fields.scope))) {
    throw new MemoryError(
      'permission',
      `output ${index}: behavior ${def.name} may not write scope ${fields.scope}`,
    );
  }
  if (w.keys !== undefined && (fields.key === undefined || !w.keys.some((k) => keyMatches(k, fields.key!)))) {
    throw new MemoryError('permission', `output ${index}: behavior ${def.name} may not write that key`);
  }
  return fields;
}
