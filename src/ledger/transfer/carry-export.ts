/**
 * The plan lines of an export, after the memories they name: commitments' lifecycle rows, summary chains in
 * readable scopes with their links, and (for a human admin, the one who may restore them) behaviors with every
 * version, their runs and fired windows. Only ids the export carried are named (I4).
 */
import { can, hasRole } from '../../policy/access.ts';
import type { FireRow, RunRow } from '../../store/behaviors-port.ts';
import type { CommitmentRow, SummaryChainRow, SummaryLinkRow } from '../../store/commitments-port.ts';
import type { Deps } from '../deps.ts';
import { readableScopes } from '../scopes.ts';

export type PlanLine =
  | { type: 'commitment'; commitment: CommitmentRow }
  | { type: 'chain'; chain: SummaryChainRow }
  | { type: 'summary'; summary: SummaryLinkRow }
  | { type: 'behavior'; behavior: ExportedBehavior }
  | { type: 'run'; run: Omit<RunRow, 'nonce'> }
  | { type: 'fire'; fire: FireRow };

export interface ExportedBehavior {
  name: string;
  version: number;
  disabledAt: string | null;
  versions: { version: number; definition: unknown; createdBy: string; createdAt: string }[];
}

/** Rows read per store call when looking commitments up by memory id. */
const CHUNK = 500;
/** Every run of a behavior: the store reads them newest first under a limit. */
const ALL_RUNS = Number.MAX_SAFE_INTEGER;

/**
 * @param exported ids of the memories the export wrote
 * @param commitmentIds the exported memories of kind `commitment`, oldest first
 */
export async function* planLines(
  deps: Deps,
  exported: ReadonlySet<string>,
  commitmentIds: readonly string[],
): AsyncGenerator<PlanLine> {
  for (let i = 0; i < commitmentIds.length; i += CHUNK) {
    const rows = await deps.store.commitments.forMemories(commitmentIds.slice(i, i + CHUNK));
    const byId = new Map(rows.map((r) => [r.memoryId, r]));
    for (const id of commitmentIds.slice(i, i + CHUNK)) {
      const row = byId.get(id);
      if (row !== undefined) yield { type: 'commitment', commitment: row };
    }
  }
  for (const chain of await deps.store.commitments.chains(readableScopes(deps.principal))) {
    if (!can(deps.principal, 'read', chain.scope)) continue;
    yield { type: 'chain', chain };
    // Oldest first: a link's previous one is restored before it, and a stale link before its replacement.
    for (const { state: _, ...link } of await deps.store.commitments.links(chain.name)) {
      if (exported.has(link.memoryId)) yield { type: 'summary', summary: link };
    }
  }
  if (deps.principal.kind !== 'human' || !hasRole(deps.principal, 'admin')) return;
  for (const row of await deps.store.behaviors.list()) {
    const versions: ExportedBehavior['versions'] = [];
    for (let v = 1; v <= row.version; v++) {
      const version = await deps.store.behaviors.version(row.name, v);
      if (version === null) continue;
      versions.push({
        version: v,
        definition: JSON.parse(version.definition) as unknown,
        createdBy: version.createdBy,
        createdAt: version.createdAt,
      });
    }
    yield {
      type: 'behavior',
      behavior: { name: row.name, version: row.version, disabledAt: row.disabledAt, versions },
    };
    // Fired windows before the runs that consumed them; runs oldest first.
    for (const fire of await deps.store.behaviors.fires(row.name)) yield { type: 'fire', fire };
    for (const { nonce: _, ...run } of (await deps.store.behaviors.runs(row.name, ALL_RUNS)).reverse()) {
      yield { type: 'run', run: { ...run, outputs: run.outputs.filter((id) => exported.has(id)) } };
    }
  }
}
