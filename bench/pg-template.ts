/**
 * Builds a Postgres template of the bench's data set once (`node bench/pg-template.ts NAME --scale 1m --store
 * postgres://…`, any `npm run bench` option), so runs at 1M clone it (`BENCH_PG_TEMPLATE=NAME npm run bench --
 * --store … --scale 1m`, CREATE DATABASE … TEMPLATE) instead of loading a million memories each time. The load is
 * the bench's own bulk_import (the admin restore beside raw COPY), whose figures it prints as JSON; the
 * database is then renamed NAME instead of dropped. Run it under `nice -n 19`: it takes minutes.
 */
import { parseSettings } from './args.ts';
import { benchBulkImport } from './cases/bulk-import.ts';
import { type Context, makeWorkDir, openContext, removeWorkDir } from './context.ts';
import { connect } from '../src/store/postgres/database.ts';
import { loadAverage } from './env.ts';

const [name, ...rest] = process.argv.slice(2);
if (name === undefined || !/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
  throw new Error(
    'usage: node bench/pg-template.ts NAME --store postgres://… [--scale N] [--scopes N] [--seed N]',
  );
}
// The template is built from nothing, never from another template.
delete process.env.BENCH_PG_TEMPLATE;
const settings = parseSettings(rest, process.env);
if (settings.store === null)
  throw new Error('--store postgres://… names the server the template is built on');
const log = (m: string) => process.stderr.write(`[pg-template] ${m}\n`);
const dir = makeWorkDir();
let ctx: Context | null = null;
try {
  ctx = await openContext(settings, dir, log);
  const loadAtStart = loadAverage();
  const figures = await benchBulkImport(ctx);
  process.stdout.write(
    `${JSON.stringify({ template: name, scale: settings.scale, scopes: settings.scopes, seed: settings.seed, load: { atStart: loadAtStart, atEnd: loadAverage() }, bulk_import: figures }, null, 2)}\n`,
  );
  ctx.ledger.close();
  await ctx.raw.close();
  const admin = new URL(settings.store);
  admin.search = '';
  const sql = connect(admin.toString(), { max: 1 });
  try {
    // The ledger's pool lets go asynchronously; a template must have no session left on it.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
              where datname = ${ctx.database!.name} and pid <> pg_backend_pid()`;
    await sql.unsafe(`drop database if exists ${name}`);
    await sql.unsafe(`alter database ${ctx.database!.name} rename to ${name}`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  log(
    `template ${name} is ready: BENCH_PG_TEMPLATE=${name} npm run bench -- --store … --scale ${settings.scale}`,
  );
} catch (error) {
  await ctx?.database?.drop();
  throw error;
} finally {
  removeWorkDir(dir);
}
