/** Opening a SQLite file the way every memledger database is opened: owner-only, WAL, busy timeout, foreign keys, migrations. */
import { chmodSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { MemoryError } from '../../model/errors.ts';
import type { Durability } from '../port.ts';

/** The port's durability option, by the name SQLite's PRAGMA gives it. */
export type Sync = Durability;

export interface OpenOptions {
  /** `normal` survives a killed process (I13); `full` also survives power loss, at the cost of an fsync per write. */
  sync?: Sync;
  busyTimeoutMs?: number;
  /** Page cache per connection, in MB. */
  cacheMb?: number;
  /** Zero deleted content so erased text leaves no bytes behind in free pages (I9). */
  secureDelete?: boolean;
}

/**
 * A forward-only migration: applied once, in order, recorded in `PRAGMA user_version`. `sql` runs first, then
 * `backfill` for what SQL cannot compute (a hash over normalised text), both in the migration's one transaction.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
  /** Fills what the new schema derives from existing rows when SQL alone cannot; runs in the same transaction. */
  backfill?: (db: DatabaseSync) => void;
}

export function openDatabase(
  path: string,
  migrations: readonly Migration[],
  options: OpenOptions = {},
): DatabaseSync {
  let db: DatabaseSync;
  try {
    // Reached at call time, not linked by a static import: on an older Node a static import of node:sqlite fails
    // before any module runs, so the library's version check (src/node-version.ts) could never speak first.
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    db = new DatabaseSync(path, { timeout: options.busyTimeoutMs ?? 10_000 });
  } catch (error) {
    throw new MemoryError('upstream', `cannot open ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    // SQLite creates a database 0644 (less the umask) and its -wal and -shm with the database's mode: narrowing
    // the file before WAL mode makes them owner-only from birth.
    ownerOnly(path);
    // Entering WAL on a file another process is creating at the same moment can fail busy without SQLite ever
    // calling its busy handler (seen under load: 4 of 320 racing opens), so this one statement waits on its own.
    whileBusy(() => db.exec('PRAGMA journal_mode = WAL'), options.busyTimeoutMs ?? 10_000);
    db.exec(`PRAGMA synchronous = ${options.sync === 'full' ? 'FULL' : 'NORMAL'}`);
    db.exec('PRAGMA foreign_keys = ON');
    // The default 2 MB page cache thrashes once a home passes a few hundred thousand memories.
    db.exec(`PRAGMA cache_size = -${(options.cacheMb ?? 64) * 1024}`);
    db.exec('PRAGMA temp_store = MEMORY');
    if (options.secureDelete === true) db.exec('PRAGMA secure_delete = ON');
    migrate(db, migrations, path);
    // Again with the companions, which an earlier open may have left wider (every open narrows them).
    for (const p of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) ownerOnly(p);
    return db;
  } catch (error) {
    db.close();
    throw isBusy(error) ? engineError(error, `open ${path}`) : error;
  }
}

/**
 * chmod 0600, whatever the umask: a database holds memories (or the audit, or token hashes), which are for the
 * owner of the data directory alone. A file that is not there (a companion SQLite has not made) is skipped.
 */
function ownerOnly(path: string): void {
  try {
    chmodSync(path, 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new MemoryError('upstream', `cannot make ${path} owner-only: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function migrate(db: DatabaseSync, migrations: readonly Migration[], path: string): void {
  const current = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  const latest = migrations.at(-1)?.version ?? 0;
  if (current > latest) {
    throw new MemoryError(
      'conflict',
      `${path} has schema version ${current}, newer than this memledger (${latest}); upgrade memledger`,
    );
  }
  for (const m of migrations) {
    if (m.version <= current) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      // Another process may have migrated while we waited for the lock.
      const now = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
      if (now < m.version) {
        db.exec(m.sql);
        m.backfill?.(db);
        db.exec(`PRAGMA user_version = ${m.version}`);
      }
      db.exec('COMMIT');
    } catch (error) {
      db.exec('ROLLBACK');
      throw new MemoryError(
        'internal',
        `migration ${m.version} (${m.name}) failed on ${path}: ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `step` again while it fails busy, a few milliseconds apart, for up to `timeoutMs`; then lets the busy error
 * through. Synchronous like the rest of node:sqlite: the thread sleeps (Atomics.wait) rather than spins.
 */
export function whileBusy<T>(step: () => T, timeoutMs: number, now: () => number = Date.now): T {
  const deadline = now() + timeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 20)) {
    try {
      return step();
    } catch (error) {
      if (!isBusy(error) || now() >= deadline) throw error;
      Atomics.wait(pause, 0, 0, wait);
    }
  }
}

/** node:sqlite reports SQLITE_BUSY as an Error with errcode 5 (or 517 for BUSY_SNAPSHOT). */
export function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: number }).errcode;
  return code === 5 || code === 517 || code === 261;
}

/** Maps an engine failure to the library's error classes: contention is `upstream`, a broken rule is our bug. */
export function engineError(error: unknown, what: string): MemoryError {
  if (error instanceof MemoryError) return error;
  if (isBusy(error)) {
    return new MemoryError(
      'upstream',
      `the data directory is busy (another process held the write lock too long) while trying to ${what}; retry`,
      { cause: error },
    );
  }
  return new MemoryError('internal', `storage failed to ${what}: ${(error as Error).message}`, {
    cause: error,
  });
}
