/** The summary chains a caller may read, each with its latest live cutoff and how many summaries are stale. */
import { can } from '../../policy/access.ts';
import type { SummaryChainRow } from '../../store/commitments-port.ts';
import type { Deps } from '../deps.ts';
import { readableScopes } from '../scopes.ts';
import { latestLive } from './summaries.ts';

export interface ChainSummary {
  name: string;
  scope: string;
  sessionId: string | null;
  subject: string | null;
  owner: string | null;
  /** The cutoff of the newest live summary, or null when nothing is summarised yet. */
  latestCutoff: string | null;
  summaries: number;
  stale: number;
  sourceErased: boolean;
}

/** Chains in the caller's read grants, by name; the store filters by scope and `can` checks again (I4). */
export async function listChains(deps: Deps): Promise<ChainSummary[]> {
  const rows = await deps.store.commitments.chains(readableScopes(deps.principal));
  const out: ChainSummary[] = [];
  for (const chain of rows.filter((c) => can(deps.principal, 'read', c.scope))) {
    const links = await deps.store.commitments.links(chain.name);
    out.push({
      ...source(chain),
      latestCutoff: latestLive(links)?.cutoff ?? null,
      summaries: links.length,
      stale: links.filter((l) => l.staleAt !== null).length,
      sourceErased: chain.sourceErasedAt !== null,
    });
  }
  return out;
}

const source = (c: SummaryChainRow) => ({
  name: c.name,
  scope: c.scope,
  sessionId: c.sessionId,
  subject: c.subject,
  owner: c.owner,
});
