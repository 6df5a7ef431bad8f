/**
 * The PostgreSQL backend as the registry loads it (src/store/backend.ts): one tenant of a database, its store,
 * its audit sink and its token store, each in its own schema, opened and migrated together.
 *
 * Migrating needs the schema's owner (or a superuser). A server connecting as a `memledger_app` login finds the
 * schema current (`memledger migrate` ran as the owner) and migrates nothing; a schema that is behind is refused
 * with what to run. Erasure's maintenance (VACUUM FULL, CHECKPOINT, WAL switches; I9) runs on
 * `MEMLEDGER_MAINTENANCE_URL` when set, else on the store's own URL when its role may do it.
 */
import { AUDIT_MIGRATIONS, openPostgresAudit } from '../../audit/postgres-audit.ts';
import { openPostgresTokens, TOKEN_MIGRATIONS } from '../../auth/postgres-token-store.ts';
import type { TokenStore } from '../../auth/token-store.ts';
import type { BackendOptions, MigrationReport, MigrationStep, OpenedStore } from '../backend.ts';
import { connect, migrate, type PgMigration, schemaVersion, type Sql } from './database.ts';
import { STORE_MIGRATIONS, STORE_PART } from './migrations/index.ts';
import { openPostgresStore } from './open.ts';

const PARTS: readonly [string, readonly PgMigration[]][] = [
  [STORE_PART, STORE_MIGRATIONS],
  ['audit', AUDIT_MIGRATIONS],
  ['tokens', TOKEN_MIGRATIONS],
];

/** The URL without `?tenant=` (never sent to the server), and the tenant it names. */
function target(url: string, options: BackendOptions): { url: string; tenant: string } {
  const parsed = new URL(url);
  const tenant = options.tenant ?? parsed.searchParams.get('tenant') ?? 'default';
  parsed.searchParams.delete('tenant');
  return { url: parsed.toString(), tenant };
}

/** Whether this URL's role may migrate and maintain: a superuser, or the owner of the store's schema. */
async function mayMaintain(sql: Sql): Promise<boolean> {
  const [row] = await sql<{ ok: boolean }[]>`
    select (select rolsuper from pg_roles where rolname = current_user)
        or coalesce((select pg_get_userbyid(nspowner) = current_user from pg_namespace where nspname = 'memledger'), false)
        or not exists (select 1 from pg_namespace where nspname = 'memledger') as ok`;
  return row?.ok === true;
}

/** Parts whose schema is behind this memledger's migrations. */
async function behind(sql: Sql): Promise<string[]> {
  const out: string[] = [];
  for (const [part, migrations] of PARTS) {
    if ((await schemaVersion(sql, part)) < (migrations.at(-1)?.version ?? 0)) out.push(part);
  }
  return out;
}

export async function openPostgres(url: string, options: BackendOptions): Promise<OpenedStore> {
  const t = target(url, options);
  const probe = connect(t.url, { max: 1 });
  let owner: boolean;
  let stale: string[];
  try {
    owner = await mayMaintain(probe);
    stale = await behind(probe);
  } finally {
    await probe.end({ timeout: 5 });
  }
  const maintenanceUrl =
    options.maintenanceUrl ?? (process.env.MEMLEDGER_MAINTENANCE_URL || (owner ? t.url : undefined));
  // The store refuses a stale schema it may not migrate, naming what to run.
  const store = await openPostgresStore(t.url, { tenant: t.tenant, maintenanceUrl });
  const migrateToo = owner && stale.length > 0;
  let audit: Awaited<ReturnType<typeof openPostgresAudit>>;
  try {
    audit = await openPostgresAudit(t.url, { tenant: t.tenant, migrate: migrateToo });
  } catch (error) {
    await store.end();
    throw error;
  }
  let released = false;
  return {
    store,
    audit,
    fresh: true,
    release: () => {
      if (released) return;
      released = true;
      store.close();
      void audit.close();
    },
  };
}

export async function migratePostgres(url: string, options: BackendOptions): Promise<MigrationReport> {
  const t = target(url, options);
  const sql = connect(t.url, { max: 1 });
  try {
    const applied: MigrationStep[] = [];
    const versions: Record<string, number> = {};
    for (const [part, migrations] of PARTS) {
      const done = await migrate(sql, part, migrations);
      for (const m of migrations)
        if (done.includes(m.version)) applied.push({ part, version: m.version, name: m.name });
      versions[part] = await schemaVersion(sql, part);
    }
    const shown = new URL(t.url);
    shown.password = '';
    return { store: shown.toString(), applied, versions };
  } finally {
    await sql.end({ timeout: 5 });
  }
}

export async function openPostgresTokenStore(url: string, options: BackendOptions): Promise<TokenStore> {
  const t = target(url, options);
  const probe = connect(t.url, { max: 1 });
  let migrateToo: boolean;
  try {
    migrateToo =
      (await mayMaintain(probe)) &&
      (await schemaVersion(probe, 'tokens')) < (TOKEN_MIGRATIONS.at(-1)?.version ?? 0);
  } finally {
    await probe.end({ timeout: 5 });
  }
  return openPostgresTokens(t.url, { tenant: t.tenant, migrate: migrateToo });
}
