/**
 * Restoring a commitment's lifecycle row and a summary chain with its links, through the store port on every
 * backend. Each names memories the restore brought (or this home had); a row this home holds already is left
 * as it is, so restoring a file twice lands nothing twice and this home's own later moves stand.
 */
import { assertNoSecrets } from '../../guard/limits.ts';
import { MemoryError } from '../../model/errors.ts';
import type { Memory } from '../../model/memory.ts';
import type { StoreTx } from '../../store/port.ts';
import type { ChainLine, CommitmentLine, SummaryLine } from './carry-lines.ts';

/**
 * A commitment's current status, owner, due time and who moved it last. Each move's `status-changed` event
 * (who, when, from, to) came with its memory line, so the history a person made is carried with its actors.
 */
export async function restoreCommitment(tx: StoreTx, c: CommitmentLine['commitment']): Promise<boolean> {
  assertNoSecrets({ statusBy: c.statusBy });
  await memoryIn(tx, c.memoryId, c.scope, 'commitment', 'the commitment');
  if ((await tx.commitments.commitment(c.memoryId)) !== null) return false;
  await tx.commitments.insertCommitment(c);
  return true;
}

/** A chain: its source (scope, session or subject) and who made it; a chain of that name here must be it. */
export async function restoreChain(tx: StoreTx, c: ChainLine['chain']): Promise<boolean> {
  assertNoSecrets({ sessionId: c.sessionId, owner: c.owner, createdBy: c.createdBy });
  await tx.settle?.();
  const here = await tx.commitments.chain(c.name);
  if (here !== null) {
    if (here.scope === c.scope && here.createdAt === c.createdAt && here.createdBy === c.createdBy)
      return false;
    throw new MemoryError('conflict', `a summary chain named ${c.name} exists already in this home`, {
      details: { chain: c.name },
    });
  }
  await tx.commitments.insertChain(c);
  return true;
}

/** A link: its summary, the summary before it, the window it covers and whether it went stale. */
export async function restoreSummary(tx: StoreTx, s: SummaryLine['summary']): Promise<boolean> {
  await tx.settle?.();
  const chain = await tx.commitments.chain(s.chain);
  if (chain === null) {
    throw new MemoryError(
      'invalid_input',
      `summary ${s.memoryId} names chain ${s.chain}, which is neither in this home nor earlier in the file`,
    );
  }
  await memoryIn(tx, s.memoryId, chain.scope, 'summary', 'the summary link');
  const links = await tx.commitments.links(s.chain);
  if (links.some((l) => l.memoryId === s.memoryId)) return false;
  if (s.previous !== null && !links.some((l) => l.memoryId === s.previous)) {
    throw new MemoryError(
      'invalid_input',
      `summary ${s.memoryId} follows ${s.previous}, which is not a summary of chain ${s.chain} here`,
    );
  }
  for (const id of s.covers) await memoryIn(tx, id, chain.scope, null, `summary ${s.memoryId}`);
  // Unique rules (one next link, one first, one cutoff per chain) hold here as for any link: `conflict`.
  await tx.commitments.insertLink(s);
  // Stale before the next line: its replacement, later in the file, takes its place under the same rules.
  if (s.staleAt !== null) await tx.commitments.markStale([s.memoryId], s.staleAt);
  return true;
}

/** The memory a row names, in the scope it says (and of the kind, if given); `invalid_input` otherwise. */
async function memoryIn(
  tx: StoreTx,
  id: string,
  scope: string,
  kind: Memory['kind'] | null,
  what: string,
): Promise<Memory> {
  const m = await tx.getMemory(id);
  // What a batch holds back is written before the sub-ports read or write after this.
  await tx.settle?.();
  if (m === null || m.scope !== scope || (kind !== null && m.kind !== kind)) {
    throw new MemoryError(
      'invalid_input',
      `${what} names memory ${id}, which is not ${kind === null ? 'a memory' : `a ${kind}`} in this home in ${scope}`,
    );
  }
  return m;
}
