/**
 * Running SQL on the Postgres store: one helper for positional-parameter statements (prepared by the server once
 * per connection), the row shapes beside SQLite's, and the reads both the store and its transactions make.
 */
import type { MemoryEvent } from '../../model/event.ts';
import type { Memory } from '../../model/memory.ts';
import type { Rejection, StoreStats } from '../port.ts';
import type { Sql, TxSql } from './database.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';

export type { EventRow, RejectionRow } from '../sqlite/statements.ts';
export { toEvent, toRejection } from '../sqlite/statements.ts';

import type { EventRow, RejectionRow } from '../sqlite/statements.ts';
import { toEvent, toRejection } from '../sqlite/statements.ts';

/** A connection's SQL function inside a tenant transaction (or a savepoint of one). */
export type Q = TxSql | Sql;
export type Param = string | number | boolean | null | Uint8Array | string[] | number[];

/** Runs one statement with `$1…` parameters; the server prepares it once per connection. */
export async function run<T>(q: Q, text: string, params: readonly Param[] = []): Promise<T[]> {
  // biome-ignore lint/suspicious/noExplicitAny: postgres.js types parameters loosely
  return (await q.unsafe(text, params as any[], { prepare: true })) as unknown as T[];
}

/**
 * Sends a write whose result nobody reads without waiting for it: inside a transaction postgres.js pipelines it
 * with the statements that follow on the same connection, and the server runs them in order, so later reads see
 * it. A failure aborts the transaction (postgres.js rethrows it when the transaction ends); callers that need it
 * sooner (a savepoint's end) wait for the returned promise.
 */
export function send(q: Q, text: string, params: readonly Param[] = []): Promise<unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: postgres.js types parameters loosely
  const sent = q.unsafe(text, params as any[], { prepare: true }).execute();
  sent.catch(() => undefined);
  return sent;
}

export async function one<T>(q: Q, text: string, params: readonly Param[] = []): Promise<T | undefined> {
  return (await run<T>(q, text, params))[0];
}

/** Collects parameters for SQL built per call (search and list filters): `p.add(v)` returns its `$n`. */
export class Params {
  readonly values: Param[] = [];
  add(value: Param): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export const REJECTION_COLUMNS =
  'seq::float8 as seq, scope, fingerprint, memory_id, reason, by, at, lifted_at, lifted_by, lift_reason';

export async function readMemory(q: Q, id: string): Promise<Memory | null> {
  const row = await one<MemoryRow>(q, `select ${MEMORY_COLUMNS} from memledger.memories m where m.id = $1`, [
    id,
  ]);
  return row === undefined ? null : toMemory(row);
}

export async function readMemoryRow(q: Q, id: string): Promise<MemoryRow | undefined> {
  return one<MemoryRow>(q, `select ${MEMORY_COLUMNS} from memledger.memories m where m.id = $1`, [id]);
}

export async function readEvents(q: Q, memoryId: string): Promise<MemoryEvent[]> {
  return (
    await run<EventRow>(
      q,
      `select id, type, memory_id, actor, actor_kind, at, reason, detail from memledger.events
       where memory_id = $1 order by seq`,
      [memoryId],
    )
  ).map(toEvent);
}

export async function readRejections(q: Q, memoryId: string): Promise<Rejection[]> {
  return (
    await run<RejectionRow>(
      q,
      `select ${REJECTION_COLUMNS} from memledger.rejections where memory_id = $1 order by seq`,
      [memoryId],
    )
  ).map(toRejection);
}

/** Breadth-first walk over supersede and edit links in both directions, as SQLite's readComponent. */
export async function readComponent(q: Q, id: string): Promise<Memory[]> {
  const start = await readMemoryRow(q, id);
  if (start === undefined) return [];
  const seen = new Map<string, MemoryRow>([[start.id, start]]);
  let frontier = [start.id];
  while (frontier.length > 0 && seen.size < 10_000) {
    const linked = await run<MemoryRow>(
      q,
      `select ${MEMORY_COLUMNS} from memledger.memories m
       where m.supersedes = any($1::text[]) or m.edit_of = any($1::text[]) or m.id in (
         select unnest(array[x.supersedes, x.edit_of, x.superseded_by]) from memledger.memories x
         where x.id = any($1::text[]))`,
      [frontier],
    );
    frontier = [];
    for (const row of linked) {
      if (!seen.has(row.id)) {
        seen.set(row.id, row);
        frontier.push(row.id);
      }
    }
  }
  return [...seen.values()].sort((a, b) => a.seq - b.seq).map(toMemory);
}

/** The store's counts (`memledger stats`): memories by state, scopes, events, rejections, erasures. */
export async function readStoreStats(q: Q): Promise<StoreStats> {
  const byState: Record<string, number> = {};
  let memories = 0;
  for (const r of await run<{ state: string; n: number }>(
    q,
    'select state, count(*)::int as n from memledger.memories group by state',
  )) {
    byState[r.state] = r.n;
    memories += r.n;
  }
  const count = async (sql: string) => Number((await one<{ n: number }>(q, sql))?.n ?? 0);
  return {
    memories,
    byState,
    scopes: await count('select count(distinct scope)::int as n from memledger.memories'),
    events: await count('select count(*)::int as n from memledger.events'),
    rejections: await count('select count(*)::int as n from memledger.rejections'),
    erasures: await count('select count(*)::int as n from memledger.erasures'),
    files: {},
  };
}
