/**
 * The correction feed: when a reviewer edits or rejects a non-human write, the writer is told in its later
 * sessions, so it does not repeat the mistake. Each correction is a `corrected` event on the proposal plus a
 * row of the corrections projection; readers get the latest per (scope, key or kind), within their grants (I4).
 */
import { z } from 'zod';
import { maskSecrets } from '../guard/secrets.ts';
import { LIMITS, type Memory } from '../model/memory.ts';
import { principalLabel, principalRefSchema } from '../model/principal.ts';
import { scopeSchema } from '../model/scope.ts';
import { inFilter, readFilter } from '../policy/access.ts';
import type { StoreTx } from '../store/port.ts';
import { type Deps, recordEvent } from './deps.ts';
import { parseInput } from './parse.ts';
import type { CorrectionRow } from '../store/port.ts';
import { readableScopes } from './scopes.ts';
import { maskMemory } from './visibility.ts';

/** A reviewer's edit or rejection of an agent's write, as that agent's later sessions read it. */
export interface Correction extends CorrectionRow {
  /** The edited version while it is still current; null for a rejection, or once something newer replaced it (I3). */
  corrected: Memory | null;
}

export const correctionsInputSchema = z
  .object({
    scopes: z.array(scopeSchema).max(50).optional(),
    agent: principalRefSchema.optional(),
    limit: z.number().int().min(1).max(LIMITS.limit).default(20),
  })
  .strict();
export type CorrectionsInput = z.input<typeof correctionsInputSchema>;

/**
 * corrections: the latest correction per (scope, key or kind) in the caller's readable scopes, newest first.
 * An agent or a service sees only corrections of its own writes: `agent` naming another principal returns
 * nothing, exactly as naming one that never wrote (I4: what reviewers told another agent is not its business,
 * and no answer may tell a real principal from an unknown one). A person sees every writer's by default, or
 * one writer's with `agent`: the same verdicts and reasons are in the history of memories they may read.
 */
export async function corrections(deps: Deps, input: CorrectionsInput = {}): Promise<Correction[]> {
  const f = parseInput(correctionsInputSchema, input, 'corrections');
  const filter = readFilter(deps.principal, f.scopes);
  const self = principalLabel(deps.principal);
  if (deps.principal.kind !== 'human' && f.agent !== undefined && f.agent !== self) return [];
  const agent = f.agent ?? (deps.principal.kind === 'human' ? undefined : self);
  const rows = await deps.store.latestCorrections({
    scopes: readableScopes(deps.principal, f.scopes),
    agent,
    limit: f.limit,
  });
  const out: Correction[] = [];
  for (const r of rows) {
    // The grants have the last word on every row, after any narrowing the store did (I4).
    if (!inFilter(filter, r.scope)) continue;
    const version = r.correctedId === null ? null : await deps.store.getMemory(r.correctedId);
    out.push({
      ...r,
      corrected: version !== null && version.state === 'active' ? maskMemory(version) : null,
      reason: r.reason === null ? null : maskSecrets(r.reason),
    });
    deps.trace.targets.add(r.proposalId);
  }
  return out;
}

/**
 * Records a correction of `proposal` in the caller's transaction, when a non-human wrote it: a `corrected`
 * event (the reason is its free text, blanked by erasure) and the feed's row. The reviewer is the caller.
 */
export async function recordCorrection(
  deps: Deps,
  tx: StoreTx,
  proposal: Memory,
  correction: { action: 'edited' | 'rejected'; correctedId: string | null; reason: string | null },
): Promise<void> {
  if (proposal.provenance.principalKind === 'human') return;
  const agent = proposal.provenance.principal;
  const id = await recordEvent(deps, tx, 'corrected', proposal.id, null, {
    reason: correction.reason,
    detail: { action: correction.action, agent, correctedAs: correction.correctedId },
  });
  await tx.insertCorrection({
    id,
    scope: proposal.scope,
    key: proposal.key,
    kind: proposal.kind,
    agent,
    action: correction.action,
    proposalId: proposal.id,
    correctedId: correction.correctedId,
    by: principalLabel(deps.principal),
    at: deps.now(),
  });
}
