/**
 * One set of connections per data directory per process. Two connections in one process would deadlock: a
 * transaction holds the write lock across awaits while the other connection's busy wait blocks the thread.
 * So every openLedger on the same home shares one store and one audit sink, closed when the last user closes.
 */
import { realpathSync } from 'node:fs';
import { openSqliteAudit } from '../../audit/sqlite-audit.ts';
import type { AuditSink } from '../../audit/record.ts';
import { MemoryError } from '../../model/errors.ts';
import type { OpenedStore } from '../backend.ts';
import type { Store } from '../port.ts';
import type { Sync } from './database.ts';
import { homePaths } from './home.ts';
import { openSqliteStore } from './store.ts';

interface Shared {
  store: Store;
  audit: AuditSink;
  users: number;
}

const open = new Map<string, Shared>();

/** The connections of one home, as the backend port names them. */
export type Connections = OpenedStore;

export function acquireConnections(home: string, sync: Sync | undefined): Connections {
  const key = realpathSync(home);
  let shared = open.get(key);
  const fresh = shared === undefined;
  if (shared === undefined) {
    const paths = homePaths(home);
    let store: Store;
    try {
      store = openSqliteStore(paths.memoryDb, { sync });
    } catch (error) {
      throw unreadable(paths.memoryDb, error);
    }
    let audit: AuditSink;
    try {
      audit = openSqliteAudit(paths.auditDb, { sync });
    } catch (error) {
      store.close();
      throw unreadable(paths.auditDb, error);
    }
    shared = { store, audit, users: 0 };
    open.set(key, shared);
  }
  shared.users++;
  const s = shared;
  let released = false;
  return {
    store: s.store,
    audit: s.audit,
    fresh,
    release: () => {
      if (released) return;
      released = true;
      s.users--;
      if (s.users === 0) {
        open.delete(key);
        // The audit first: it writes the records it holds, whose outbox rows the store's close then deletes.
        // SQLite closes before the promise returns; a close that fails is the sink's to report.
        void s.audit.close();
        s.store.close();
      }
    },
  };
}

/** SQLITE_NOTADB (26) and SQLITE_CORRUPT (11), with their extended codes, on the error or the one it wraps. */
function isDamaged(error: unknown): boolean {
  for (let e = error as { errcode?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.errcode === 'number' && [26, 11].includes(e.errcode & 0xff)) return true;
  }
  return false;
}

/**
 * A database file SQLite cannot read is named with what to do, as `upstream` (the storage failed, not the caller
 * and not memledger's logic); any other failure to open passes through as it was.
 */
function unreadable(path: string, error: unknown): unknown {
  if (!isDamaged(error)) return error;
  return new MemoryError(
    'upstream',
    `${path} is not a readable SQLite database (${(error as Error).message.replace(/^cannot open [^:]+: /, '')}); ` +
      `memledger changed nothing. Restore the file from a backup, or move it aside (mv ${path} ${path}.damaged) ` +
      'and run memledger init to start an empty one',
    { cause: error },
  );
}
