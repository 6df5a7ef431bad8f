/**
 * Opening the Postgres store: `openPostgresStore(url, { tenant })` migrates part `store` when the URL's role may
 * (the tables' owner or a superuser), else checks the schema version and refuses a stale one; the tenant gets
 * its hash key on first open. `migratePostgresStore(url)` applies the migrations alone (`memledger migrate`).
 */
import { randomBytes } from 'node:crypto';
import { MemoryError } from '../../model/errors.ts';
import { checkTenant, connect, inTenant, migrate, schemaVersion, type Sql } from './database.ts';
import { STORE_MIGRATIONS, STORE_PART } from './migrations/index.ts';
import { run } from './statements.ts';
import type { MaintenanceNotice } from './erasure-maintenance.ts';
import { PostgresStore } from './store.ts';

export interface OpenPostgresOptions {
  /** The tenant the store reads and writes; default `default`. A URL's `?tenant=` is used when this is absent. */
  tenant?: string;
  /** Connections in the pool. */
  max?: number;
  /** A URL of the tables' owner for the maintenance erasure needs (VACUUM FULL, CHECKPOINT; I9). */
  maintenanceUrl?: string;
}

const LATEST = STORE_MIGRATIONS.at(-1)!.version;

/** Applies the store's pending migrations; returns the versions applied. */
export async function migratePostgresStore(url: string): Promise<number[]> {
  const sql = connect(stripTenant(url).url, { max: 1 });
  try {
    return await migrate(sql, STORE_PART, STORE_MIGRATIONS);
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function openPostgresStore(
  url: string,
  options: OpenPostgresOptions = {},
): Promise<PostgresStore> {
  const parsed = stripTenant(url);
  const tenant = options.tenant ?? parsed.tenant ?? 'default';
  checkTenant(tenant);
  const sql = connect(parsed.url, { max: options.max });
  let maintenance: Sql | undefined;
  const notices: MaintenanceNotice[] = [];
  try {
    await ensureSchema(sql);
    maintenance =
      options.maintenanceUrl === undefined
        ? undefined
        : connect(stripTenant(options.maintenanceUrl).url, { max: 1, onNotice: (n) => notices.push(n) });
    const store = new PostgresStore(sql, { tenant, maintenance, maintenanceNotices: notices });
    await inTenant(sql, tenant, async (q) => {
      // The tenant's hash key (I9), made once; two replicas opening a new tenant at once make one between them.
      await q`select pg_advisory_xact_lock(hashtext('memledger write'), hashtext(${tenant}))`;
      await run(
        q,
        `insert into memledger.home_keys (id, key, created_at)
         select $1, $2, $3 where not exists (select 1 from memledger.home_keys)`,
        [`hk${randomBytes(4).toString('hex')}`, randomBytes(32), new Date().toISOString()],
      );
      await store.auditOutbox.load(q);
    });
    return store;
  } catch (error) {
    await sql.end({ timeout: 5 });
    await maintenance?.end({ timeout: 5 });
    throw error;
  }
}

async function ensureSchema(sql: Sql): Promise<void> {
  const version = await schemaVersion(sql, STORE_PART);
  if (version === LATEST) return;
  if (version > LATEST) {
    throw new MemoryError(
      'conflict',
      `the database's store schema is at version ${version}, newer than this memledger (${LATEST}); upgrade memledger`,
    );
  }
  try {
    await migrate(sql, STORE_PART, STORE_MIGRATIONS);
  } catch (error) {
    const code =
      (error as { code?: string; cause?: { code?: string } }).cause?.code ??
      (error as { code?: string }).code;
    if (code === '42501') {
      throw new MemoryError(
        'conflict',
        `the database's store schema is at version ${version}, this memledger needs ${LATEST}, and this role may not migrate it; run memledger migrate as the schema's owner`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** `?tenant=acme` on a URL names the tenant; the parameter is not sent to the server. */
function stripTenant(url: string): { url: string; tenant: string | null } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MemoryError('invalid_input', 'a Postgres store is named by a postgres:// or postgresql:// URL');
  }
  const tenant = parsed.searchParams.get('tenant');
  parsed.searchParams.delete('tenant');
  return { url: parsed.toString(), tenant };
}
