/**
 * One set of connections per data directory per process. Two connections in one process would deadlock: a
 * transaction holds the write lock across awaits while the other connection's busy wait blocks the thread.
 * So every openLedger on the same home shares one store and one audit sink, closed when the last user closes.
 */
import { realpathSync } from 'node:fs';
import { openSqliteAudit } from '../audit/sqlite-audit.ts';
import type { AuditSink } from '../audit/record.ts';
import type { Store } from '../store/port.ts';
import type { Sync } from '../store/sqlite/database.ts';
import { openSqliteStore } from '../store/sqlite/store.ts';
import { homePaths } from './home.ts';

interface Shared {
  store: Store;
  audit: AuditSink;
  users: number;
}

const open = new Map<string, Shared>();

export interface Connections {
  store: Store;
  audit: AuditSink;
  /** This acquire opened the connections: no call of this process is in flight on them yet. */
  fresh: boolean;
  release(): void;
}

export function acquireConnections(home: string, sync: Sync | undefined): Connections {
  const key = realpathSync(home);
  let shared = open.get(key);
  const fresh = shared === undefined;
  if (shared === undefined) {
    const paths = homePaths(home);
    const store = openSqliteStore(paths.memoryDb, { sync });
    let audit: AuditSink;
    try {
      audit = openSqliteAudit(paths.auditDb, { sync });
    } catch (error) {
      store.close();
      throw error;
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
        s.store.close();
        s.audit.close();
      }
    },
  };
}
