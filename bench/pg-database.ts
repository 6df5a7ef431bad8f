/**
 * The bench's own database on a Postgres server (`--store URL`): created fresh for the run, so nothing the run
 * writes lands in a database someone uses (memories cannot be deleted, I1), and dropped at the end, whatever
 * connections are still open on it. The ledger connects as a login role of `memledger_app` (`appUrl`), as the
 * product runs, so row-level security binds (a superuser bypasses it and gets other plans: issue 10); the raw
 * baseline keeps the creating role.
 */
import { randomBytes } from 'node:crypto';
import { migratePostgres } from '../src/store/postgres/backend.ts';
import { connect } from '../src/store/postgres/database.ts';

export interface BenchDatabase {
  /** The fresh database's URL: the given one with its database name (and no query) replaced. */
  url: string;
  name: string;
  /** The server's `server_version`, for the report. */
  serverVersion: string;
  /**
   * Migrates the database as its owner, makes the run's login role in `memledger_app` and returns its URL on
   * `tenant`: what the ledger opens (with `url` as its maintenance URL).
   */
  appUrl(tenant: string): Promise<string>;
  drop(): Promise<void>;
}

/**
 * `template`: a database built before (bench/pg-template.ts) to clone instead of starting empty, so a 1M run
 * does not load its data set again; the template must have no open connection while it is cloned.
 */
export async function createBenchDatabase(
  url: string,
  log: (m: string) => void,
  template: string | null = null,
): Promise<BenchDatabase> {
  const name = `memledger_bench_${randomBytes(4).toString('hex')}`;
  const admin = new URL(url);
  admin.search = '';
  const target = new URL(admin);
  target.pathname = `/${name}`;
  const sql = connect(admin.toString(), { max: 1 });
  let serverVersion: string;
  try {
    await sql.unsafe(`create database ${name}${template === null ? '' : ` template ${template}`}`);
    const [row] = await sql<{ v: string }[]>`select current_setting('server_version') as v`;
    serverVersion = row?.v ?? 'unknown';
  } finally {
    await sql.end({ timeout: 5 });
  }
  const shown = new URL(target);
  shown.password = '';
  log(
    `postgres: created database ${name} (${shown.host})${template === null ? '' : `, a clone of ${template}`}`,
  );
  let dropped = false;
  // Roles belong to the cluster: one per run, named after its database, dropped with it.
  const role = `${name}_app`;
  let roleMade = false;
  return {
    url: target.toString(),
    name,
    serverVersion,
    async appUrl(tenant: string) {
      await migratePostgres(target.toString(), {});
      if (!roleMade) {
        const s = connect(target.toString(), { max: 1 });
        try {
          // The creating role's password, if it has one, so a server asking for passwords lets the role in.
          const password = decodeURIComponent(target.password);
          const literal = password === '' ? '' : ` password '${password.replaceAll("'", "''")}'`;
          await s.unsafe(`create role ${role} login${literal} in role memledger_app`);
        } finally {
          await s.end({ timeout: 5 });
        }
        roleMade = true;
      }
      const app = new URL(target);
      app.username = role;
      app.searchParams.set('tenant', tenant);
      return app.toString();
    },
    async drop() {
      if (dropped) return;
      dropped = true;
      const s = connect(admin.toString(), { max: 1 });
      try {
        await s.unsafe(`drop database if exists ${name} with (force)`);
        if (roleMade) await s.unsafe(`drop role if exists ${role}`);
      } finally {
        await s.end({ timeout: 5 });
      }
    },
  };
}
