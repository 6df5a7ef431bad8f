/**
 * What a restore batch will look up, read from its parsed lines before any of them runs: the memory ids (each
 * line's own, to skip one restored already, and the versions it links to) and the scopes (for the standing
 * rejections I5 checks) and the event ids (each line asks whether it has them) and the keys of active keyed
 * lines (each asks who holds its key). Only a hint for `StoreTx.preload`: a line that is not what it seems here is still
 * checked in full when it runs, and the store answers only what it looked up.
 */
export function batchHint(docs: readonly unknown[]): {
  ids: string[];
  scopes: string[];
  eventIds: string[];
  keys: { scope: string; key: string }[];
} {
  const ids = new Set<string>();
  const scopes = new Set<string>();
  const eventIds = new Set<string>();
  // An active keyed line asks who holds its key (restore.ts): one lookup per batch, not one per line.
  const keys = new Map<string, { scope: string; key: string }>();
  for (const doc of docs) {
    if (doc === null || typeof doc !== 'object' || (doc as { type?: unknown }).type !== 'memory') continue;
    const m = (doc as { memory?: unknown }).memory;
    if (m === null || typeof m !== 'object') continue;
    const { id, supersedes, editOf, scope, key, state } = m as Record<string, unknown>;
    for (const x of [id, supersedes, editOf]) if (typeof x === 'string') ids.add(x);
    if (typeof scope === 'string') scopes.add(scope);
    if (state === 'active' && typeof scope === 'string' && typeof key === 'string') {
      keys.set(`${scope}\0${key}`, { scope, key });
    }
    const events = (doc as { events?: unknown }).events;
    if (Array.isArray(events)) {
      for (const e of events) {
        const eid = (e as { id?: unknown } | null)?.id;
        if (typeof eid === 'string') eventIds.add(eid);
      }
    }
  }
  return { ids: [...ids], scopes: [...scopes], eventIds: [...eventIds], keys: [...keys.values()] };
}
