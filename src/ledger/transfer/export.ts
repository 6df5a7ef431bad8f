/**
 * export as JSONL (`memledger/v3`): a header; every memory the caller may read, in every state, oldest first,
 * with its events; then the rejections recorded on them (standing or lifted), the claims on keys in readable
 * scopes, the erasure records naming readable memories, and the plans (carry-export.ts: commitments, summary
 * chains, behaviors). An admin's export restored into a fresh home and exported again differs only in the
 * restore stamps (restore.ts).
 */
import { maskSecrets } from '../../guard/secrets.ts';
import type { Memory } from '../../model/memory.ts';
import { principalLabel } from '../../model/principal.ts';
import type { Claim, ErasureRecord, Rejection } from '../../store/port.ts';
import type { Deps } from '../deps.ts';
import { readableScopes } from '../scopes.ts';
import { maskEvent, maskMemory } from '../visibility.ts';
import { type PlanLine, planLines } from './carry-export.ts';

/**
 * v3 is v2 plus the plan lines (commitment, chain, summary, behavior, run, fire). The version says what a file
 * may hold: a v2 file restored here brings no plans because it carried none, and an older memledger given a v3
 * file reports its header by line number (as it does each plan line) instead of reading it as a whole v2 home.
 */
export const EXPORT_FORMAT = 'memledger/v3';
/**
 * Formats import reads: this one, v2 (no plan lines) and v1 (no rejection lift, claims or erasure lines; no
 * effective valid time).
 */
export const IMPORT_FORMATS = ['memledger/v1', 'memledger/v2', EXPORT_FORMAT] as const;

/**
 * A rejection as exported: one line per rejection act on a memory. The identities it was keyed on are left out:
 * the importer computes them again from the memory's text, and a tombstone has none (I9).
 */
export type ExportedRejection = Omit<Rejection, 'fingerprint'>;

export type ExportLine =
  | { type: 'header'; format: typeof EXPORT_FORMAT; exportedAt: string; exportedBy: string }
  | { type: 'memory'; memory: Memory; events: unknown[] }
  | { type: 'rejection'; rejection: ExportedRejection }
  | { type: 'claim'; claim: Claim }
  | { type: 'erasure'; erasure: ErasureRecord }
  | PlanLine;

/** Yields JSONL lines (without newlines), oldest memory first so an import can replay supersede links in order. */
export async function* exportLines(deps: Deps): AsyncGenerator<string> {
  const scopes = readableScopes(deps.principal);
  yield line({
    type: 'header',
    format: EXPORT_FORMAT,
    exportedAt: deps.now(),
    exportedBy: principalLabel(deps.principal),
  });
  const exported = new Set<string>();
  const rejected: string[] = [];
  const commitments: string[] = [];
  for await (const memory of deps.store.iterateAll(scopes)) {
    const events = (await deps.store.eventsFor([memory.id])).map(maskEvent);
    exported.add(memory.id);
    if (memory.state === 'rejected' || events.some((e) => e.type === 'rejected')) rejected.push(memory.id);
    if (memory.kind === 'commitment') commitments.push(memory.id);
    // Egress guard (I10): a secret planted below the write guard leaves masked, like every other read.
    yield line({ type: 'memory', memory: maskMemory(memory), events });
  }
  for (const id of rejected) {
    for (const rejection of distinctActs(await deps.store.rejectionsOf(id))) {
      yield line({ type: 'rejection', rejection: { ...rejection, reason: maskSecrets(rejection.reason) } });
    }
  }
  for (const claim of await deps.store.claims(scopes)) {
    if (exported.has(claim.memoryId)) yield line({ type: 'claim', claim });
  }
  for (const erasure of await deps.store.erasures()) {
    // An erasure record is shown for the memories the caller may read, never for the others.
    const memoryIds = erasure.memoryIds.filter((id) => exported.has(id));
    if (memoryIds.length > 0) yield line({ type: 'erasure', erasure: { ...erasure, memoryIds } });
  }
  for await (const plan of planLines(deps, exported, commitments)) yield line(plan);
}

const line = (l: ExportLine): string => JSON.stringify(l);

/** A rejection keyed on two identities (text and value) is one act: one line, without the identities. */
function distinctActs(rows: Rejection[]): ExportedRejection[] {
  const acts = new Map<string, ExportedRejection>();
  for (const { fingerprint: _, ...act } of rows) {
    acts.set(JSON.stringify([act.at, act.by, act.lifted?.at ?? null]), act);
  }
  return [...acts.values()];
}
