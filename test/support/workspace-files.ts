/**
 * A plain local WorkspaceFiles for tests of the engine alone (test/workspace/helpers.ts: engine, mounts, schema
 * prompt), where persistence is not the subject; every end-to-end test uses the store's own snapshots. Each agent's
 * stored snapshot is a file in `dir/stored`, its working copy a file in `dir/work`, and a version counter per
 * agent kept beside the snapshot (so a CLI or MCP server in another process sees the same versions). A commit
 * whose base version is stale is a `conflict`; nothing is overwritten.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { MemoryError } from '../../src/model/errors.ts';
import type { WorkspaceCheckout, WorkspaceFiles } from '../../src/workspace/files.ts';

export class LocalWorkspaceFiles implements WorkspaceFiles {
  readonly dir: string;
  readonly #local = new Map<string, number>();
  /** Commits made, for tests that check a read-only batch stores nothing. */
  commits = 0;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(join(dir, 'stored'), { recursive: true });
    mkdirSync(join(dir, 'work'), { recursive: true });
  }

  /** The stored snapshot's path (its bytes are what persistence would keep). */
  storedPath(agent: string): string {
    return join(this.dir, 'stored', `${fileName(agent)}.db`);
  }

  storedBytes(agent: string): Buffer {
    return readFileSync(this.storedPath(agent));
  }

  version(agent: string): number {
    const file = `${this.storedPath(agent)}.version`;
    return existsSync(file) ? Number(readFileSync(file, 'utf8')) : 0;
  }

  async checkout(agent: string): Promise<WorkspaceCheckout> {
    const path = join(this.dir, 'work', `${fileName(agent)}.db`);
    const stored = this.version(agent);
    if (this.#local.get(agent) === stored && existsSync(path))
      return { path, version: stored, outcome: 'cached' };
    // A fresh copy under a new name, renamed into place: an engine holding the old file open keeps the old inode.
    const tmp = `${path}.${process.pid}.tmp`;
    rmSync(tmp, { force: true });
    if (stored === 0) rmSync(path, { force: true });
    else copyFileSync(this.storedPath(agent), tmp);
    if (stored !== 0) renameSync(tmp, path);
    rmSync(`${path}-journal`, { force: true });
    this.#local.set(agent, stored);
    return { path, version: stored, outcome: stored === 0 ? 'fresh' : 'restored' };
  }

  async commit(agent: string, path: string, baseVersion: number): Promise<number> {
    const stored = this.version(agent);
    if (stored !== baseVersion) {
      throw new MemoryError(
        'conflict',
        `workspace of ${agent} moved to version ${stored} (base ${baseVersion})`,
      );
    }
    const tmp = `${this.storedPath(agent)}.tmp`;
    copyFileSync(path, tmp);
    renameSync(tmp, this.storedPath(agent));
    writeFileSync(`${this.storedPath(agent)}.version`, String(stored + 1));
    this.#local.set(agent, stored + 1);
    this.commits++;
    return stored + 1;
  }
}

const fileName = (agent: string): string => agent.replace(/[^A-Za-z0-9._-]/g, '_');
