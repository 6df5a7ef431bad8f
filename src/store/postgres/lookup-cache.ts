/**
 * Answers a write transaction looked up ahead (`StoreTx.preload`): the ids known absent and the standing
 * rejections of whole scopes and the absent event ids, read in three statements per import batch instead of
 * three per line. It holds only
 * what the transaction's own writes keep true (the tenant's write lock keeps every other writer out): an insert
 * takes its id off the absent list, any rejection change forgets its scope, an erasure forgets them all.
 */
import { type Q, REJECTION_COLUMNS, type RejectionRow, run } from './statements.ts';

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

  async preload(
    q: Q,
    hint: { ids: readonly string[]; scopes: readonly string[]; eventIds?: readonly string[] },
  ): Promise<void> {
    const ids = [...hint.ids];
    const scopes = [...hint.scopes];
    const eventIds = [...(hint.eventIds ?? [])];
    const [present, rejections, events] = await Promise.all([
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
    ]);
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

  rejectionsChanged(scope: string): void {
    this.#standing.delete(scope);
  }

  erased(): void {
    this.#standing.clear();
  }
}
