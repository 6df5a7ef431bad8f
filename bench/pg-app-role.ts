/**
 * The store URL the bench's ledger and replicas use on Postgres: a login of `memledger_app`, as the README's
 * deployment runs `memledger serve`, never the superuser the bench's URL names. A superuser bypasses row-level
 * security, so the tenant predicate every index leads with is missing from its plans: at 100k a hit's re-read
 * scanned the whole memories table (5,046 buffers a call, pg_stat_statements) where the application's plan
 * reads a dozen rows.
 */
import { randomBytes } from 'node:crypto';
import { migratePostgres } from '../src/store/postgres/backend.ts';
import { connect } from '../src/store/postgres/database.ts';

/** The role's name: one per cluster, its password set anew by each run (roles belong to the cluster). */
export const BENCH_APP_ROLE = 'memledger_bench_app';

/** Migrates the bench's database as the URL's role, then returns `url` as the application login with `?tenant=`. */
export async function appStoreUrl(url: string, tenant: string): Promise<string> {
  await migratePostgres(url, {});
  const password = randomBytes(12).toString('hex');
  const sql = connect(url, { max: 1 });
  try {
    await sql.unsafe(`do $$ begin
      create role ${BENCH_APP_ROLE} login in role memledger_app;
      exception when duplicate_object then null; end $$`);
    await sql.unsafe(`alter role ${BENCH_APP_ROLE} login password '${password}'`);
    await sql.unsafe(`grant memledger_app to ${BENCH_APP_ROLE}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const app = new URL(url);
  app.username = BENCH_APP_ROLE;
  app.password = password;
  app.search = `?tenant=${tenant}`;
  return app.toString();
}
