/**
 * Shared by the Postgres store tests: a database of their own on the run's cluster, migrated by the superuser,
 * a login role that is a member of `memledger_app` (so row-level security binds), and ledgers over a fresh
 * tenant each, opened as users open them: `openLedger({ store: URL })`, with the tenant's audit in the database.
 */
import { randomBytes } from 'node:crypto';
import { after, before, describe } from 'node:test';
import { type Ledger, openLedger } from '../../src/ledger/ledger.ts';
import type { SemanticOptions } from '../../src/embed/semantic.ts';
import { nowIso } from '../../src/model/time.ts';
import { DEFAULT_POLICY_DOCUMENT, parsePolicy, type Policy } from '../../src/policy/policy-file.ts';
import { connect } from '../../src/store/postgres/database.ts';
import { migratePostgres } from '../../src/store/postgres/backend.ts';
import type { PostgresStore } from '../../src/store/postgres/store.ts';
import { testCluster } from '../support/pg-cluster.ts';

export interface PgTestDatabase {
  /** The superuser on this database (migrations, maintenance, raw checks). */
  adminUrl: string;
  /** A login role in memledger_app on this database. */
  appUrl: string;
  role: string;
  drop(): Promise<void>;
}

const withDatabase = (url: string, db: string, user?: string) => {
  const u = new URL(url);
  u.pathname = `/${db}`;
  if (user !== undefined) u.username = user;
  return u.toString();
};

/** A database and an application login role of this test file's own; dropped at the end. */
export async function pgTestDatabase(clusterUrl: string): Promise<PgTestDatabase> {
  const suffix = randomBytes(4).toString('hex');
  const name = `ml_${suffix}`;
  const role = `ml_app_${suffix}`;
  const root = connect(clusterUrl, { max: 1 });
  await root.unsafe(`create database ${name}`);
  const adminUrl = withDatabase(clusterUrl, name);
  await migratePostgres(adminUrl, {});
  const admin = connect(adminUrl, { max: 1 });
  await admin.unsafe(`create role ${role} login in role memledger_app`);
  await admin.end();
  return {
    adminUrl,
    appUrl: withDatabase(clusterUrl, name, role),
    role,
    async drop() {
      await root.unsafe(`drop database if exists ${name} with (force)`);
      await root.unsafe(`drop role if exists ${role}`);
      await root.end();
    },
  };
}

/**
 * A describe block with a database of its own on the run's cluster (made before its tests, dropped after them):
 * `database()` inside a test. Skipped with the reason when the run has no cluster, or with `options.skip`.
 */
export function describeOnPostgres(
  name: string,
  options: { skip?: string | false },
  body: (database: () => PgTestDatabase) => void,
): void {
  const cluster = testCluster();
  const skip = 'skip' in cluster ? cluster.skip : (options.skip ?? false);
  let db: PgTestDatabase | undefined;
  describe(name, { skip }, () => {
    before(async () => {
      if (skip === false && !('skip' in cluster)) db = await pgTestDatabase(cluster.url);
    });
    after(async () => {
      await db?.drop();
    });
    body(() => {
      if (db === undefined) throw new Error('no test database: the suite is skipped');
      return db;
    });
  });
}

export const newTenant = (): string => `t_${randomBytes(6).toString('hex')}`;

/** A ledger over a fresh tenant through `openLedger({ store })`, connected as the application role. */
export async function openPgLedger(
  db: PgTestDatabase,
  options: { policy?: Policy; now?: () => string; tenant?: string; semantic?: SemanticOptions } = {},
): Promise<{ ledger: Ledger; store: PostgresStore; home: string; tenant: string; close(): Promise<void> }> {
  const tenant = options.tenant ?? newTenant();
  const url = new URL(db.appUrl);
  url.searchParams.set('tenant', tenant);
  const ledger = openLedger({
    store: url.toString(),
    policy: options.policy ?? parsePolicy(DEFAULT_POLICY_DOCUMENT),
    now: options.now ?? nowIso,
    maintenanceUrl: db.adminUrl,
    ...(options.semantic === undefined ? {} : { semantic: options.semantic }),
  });
  await ledger.ready;
  const store = ledger.store as PostgresStore;
  return {
    ledger,
    store,
    home: url.toString(),
    tenant,
    async close() {
      ledger.close();
      await store.end();
    },
  };
}

/**
 * A database as README "Running on PostgreSQL" deploys it: owned by a non-superuser LOGIN CREATEROLE role that
 * migrates it (`ownerUrl`), with an application login in memledger_app (`appUrl`); `adminUrl` is the superuser.
 * A superuser bypasses row-level security everywhere, so what the owner's definer functions see is tested here.
 */
export async function pgOwnedDatabase(clusterUrl: string): Promise<PgTestDatabase & { ownerUrl: string }> {
  const suffix = randomBytes(4).toString('hex');
  const name = `ml_own_${suffix}`;
  const owner = `ml_owner_${suffix}`;
  const role = `ml_app_${suffix}`;
  const root = connect(clusterUrl, { max: 1 });
  await root.unsafe(`create role ${owner} login createrole`);
  await root.unsafe(`create database ${name} owner ${owner}`);
  const ownerUrl = withDatabase(clusterUrl, name, owner);
  await migratePostgres(ownerUrl, {});
  const o = connect(ownerUrl, { max: 1 });
  await o.unsafe(`create role ${role} login in role memledger_app`);
  await o.end();
  return {
    adminUrl: withDatabase(clusterUrl, name),
    ownerUrl,
    appUrl: withDatabase(clusterUrl, name, role),
    role,
    async drop() {
      await root.unsafe(`drop database if exists ${name} with (force)`);
      await root.unsafe(`drop role if exists ${role}`);
      await root.unsafe(`drop role if exists ${owner}`);
      await root.end();
    },
  };
}
