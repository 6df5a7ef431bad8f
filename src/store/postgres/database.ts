/**
 * Connecting to PostgreSQL the way every memledger part does (the store, the audit, the tokens): one postgres.js
 * pool, forward-only migrations per part, and transactions bound to one tenant.
 *
 * Tenancy is row-level security keyed on a per-transaction setting, `memledger.tenant`: every transaction of a
 * tenant's connection sets it first (`set_config(…, true)`, so it ends with the transaction and a pooled
 * connection never carries it into another tenant's work). Policies read it with
 * `current_setting('memledger.tenant', true)`, so a connection that never set it sees no row at all.
 */
import postgres from 'postgres';
import { MemoryError } from '../../model/errors.ts';

/** A postgres.js connection pool (or one transaction of it: both are tagged-template SQL functions). */
export type Sql = postgres.Sql;
export type TxSql = postgres.TransactionSql;

/** The setting row-level security policies compare each row's `tenant` column with. */
export const TENANT_SETTING = 'memledger.tenant';

/** A tenant id: a short, plain name (it appears in settings and logs, never memory content). */
export const TENANT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

/**
 * A forward-only migration of one part (`part` below). `up` runs inside the migration's transaction, with the
 * migration lock held, so replicas starting at once apply each migration exactly once.
 */
export interface PgMigration {
  version: number;
  name: string;
  up(sql: TxSql): Promise<void>;
}

export interface PgOptions {
  /** Connections in the pool. Default 10. */
  max?: number;
  /** Seconds a connection may stay idle before it is closed. Default 30. */
  idleTimeout?: number;
  /** Receives the server's notices and INFO messages (VACUUM VERBOSE's counts); default: dropped. */
  onNotice?: (notice: { message?: string; detail?: string }) => void;
}

/** Opens a pool. Nothing connects until the first query (postgres.js connects lazily). */
export function connect(url: string, options: PgOptions = {}): Sql {
  if (!/^postgres(ql)?:\/\//.test(url)) {
    throw new MemoryError('invalid_input', 'a Postgres store is named by a postgres:// or postgresql:// URL');
  }
  return postgres(url, {
    max: options.max ?? 10,
    idle_timeout: options.idleTimeout ?? 30,
    onnotice: options.onNotice ?? (() => {}),
    // Timestamps stay the ISO strings the ledger stores; nothing is converted behind its back.
    types: {},
    connection: { application_name: 'memledger' },
  });
}

/**
 * Runs `fn` in one transaction bound to `tenant`: RLS policies see only that tenant's rows.
 * @example await inTenant(sql, 'acme', (tx) => tx`select count(*) from memories`)
 */
export async function inTenant<T>(sql: Sql, tenant: string, fn: (tx: TxSql) => Promise<T>): Promise<T> {
  checkTenant(tenant);
  return (await sql.begin(async (tx) => {
    // Not waited for on its own: it goes out with fn's first statement (one round trip less per transaction, the
    // server runs them in order). Should it fail, the transaction is aborted and postgres.js throws its error.
    void tx`select set_config(${TENANT_SETTING}, ${tenant}, true)`.execute();
    return fn(tx);
  })) as T;
}

/**
 * `inTenant` for work that needs no savepoint, in one round trip less: BEGIN and the tenant setting go out with
 * fn's first statement on a reserved connection instead of BEGIN waiting on its own. COMMIT is sent only after
 * fn and the two have succeeded (Postgres answers a COMMIT after a failed statement with a rollback, not an
 * error), so fn must wait for its statements, as `run` does. Measured in bench/pg-profile.ts.
 */
