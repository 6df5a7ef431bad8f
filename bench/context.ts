/**
 * One run's world: a temporary directory holding the import file, a memledger home and the raw baseline
 * database, deleted at the end; or, with `--store postgres://…`, a fresh database on that server holding a
 * memledger tenant and the raw Postgres baseline, dropped at the end. Data is generated once, before any clock
 * starts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Ledger, type LedgerSession, openLedger } from '../src/index.ts';
import type { Settings } from './args.ts';
import { Dataset } from './data.ts';
import { writeLines } from './jsonl.ts';
import type { Baseline } from './baseline.ts';
import { type BenchDatabase, createBenchDatabase } from './pg-database.ts';
import { RawStore } from './raw.ts';
import { RawPostgres } from './raw-postgres.ts';
import { buildServingHome, type ServingHome } from './serving.ts';
import { round } from './stats.ts';

export interface Context {
  settings: Settings;
  dir: string;
  dataset: Dataset;
  /** The export-format JSONL file both sides of the bulk import read. */
  importFile: string;
  generation: { lines: number; bytes: number; seconds: number };
  /** Where the ledger lives: a temporary home, or a tenant of the bench's own Postgres database. */
  backend: 'sqlite' | 'postgres';
  /** The home's memory.db (SQLite only: the disk benchmark reads it). */
  memoryDb: string;
  /** The ledger's store as the CLI names it: the home, or the Postgres URL with its `?tenant=`. */
  store: string;
  ledger: Ledger;
  /** The local human operator: every role, every scope. */
  session: LedgerSession;
  raw: Baseline;
  /** The bench's own Postgres database (Postgres only), dropped by closeContext. */
  database: BenchDatabase | null;
  /** The template the database was cloned from (`BENCH_PG_TEMPLATE`): both stores hold the data set already. */
  template: string | null;
  log(message: string): void;
  /** The 100k serving home of the process benchmarks, built on the first call and shared after it. */
  serving(): Promise<ServingHome>;
}

export const DATA_SHAPE = { vocabulary: 30_000, zipfS: 1.1, scopeS: 0.5 } as const;

/** The run's temporary directory; `removeWorkDir` deletes it whatever state the run is in. */
export const makeWorkDir = (): string => mkdtempSync(join(tmpdir(), 'memledger-bench-'));
export const removeWorkDir = (dir: string): void => rmSync(dir, { recursive: true, force: true });

export async function openContext(
  settings: Settings,
  dir: string,
  log: (message: string) => void,
  /** `importFile: false`: no chosen case reads the import file, so it is not generated (it stays empty). */
  options: { importFile?: boolean } = {},
): Promise<Context> {
  const dataset = new Dataset({
    memories: settings.scale,
    scopes: settings.scopes,
    seed: settings.seed,
    ...DATA_SHAPE,
  });
  const importFile = join(dir, 'import.jsonl');
  const template = settings.store === null ? null : pgTemplate(process.env);
  log(`generating ${settings.scale.toLocaleString('en')} memories in ${settings.scopes} scopes`);
  const started = performance.now();
  let nextLog = 200_000;
  // A clone of a template holds the data already: only bulk_import reads the file, and it is skipped then.
  const bytes =
    template !== null || options.importFile === false
      ? 0
      : await writeLines(
          importFile,
          settings.scale,
          (i) => dataset.line(i),
          (done) => {
            if (done < nextLog) return;
            log(`  generated ${done.toLocaleString('en')}`);
            nextLog += 200_000;
          },
        );
  const generation = {
    lines: settings.scale,
    bytes,
    seconds: round((performance.now() - started) / 1000, 2),
  };
  log(`generated ${(bytes / 1e6).toFixed(0)} MB in ${generation.seconds} s`);
  const home = join(dir, 'home');
  const database = settings.store === null ? null : await createBenchDatabase(settings.store, log, template);
  let store = home;
  let ledger: Ledger;
  let raw: Baseline;
  try {
    // On Postgres the ledger runs as the product does: a memledger_app login, row-level security bound.
    if (database !== null) store = await database.appUrl('bench');
    ledger = openLedger(database === null ? { store } : { store, maintenanceUrl: database.url });
    try {
      await ledger.ready;
      raw =
        database === null
          ? new RawStore(join(dir, 'raw.db'))
          : await RawPostgres.open(database.url, template === null);
    } catch (error) {
      ledger.close();
      throw error;
    }
  } catch (error) {
    await database?.drop();
    throw error;
  }
  let serving: Promise<ServingHome> | undefined;
  const ctx: Context = {
    settings,
    dir,
    dataset,
    importFile,
    generation,
    backend: database === null ? 'sqlite' : 'postgres',
    memoryDb: join(home, 'memory.db'),
    store,
    ledger,
    session: ledger.as(ledger.operator(), { surface: 'library', client: 'memledger-bench' }),
    raw,
    database,
    template,
    log,
    serving() {
      serving ??= buildServingHome({ settings, dir, shape: DATA_SHAPE, log }).then((built) => {
        opened.set(ctx, built);
        return built;
      });
      return serving;
    },
  };
  return ctx;
}

/**
 * `BENCH_PG_TEMPLATE`: a database bench/pg-template.ts built at the same scale, scopes and seed, cloned so the
 * run skips loading; null when unset.
 */
export function pgTemplate(env: NodeJS.ProcessEnv): string | null {
  const name = env.BENCH_PG_TEMPLATE;
  if (name === undefined || name === '') return null;
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error('BENCH_PG_TEMPLATE is a plain database name');
  return name;
}

/** Serving homes that finished building, so closing a context can close theirs without awaiting anything. */
const opened = new WeakMap<Context, ServingHome>();

export async function closeContext(ctx: Context): Promise<void> {
  try {
    ctx.ledger.close();
  } finally {
    try {
      await ctx.raw.close();
    } finally {
      try {
        opened.get(ctx)?.ledger.close();
      } finally {
        await ctx.database?.drop();
      }
    }
  }
}
