/**
 * A transaction bound to a tenant in one round trip: BEGIN, the tenant setting, the statements and COMMIT go out
 * together and their answers are awaited once (`inTenantPipelined` waits for its statements before COMMIT, one
 * round trip more). Measured in bench/pg-profile.ts.
 */
import type postgres from 'postgres';
import { MemoryError } from '../../model/errors.ts';
import { checkTenant, type Sql, TENANT_SETTING, type TxSql } from './database.ts';
import type { Param } from './statements.ts';

export interface AtOnceOptions {
  /** `read only`: the server refuses any write among the statements. */
  mode: 'read only' | 'read write';
  /** Transaction-local settings sent after the tenant's (e.g. `synchronous_commit`). */
  settings?: Record<string, string>;
}

/**
 * Runs the statements `build` makes in one transaction of `tenant` and returns their results in order. They
 * cannot depend on one another's results. A failed statement aborts the transaction, so COMMIT answers
 * ROLLBACK: the statement's error is thrown; a COMMIT that answers anything else is an `internal` error.
 */
export async function inTenantAtOnce(
  sql: Sql,
  tenant: string,
  build: (q: Sql) => postgres.PendingQuery<postgres.Row[]>[],
  options: AtOnceOptions,
): Promise<postgres.RowList<postgres.Row[]>[]> {
  checkTenant(tenant);
  const q = await sql.reserve();
  try {
    const sent: postgres.PendingQuery<postgres.Row[]>[] = [
      q.unsafe(`begin ${options.mode === 'read only' ? 'read only' : 'read write'}`),
      q`select set_config(${TENANT_SETTING}, ${tenant}, true)`,
    ];
    for (const [name, value] of Object.entries(options.settings ?? {})) {
      sent.push(q`select set_config(${name}, ${value}, true)`);
    }
    const head = sent.length;
    sent.push(...build(q));
    sent.push(q`commit`);
    // Every answer is in before the connection goes back to the pool, failed or not.
    const settled = await Promise.allSettled(sent.map((s) => s.execute()));
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed !== undefined) {
      await q`rollback`.catch(() => undefined);
      throw failed.reason;
    }
    const results = settled.map((s) => (s as PromiseFulfilledResult<postgres.RowList<postgres.Row[]>>).value);
    if (results.at(-1)?.command !== 'COMMIT') {
      throw new MemoryError('internal', 'the transaction was rolled back');
    }
    return results.slice(head, -1);
  } finally {
    q.release();
  }
}

/**
 * A pool-like handle for `run`/`one` of statements.ts (its `unsafe` only) whose every statement is its own
 * read-only transaction of `tenant`, in one round trip. A read of several statements sees what it would in one
 * transaction: under READ COMMITTED, Postgres's default and the store's, each statement takes its own snapshot.
 */
export function readEach(sql: Sql, tenant: string): Sql {
  const unsafe = (text: string, params?: readonly Param[], opts?: { prepare?: boolean }) => {
    const answer = inTenantAtOnce(
      sql,
      tenant,
      // biome-ignore lint/suspicious/noExplicitAny: postgres.js types parameters loosely
      (q) => [q.unsafe(text, params as any[], opts)],
      { mode: 'read only' },
    ).then((r) => r[0]);
    return Object.assign(answer, { execute: () => answer });
  };
  return { unsafe } as unknown as Sql;
}

/**
 * What a write's work hands back: its result, and statements it sent without waiting, which go out before
 * COMMIT. Only statements whose failure is the server's (it aborts the transaction, so COMMIT rolls back): a
 * refusal the client reads from a result (no row returned) must be awaited before, or the COMMIT would land.
 */
export interface WriteWork<T> {
  out: T;
  pending: Promise<unknown>[];
}

/**
 * A write transaction of `tenant` in two round trips fewer than `inTenant`: BEGIN and the tenant setting go out
 * with the work's first statement instead of BEGIN waiting on its own, and COMMIT goes out behind the
 * statements the work left in flight instead of after them. Any of those failing turns the COMMIT into a
 * rollback, and its error is thrown (a unique violation, a deadlock: what the caller retries or maps). The
 * work gets the reserved connection with `savepoint` (SAVEPOINT, RELEASE, ROLLBACK TO on the same connection),
 * so a refused statement inside one leaves the transaction usable, as with postgres.js's own.
 */
export async function inTenantWrite<T>(
  sql: Sql,
  tenant: string,
  work: (q: TxSql) => Promise<WriteWork<T>>,
): Promise<T> {
  checkTenant(tenant);
  const q = await sql.reserve();
  let depth = 0;
  const savepoint = async <R>(a: unknown, b?: unknown): Promise<R> => {
    const fn = (typeof a === 'function' ? a : b) as (sp: TxSql) => Promise<R>;
    const name = `ml_sp_${++depth}`;
    try {
      await q.unsafe(`savepoint ${name}`);
      try {
        const out = await fn(tx);
        await q.unsafe(`release savepoint ${name}`);
        return out;
      } catch (error) {
        await q.unsafe(`rollback to savepoint ${name}`).catch(() => undefined);
        throw error;
      }
    } finally {
      depth--;
    }
  };
  const tx = Object.assign(q, { savepoint }) as unknown as TxSql;
  try {
    const head = [q`begin`.execute(), q`select set_config(${TENANT_SETTING}, ${tenant}, true)`.execute()];
    for (const h of head) h.catch(() => undefined);
    const { out, pending } = await work(tx);
    const commit = q`commit`.execute();
    const settled = await Promise.allSettled([...head, ...pending, commit]);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed !== undefined) {
      await q`rollback`.catch(() => undefined);
      throw failed.reason;
    }
    const done = (settled.at(-1) as PromiseFulfilledResult<postgres.RowList<postgres.Row[]>>).value;
    // The answer to a COMMIT of an aborted transaction is ROLLBACK, not an error.
    if (done.command !== 'COMMIT') throw new MemoryError('internal', 'the transaction was rolled back');
    return out;
  } catch (error) {
    await q`rollback`.catch(() => undefined);
    throw error;
  } finally {
    q.release();
  }
}