export async function inTenantPipelined<T>(sql: Sql, tenant: string, fn: (q: Sql) => Promise<T>): Promise<T> {
  checkTenant(tenant);
  const q = await sql.reserve();
  try {
    const begin = q`begin`.execute();
    const bound = q`select set_config(${TENANT_SETTING}, ${tenant}, true)`.execute();
    begin.catch(() => undefined);
    bound.catch(() => undefined);
    try {
      const out = await fn(q);
      await Promise.all([begin, bound]);
      const done = await q`commit`;
      // The answer to a COMMIT of an aborted transaction is ROLLBACK, not an error.
      if (done.command !== 'COMMIT') throw new MemoryError('internal', 'the transaction was rolled back');
      return out;
    } catch (error) {
      await q`rollback`.catch(() => undefined);
      throw error;
    }
  } finally {
    q.release();
  }
}

export function checkTenant(tenant: string): void {
  if (!TENANT_PATTERN.test(tenant)) {
    throw new MemoryError(
      'invalid_input',
      'a tenant is 1 to 63 characters: lower-case letters, digits, - and _, starting with a letter or digit',
    );
  }
}

/**
 * Applies a part's pending migrations in order, each in its own transaction under an advisory lock, and records
 * them in `memledger_migrations`. A database migrated by a newer memledger is refused, never written.
 */
export async function migrate(sql: Sql, part: string, migrations: readonly PgMigration[]): Promise<number[]> {
  await sql.begin(async (tx) => {
    // Two replicas creating the table at once would collide in the catalog: the lock makes one wait.
    await tx`select pg_advisory_xact_lock(hashtext('memledger migrate'))`;
    await tx`create table if not exists memledger_migrations (
      part text not null,
      version integer not null,
      name text not null,
      applied_at timestamptz not null default now(),
      primary key (part, version)
    )`;
  });
  const applied: number[] = [];
  const latest = migrations.at(-1)?.version ?? 0;
  for (const m of migrations) {
    await sql.begin(async (tx) => {
      // One migrator at a time across every replica; the lock ends with the transaction.
      await tx`select pg_advisory_xact_lock(hashtext('memledger migrate'))`;
      const [row] = await tx<{ v: number | null }[]>`
        select max(version) as v from memledger_migrations where part = ${part}`;
      const current = Number(row?.v ?? 0);
      if (current > latest) {
        throw new MemoryError(
          'conflict',
          `the database's ${part} schema is at version ${current}, newer than this memledger (${latest}); upgrade memledger`,
        );
      }
      if (current >= m.version) return;
      try {
        await m.up(tx);
      } catch (error) {
        throw new MemoryError(
          'internal',
          `migration ${part} ${m.version} (${m.name}) failed: ${(error as Error).message}`,
          { cause: error },
        );
      }
      await tx`insert into memledger_migrations (part, version, name) values (${part}, ${m.version}, ${m.name})`;
      applied.push(m.version);
    });
  }
  return applied;
}

/** The version a part's schema is at (0: never migrated). */
export async function schemaVersion(sql: Sql, part: string): Promise<number> {
  const [exists] = await sql<{ t: string | null }[]>`select to_regclass('memledger_migrations')::text as t`;
  if (exists?.t === null || exists?.t === undefined) return 0;
  const [row] = await sql<{ v: number | null }[]>`
    select max(version) as v from memledger_migrations where part = ${part}`;
  return Number(row?.v ?? 0);
}

/** SQLSTATE classes the ledger maps: unique violation (23505) is a `conflict`; connection failures `upstream`. */
export function pgError(error: unknown, what: string): MemoryError {
  if (error instanceof MemoryError) return error;
  const code = (error as { code?: string }).code;
  if (code === '23505') {
    return new MemoryError('conflict', `${what}: a unique rule refused it`, { cause: error });
  }
  if (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'CONNECTION_CLOSED' ||
    code === 'CONNECTION_ENDED' ||
    code === 'CONNECT_TIMEOUT' ||
    code?.startsWith('08') === true ||
    code === '57P01' ||
    code === '40001' ||
    code === '40P01'
  ) {
    return new MemoryError('upstream', `the database failed to ${what} (${code}); retry`, { cause: error });
  }
  return new MemoryError('internal', `storage failed to ${what}: ${(error as Error).message}`, {
    cause: error,
  });
}
