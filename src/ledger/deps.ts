/** What every use case receives: the store, the policy, who is calling and from where, and a trace for the audit. */
import type { StateChange } from '../audit/record.ts';
import type { CallContext } from '../model/context.ts';
import { newId } from '../model/ids.ts';
import type { MemoryEvent } from '../model/event.ts';
import type { Provenance } from '../model/memory.ts';
import { type Principal, principalLabel } from '../model/principal.ts';
import type { Policy } from '../policy/policy-file.ts';
import type { Store, StoreTx } from '../store/port.ts';
import type { SnapshotFiles } from '../workspace/snapshots.ts';
import type { Semantic } from '../embed/semantic.ts';

export interface Trace {
  targets: Set<string>;
  changes: StateChange[];
}

export interface Deps {
  store: Store;
  policy: Policy;
  principal: Principal;
  ctx: CallContext;
  trace: Trace;
  now(): string;
  /** Agent workspaces' files, where the ledger has them (erasure reaches into them). */
  workspaces?: SnapshotFiles;
  /** Semantic retrieval, when the ledger has an embedder (src/embed); absent, search is BM25's alone. */
  semantic?: Semantic;
}

/** Provenance of a write, stamped from the call context, never from arguments (I14). */
export function provenanceOf(deps: Deps, source?: Provenance['source']): Provenance {
  const { principal, ctx } = deps;
  const p: Provenance = {
    principal: principalLabel(principal),
    principalKind: principal.kind,
    surface: ctx.surface,
  };
  if (ctx.onBehalfOf !== undefined) p.onBehalfOf = ctx.onBehalfOf;
  if (ctx.runId !== undefined) p.runId = ctx.runId;
  if (ctx.sessionId !== undefined) p.sessionId = ctx.sessionId;
  if (ctx.client !== undefined) p.client = ctx.client;
  if (ctx.tokenId !== undefined) p.tokenId = ctx.tokenId;
  if (source !== undefined) p.source = source;
  return p;
}

/** Appends an event and notes the state change for the audit record, in the caller's transaction. Returns its id. */
export async function recordEvent(
  deps: Deps,
  tx: StoreTx,
  type: MemoryEvent['type'],
  memoryId: string,
  change: { from: string | null; to: string } | null,
  extra: { reason?: string | null; detail?: Record<string, unknown> } = {},
): Promise<string> {
  const id = newId('evt');
  await tx.insertEvent({
    id,
    type,
    memoryId,
    actor: principalLabel(deps.principal),
    actorKind: deps.principal.kind,
    at: deps.now(),
    reason: extra.reason ?? null,
    detail: extra.detail ?? {},
  });
  deps.trace.targets.add(memoryId);
  if (change !== null) deps.trace.changes.push({ id: memoryId, ...change });
  return id;
}
