/**
 * Builds a ledger's WorkspaceFiles from its open store: local copies under the home's `workspaces/` directory
 * (every process of the home keeps its own directory there, so erasure reaches them all), or under the OS temp
 * directory for a store with no files (a database: each replica keeps its own).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../store/port.ts';
import { MemoryError } from '../model/errors.ts';
import type { WorkspaceFiles } from './files.ts';
import { type RecoveryEvent, SnapshotFiles } from './snapshots.ts';

export interface WorkspaceFilesSettings {
  /** The home, when the store lives in files; null for a database. */
  home: string | null;
  now: () => string;
  onRecovery?: (event: RecoveryEvent) => Promise<void> | void;
}

export function workspaceFilesFor(store: Store, settings: WorkspaceFilesSettings): SnapshotFiles {
  const max = Number(process.env.MEMLEDGER_WORKSPACE_RESTORE_MAX_BYTES);
  const timeout = Number(process.env.MEMLEDGER_WORKSPACE_RESTORE_TIMEOUT_MS);
  return new SnapshotFiles({
    store: store.workspaces,
    cacheRoot:
      settings.home === null ? join(tmpdir(), 'memledger-workspaces') : join(settings.home, 'workspaces'),
    sharedRoot: settings.home !== null,
    now: settings.now,
    ...(max > 0 ? { maxRestoreBytes: max } : {}),
    ...(timeout > 0 ? { restoreTimeoutMs: timeout } : {}),
    ...(settings.onRecovery === undefined ? {} : { onRecovery: settings.onRecovery }),
  });
}

/**
 * A WorkspaceFiles for a store that may still be opening: each call waits for the store's own snapshots (a
 * session made while a database opens works too).
 */
export function filesOnceOpen(snapshots: () => Promise<SnapshotFiles | undefined>): WorkspaceFiles {
  const files = async () => {
    const found = await snapshots();
    if (found === undefined) throw new MemoryError('internal', 'this store keeps no workspaces');
    return found;
  };
  return {
    checkout: async (agent) => (await files()).checkout(agent),
    commit: async (agent, path, baseVersion) => (await files()).commit(agent, path, baseVersion),
    working: async (agent, fn) => (await files()).working(agent, fn),
  };
}
