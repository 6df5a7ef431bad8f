/**
 * The embedded backend: a home directory holding memory.db, audit.db and policy.json. Opening it is synchronous,
 * and every ledger of this process on one home shares one set of connections (open-homes.ts).
 */
import { existsSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { AUDIT_MIGRATIONS } from '../../audit/sqlite-audit.ts';
import type { BackendOptions, MigrationReport, MigrationStep, StoreBackend } from '../backend.ts';
import type { Migration } from './database.ts';
import { ensureHome, homePaths, resolveHome } from './home.ts';
import { MEMORY_MIGRATIONS } from './migrations/index.ts';
import { acquireConnections } from './open-homes.ts';

/** The home at `path` (resolved against the working directory) as a backend. */
export function sqliteBackend(path: string, options: BackendOptions = {}): StoreBackend {
  const home = resolveHome(path);
  const paths = homePaths(home);
  const open = () => {
    ensureHome(home);
    return acquireConnections(home, options.sync);
  };
  const backend: StoreBackend = {
    kind: 'sqlite',
    label: home,
    home,
    capabilities: { files: true },
    policyPath: paths.policy,
    prepare: () => {
      ensureHome(home);
    },
    open: () => open(),
    // Loaded when asked for: a process that never reads tokens (a session hook) does not evaluate their store.
    openTokens: async () =>
      (await import('../../auth/sqlite-token-store.ts')).openTokenStore(home, { sync: options.sync }),
    // Opening a home applies its migrations already; `migrate` opens it and says what that open applied.
    migrate: (): MigrationReport => {
      const parts: [string, string, readonly Migration[]][] = [
        ['store', paths.memoryDb, MEMORY_MIGRATIONS],
        ['audit', paths.auditDb, AUDIT_MIGRATIONS],
      ];
      const before = parts.map(([, file]) => userVersion(file));
      open().release();
      const applied: MigrationStep[] = [];
      const versions: Record<string, number> = {};
      parts.forEach(([part, file, migrations], i) => {
        const after = userVersion(file);
        versions[part] = after;
        for (const m of migrations) {
          if (m.version > before[i]! && m.version <= after)
            applied.push({ part, version: m.version, name: m.name });
        }
      });
      return { store: home, applied, versions };
    },
  };
  return backend;
}

/** A database file's schema version, read without migrating it; 0 for a file that is not there yet. */
function userVersion(file: string): number {
  if (!existsSync(file)) return 0;
  const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(file, { readOnly: true });
    return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
  } catch {
    // A file SQLite cannot read: the open that follows names it and says what to do.
    return 0;
  } finally {
    db?.close();
  }
}
