/**
 * What erasure does to summary chains (I9): a summary covering an erased memory, and every later summary of
 * its chain (each builds on the one before), is marked stale, so the chain's next window starts from the last
 * summary still standing, over the source that remains. A stale summary whose text names the erased subject
 * (its declared subjects, or the subject's identifier in its body) is erased with the rest; a chain following
 * the subject forgets it. The preview finds the same summaries (`summariesReached`) without changing anything.
 */
import type { Memory } from '../../model/memory.ts';
import type { StoreTx } from '../../store/port.ts';
import type { Deps } from '../deps.ts';

/** Marks the stale summaries; returns the summary memories to erase as well (not among `erased`). */
export async function staleSummaries(
  deps: Deps,
  tx: StoreTx,
  erased: readonly Memory[],
  subject: string | undefined,
): Promise<Memory[]> {
  const at = deps.now();
  if (subject !== undefined) await tx.commitments.eraseChainSubject(subject, at);
  const reached = await summariesReached(tx, erased, subject);
  if (reached.stale.length > 0) await tx.commitments.markStale(reached.stale, at);
  return reached.erase;
}

/** The summaries an erasure of `erased` makes stale, and those of them it erases too; reads only. */
export async function summariesReached(
  tx: StoreTx,
  erased: readonly Memory[],
  subject: string | undefined,
): Promise<{ stale: string[]; erase: Memory[] }> {
  if (erased.length === 0) return { stale: [], erase: [] };
  const erasedIds = new Set(erased.map((m) => m.id));
  const hit = new Map<string, Set<string>>();
  const note = (chain: string, id: string) => {
    if (!hit.has(chain)) hit.set(chain, new Set());
    hit.get(chain)!.add(id);
  };
  for (const link of await tx.commitments.linksCovering([...erasedIds])) note(link.chain, link.memoryId);
  for (const m of erased) {
    const chain = (m.value as { chain?: unknown } | null)?.chain;
    if (m.kind === 'summary' && typeof chain === 'string') note(chain, m.id);
  }
  const stale: string[] = [];
  for (const [chain, ids] of hit) {
    // In chain order: from the first link hit, every later one goes stale too.
    const links = (await tx.commitments.links(chain)).filter((l) => l.staleAt === null);
    const first = links.findIndex((l) => ids.has(l.memoryId));
    if (first >= 0) for (const l of links.slice(first)) stale.push(l.memoryId);
  }
  if (subject === undefined) return { stale, erase: [] };
  const erase: Memory[] = [];
  for (const id of stale) {
    if (erasedIds.has(id)) continue;
    const m = await tx.getMemory(id);
    if (m !== null && m.state !== 'erased' && namesSubject(m, subject)) erase.push(m);
  }
  return { stale, erase };
}

/** Whether a memory names a subject: declares it, or holds its identifier (`acme` of `company:acme`) as text. */
export function namesSubject(m: Memory, subject: string): boolean {
  if (m.subjects.includes(subject)) return true;
  const id = subject.slice(subject.indexOf(':') + 1).toLowerCase();
  const local = id.includes('@') ? id.slice(0, id.indexOf('@')) : null;
  const body = m.body.toLowerCase();
  return body.includes(id) || (local !== null && local.length >= 3 && body.includes(local));
}
