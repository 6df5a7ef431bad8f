/**
 * The bench's own database on a Postgres server (`--store URL`): created fresh for the run, so nothing the run
 * writes lands in a database someone uses (memories cannot be deleted, I1), and dropped at the end, whatever
 * connections are still open on it.
 */
import { randomBytes } from 'node:crypto';
import { connect } from '../src/store/postgres/database.ts';

export interface BenchDatabase {
  /** The fresh database's URL: the given one with its database name (and no query) replaced. */
  url: string;
  name: string;
  /** The server's `server_version`, for the report. */
  serverVersion: string;
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
  return {
    url: target.toString(),
    name,
    serverVersion,
    async drop() {
      if (dropped) return;
      dropped = true;
      const s = connect(admin.toString(), { max: 1 });
      try {
        await s.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await s.end({ timeout: 5 });
      }
    },
  };
}
