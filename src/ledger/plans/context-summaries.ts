/**
 * Summaries in the context block's relevant pool: where the newest live summary of a chain covers several of
 * the pool's memories, it takes the place of the first of them and the rest give way, so one item stands for
 * many within the budget. A stale summary (erasure reached what it covers) is never shown: its text was made
 * from memories that are gone.
 */
import type { Candidate } from '../context/pools.ts';
import type { Deps } from '../deps.ts';
import { maskProvenance } from '../visibility.ts';
import { lazy } from '../lazy-module.ts';

/** The summaries' module (its verbs and the write path) loads only where a pool's memories are in a chain. */
const summaryModule = lazy(() => import('./summaries.ts'));

/** A summary stands in only for at least this many of the pool's memories. */
const AT_LEAST = 2;

export async function preferSummaries(deps: Deps, pool: Candidate[]): Promise<Candidate[]> {
  if (pool.length === 0) return pool;
  const ids = pool.map((c) => c.memory.id);
  const { covering, of } = await deps.store.commitments.linksAround(ids);
  const stale = new Set(of.filter((l) => l.staleAt !== null).map((l) => l.memoryId));
  const chains = new Set(covering.filter((l) => l.staleAt === null).map((l) => l.chain));
  const standIns = new Map<string, { summary: string; chain: string; cutoff: string }>();
  for (const chain of chains) {
    const newest = (await summaryModule()).latestLive(await deps.store.commitments.links(chain));
    if (newest === null || newest.state !== 'active') continue;
    const covered = new Set(newest.covers);
    const here = ids.filter((id) => covered.has(id));
    if (here.length < AT_LEAST) continue;
    for (const id of here) standIns.set(id, { summary: newest.memoryId, chain, cutoff: newest.cutoff });
  }
  const summaries = new Map(
    (await deps.store.getMemories([...new Set([...standIns.values()].map((s) => s.summary))]))
      .filter((m) => m !== null)
      .map((m) => [m.id, maskProvenance(m)]),
  );
  const out: Candidate[] = [];
  const placed = new Set<string>();
  for (const c of pool) {
    if (stale.has(c.memory.id)) continue;
    const stand = standIns.get(c.memory.id);
    const summary = stand === undefined ? undefined : summaries.get(stand.summary);
    if (stand === undefined || summary === undefined) {
      if (!placed.has(c.memory.id)) out.push(c);
      continue;
    }
    if (placed.has(summary.id)) continue;
    placed.add(summary.id);
    const count = [...standIns.values()].filter((s) => s.summary === summary.id).length;
    out.push({
      memory: summary,
      pool: c.pool,
      why: `summary of chain ${stand.chain} up to ${stand.cutoff.slice(0, 10)}, in place of ${count} memories it covers`,
    });
  }
  return out;
}
