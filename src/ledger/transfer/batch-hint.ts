/**
 * What a restore batch will look up, read from its parsed lines before any of them runs: the memory ids (each
 * line's own, to skip one restored already, and the versions it links to) and the scopes (for the standing
 * rejections I5 checks). Only a hint for `StoreTx.preload`: a line that is not what it seems here is still
 * checked in full when it runs, and the store answers only what it looked up.
 */
export function batchHint(docs: readonly unknown[]): { ids: string[]; scopes: string[] } {
  const ids = new Set<string>();
  const scopes = new Set<string>();
  for (const doc of docs) {
    if (doc === null || typeof doc !== 'object' || (doc as { type?: unknown }).type !== 'memory') continue;
    const m = (doc as { memory?: unknown }).memory;
    if (m === null || typeof m !== 'object') continue;
    const { id, supersedes, editOf, scope } = m as Record<string, unknown>;
    for (const x of [id, supersedes, editOf]) if (typeof x === 'string') ids.add(x);
    if (typeof scope === 'string') scopes.add(scope);
  }
  return { ids: [...ids], scopes: [...scopes] };
}
