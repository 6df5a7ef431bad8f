/**
 * Answers a write transaction looked up ahead (`StoreTx.preload`): the ids known absent and the standing
 * rejections of whole scopes and the absent event ids and the holders of keys, read in four statements per
 * import batch instead of up to four per line. It holds only
 * what the transaction's own writes keep true (the tenant's write lock keeps every other writer out): an insert
 * takes its id off the absent list, any rejection change forgets its scope, an erasure forgets them all, a new
 * active keyed memory forgets its key's holder and a lifecycle change every holder.
 */
import { foldedKey } from './folded-key.ts';
import { MEMORY_COLUMNS, type MemoryRow } from './rows.ts';
import { type Q, REJECTION_COLUMNS, type RejectionRow, run } from './statements.ts';

/**
 * The holder of each (scope, key), as `readHolder` (unique-writes.ts) finds it: one probe of the key index per
 * pair. Pairs with no holder return no row.
 */
const HOLDERS = `select x.ord::int as ml_ord, h.* from unnest($1::text[], $2::text[]) with ordinality as x(scope, key, ord),
  lateral (select ${MEMORY_COLUMNS} from memledger.memories m
    where m.scope = x.scope and m.key_folded = lower(x.key) and m.state = 'active' and m.key is not null
    limit 1) as h`;

/**
 * Which of a batch's ids a table holds, one index probe per id. `id = any($1)` let the planner scan the whole
 * tenant's `(tenant, id)` index and test each entry against the array instead (its statistics lag a growing
 * table): 2 s per batch of 1,000 at 40,000 memories, most of a restore's time. The LIMIT keeps the subquery a
 * lateral probe the planner cannot turn into that scan (EXPLAIN: a nested loop of index-only scans).
 */
const probe = (table: string) =>
  `select x.id from unnest($1::text[]) as x(id),
     lateral (select 1 from ${table} t where t.id = x.id limit 1) as found`;

/** A scope with more standing rejections than this is not held: its lookups go to the database. */
const MAX_REJECTIONS = 10_000;

export class LookupCache {
  readonly #absent = new Set<string>();
  readonly #standing = new Map<string, RejectionRow[]>();
  readonly #absentEvents = new Set<string>();
  /**
   * Looked-up key holders (null: none), by `foldedKey`, so two spellings of one key share an entry (and a new
   * holder of either forgets it). A non-ASCII key is never held, and a new non-ASCII holder forgets them all.
   */
  readonly #holders = new Map<string, MemoryRow | null>();

  async preload(
    q: Q,
    hint: {
      ids: readonly string[];
      scopes: readonly string[];
      eventIds?: readonly string[];
      keys?: readonly { scope: string; key: string }[];
    },
  ): Promise<void> {
    const ids = [...hint.ids];
    const scopes = [...hint.scopes];
    const eventIds = [...(hint.eventIds ?? [])];
    const keys = new Map<string, { scope: string; key: string }>();
    for (const k of hint.keys ?? []) {
      const at = foldedKey(k.scope, k.key);
      if (at !== null) keys.set(at, k);
    }
    const pairs = [...keys.values()];
    const [present, rejections, events, holders] = await Promise.all([
      ids.length === 0 ? [] : run<{ id: string }>(q, probe('memledger.memories'), [ids]),
      scopes.length === 0
        ? []
        : run<RejectionRow>(
            q,
            `select ${REJECTION_COLUMNS} from memledger.rejections
             where scope = any($1::text[]) and lifted_at is null order by seq limit ${MAX_REJECTIONS + 1}`,
            [scopes],
          ),
      eventIds.length === 0 ? [] : run<{ id: string }>(q, probe('memledger.events'), [eventIds]),
      pairs.length === 0
        ? []
        : run<MemoryRow & { ml_ord: number }>(q, HOLDERS, [
            pairs.map((p) => p.scope),
            pairs.map((p) => p.key),
          ]),
    ]);
    for (const at of keys.keys()) this.#holders.set(at, null);
    for (const { ml_ord, ...row } of holders) {
      const pair = pairs[ml_ord - 1]!;
      this.#holders.set(foldedKey(pair.scope, pair.key)!, row as MemoryRow);
    }
    const found = new Set(present.map((r) => r.id));
    for (const id of ids) if (!found.has(id)) this.#absent.add(id);
    const seen = new Set(events.map((r) => r.id));
    for (const id of eventIds) if (!seen.has(id)) this.#absentEvents.add(id);
    // Over the cap, nothing is held (the rows may be any part of the scopes' rejections).
    if (rejections.length > MAX_REJECTIONS) return;
    for (const scope of scopes) this.#standing.set(scope, []);
    for (const r of rejections) this.#standing.get(r.scope)?.push(r);
  }

  /** True when the id is known absent: no memory to read. */
  absent(id: string): boolean {
    return this.#absent.has(id);
  }

  /** The scope's standing rejections, or undefined when they were not looked up (ask the database). */
  standing(scope: string): RejectionRow[] | undefined {
    return this.#standing.get(scope);
  }

  inserted(id: string): void {
    this.#absent.delete(id);
  }

  /** True when the event id is known absent. */
  eventAbsent(id: string): boolean {
    return this.#absentEvents.has(id);
  }

  eventInserted(id: string): void {
    this.#absentEvents.delete(id);
  }

  /** The key's holder (null: none), or undefined when it was not looked up (ask the database). */
  holder(scope: string, key: string): MemoryRow | null | undefined {
    const at = foldedKey(scope, key);
    return at === null ? undefined : this.#holders.get(at);
  }

  /** A memory holding (scope, key) may have been written: its holder is no longer known. */
  holderChanged(scope: string, key: string): void {
    const at = foldedKey(scope, key);
    if (at === null) this.#holders.clear();
    else this.#holders.delete(at);
  }

  /** A memory's state changed: any key's holder may have. */
  holdersChanged(): void {
    this.#holders.clear();
  }

  rejectionsChanged(scope: string): void {
    this.#standing.delete(scope);
  }

  erased(): void {
    this.#standing.clear();
    this.#holders.clear();
  }
}
