/**
 * WorkspaceFiles over the Store: a workspace is a zstd-compressed SQLite snapshot in the store (so every process
 * and replica sees the same one), and a per-process local copy the engine runs on. Commit copies the file with
 * SQLite's backup API, validates the copy and stores it under an optimistic version; checkout restores from the
 * store, in a child process, whenever the stored version is not the local one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { MemoryError } from '../model/errors.ts';
import type { WorkspaceSnapshotStore } from '../store/workspaces-port.ts';
import type { CheckoutOutcome, WorkspaceCheckout, WorkspaceFiles } from './files.ts';
import type { RestoreReport } from './restore-file.ts';
import { restoreInChild } from './restore.ts';
import { serially } from './serially.ts';

/**
 * node:sqlite and zstd load on first use, not with the module: the library's entry must still reach its "needs
 * Node.js 24" check on an older Node, which has neither (a static import fails before any code runs).
 */
type Engines = { sqlite: typeof import('node:sqlite'); compress: (raw: Buffer) => Promise<Buffer> };
let engines: Promise<Engines> | undefined;
function load(): Promise<Engines> {
  engines ??= Promise.all([import('node:sqlite'), import('node:zlib')]).then(([sqlite, zlib]) => ({
    sqlite,
    compress: promisify(zlib.zstdCompress),
  }));
  return engines;
}

/** Decompressed bytes a restore accepts by default: past it a snapshot is treated as a bomb. */
export const DEFAULT_MAX_RESTORE_BYTES = 1024 ** 3;
/** How long a restore's child process may take by default before it is killed (Gobii: 120 s). */
export const DEFAULT_RESTORE_TIMEOUT_MS = 60_000;
/** Who stores a snapshot memledger made itself (a salvage, a reset, an erasure's re-snapshot). */
export const SYSTEM_WRITER = 'service:memledger';

/** A restore that did not simply succeed: what the ledger audits (counts only, never content). */
export interface RecoveryEvent {
  agent: string;
  outcome: 'restored' | 'salvaged' | 'reset';
  /** The snapshot version that was read, and the version the agent now has. */
  fromVersion: number;
  version: number;
  tables: number;
  /** Tables that could not be read (salvaged) . */
  lost: number;
}

export interface SnapshotFilesOptions {
  store: WorkspaceSnapshotStore;
  /** Where this process's local copies live: a directory per process is made inside it. */
  cacheRoot: string;
  /** Other processes keep their copies under `cacheRoot` too (a home): erasure reaches them, dead ones are swept. */
  sharedRoot: boolean;
  now: () => string;
  maxRestoreBytes?: number;
  restoreTimeoutMs?: number;
  /** Told of every restore, salvage and reset, for the audit. */
  onRecovery?: (event: RecoveryEvent) => Promise<void> | void;
}

export class SnapshotFiles implements WorkspaceFiles {
  readonly #o: SnapshotFilesOptions;
  #dir: string | undefined;
  /**
   * The snapshot each local copy was made from, by agent: its version and checksum. A version number alone is not
   * enough: after a reset the next snapshot is version 1 again, with other content.
   */
  readonly #local = new Map<string, { version: number; sha256: string }>();
  readonly #locks = new Map<string, Promise<unknown>>();
  /** Work on an agent's local file (a batch, an erasure), apart from #locks: that work checks out and commits. */
  readonly #work = new Map<string, Promise<unknown>>();
  /** How often each checkout outcome happened in this process. */
  readonly counts: Record<CheckoutOutcome, number> = {
    cached: 0,
    fresh: 0,
    restored: 0,
    salvaged: 0,
    reset: 0,
  };

  constructor(options: SnapshotFilesOptions) {
    this.#o = { ...options };
  }

  get store(): WorkspaceSnapshotStore {
    return this.#o.store;
  }

  checkout(agent: string): Promise<WorkspaceCheckout> {
    return this.#locked(agent, () => this.#checkout(agent));
  }

  commit(agent: string, path: string, baseVersion: number, by: string = agent): Promise<number> {
    return this.#locked(agent, () => this.#commit(agent, path, baseVersion, by));
  }

  working<T>(agent: string, fn: () => Promise<T>): Promise<T> {
    return serially(this.#work, agent, fn);
  }

  /** Empties the agent's workspace: the stored snapshot, its quarantined copy and every local copy go. */
  reset(agent: string): Promise<boolean> {
    return this.#locked(agent, async () => {
      const had = await this.#o.store.delete(agent);
      this.#dropLocal(agent, true);
      return had;
    });
  }

  /** The local path of an agent's copy in this process (it may not exist yet). */
  pathOf(agent: string): string {
    return join(this.#ownDir(), fileName(agent));
  }

  /** Every local workspace file this process (and, on a home, every process) keeps: for erasure and its tests. */
  localFiles(): string[] {
    const roots = this.#o.sharedRoot
      ? processDirs(this.#o.cacheRoot)
      : this.#dir === undefined
        ? []
        : [this.#dir];
    return roots.flatMap((d) => safeList(d).map((f) => join(d, f)));
  }

  /**
   * Removes every local copy of the agent in other processes' directories (a home) and, with `own`, this one's:
   * after an erasure re-snapshots, they are stale copies that may hold the erased text; each process restores
   * the new snapshot at its next checkout, since its copy is gone.
   */
  dropLocal(agent: string, own: boolean): void {
    this.#dropLocal(agent, own);
  }

  /** Runs `fn` as the only checkout or commit of `agent` in this process (two calls never restore twice). */
  #locked<T>(agent: string, fn: () => Promise<T>): Promise<T> {
    return serially(this.#locks, agent, fn);
  }

  async #checkout(agent: string): Promise<WorkspaceCheckout> {
    const path = this.pathOf(agent);
    for (let attempt = 0; ; attempt++) {
      const meta = await this.#o.store.meta(agent);
      const local = this.#local.get(agent);
      const present = existsSync(path);
      if (meta === null) {
        if (local?.version === 0 && present) return this.#count({ path, version: 0, outcome: 'cached' });
        removeDb(path);
        new (await load()).sqlite.DatabaseSync(path).close();
        this.#local.set(agent, { version: 0, sha256: '' });
        return this.#count({ path, version: 0, outcome: 'fresh' });
      }
      if (local?.version === meta.version && local.sha256 === meta.sha256 && present) {
        return this.#count({ path, version: meta.version, outcome: 'cached' });
      }
      const result = await this.#restore(agent, path);
      // Another writer stored a newer snapshot while this one was salvaged: read that one instead.
      if (result !== null) return this.#count(result);
      if (attempt >= 3)
        throw new MemoryError('conflict', 'the workspace kept changing while it was restored');
    }
  }

  /** Restores the current snapshot into `path`; a failed one is quarantined and replaced. Null: lost a race. */
  async #restore(agent: string, path: string): Promise<WorkspaceCheckout | null> {
    const snapshot = await this.#o.store.get(agent);
    if (snapshot === null) return null;
    const dir = this.#ownDir();
    const tag = randomBytes(6).toString('hex');
    const input = join(dir, `${fileName(agent)}.in-${tag}`);
    const output = join(dir, `${fileName(agent)}.out-${tag}`);
    try {
      writeFileSync(input, snapshot.bytes);
      const digest = createHash('sha256').update(snapshot.bytes).digest('hex');
      const report: RestoreReport =
        digest === snapshot.sha256
          ? await restoreInChild(
              { input, output, maxBytes: this.#o.maxRestoreBytes ?? DEFAULT_MAX_RESTORE_BYTES },
              this.#o.restoreTimeoutMs ?? DEFAULT_RESTORE_TIMEOUT_MS,
            )
          : { outcome: 'reset', reason: 'the stored bytes do not match their checksum' };
      rmSync(input, { force: true });
      if (report.outcome === 'restored') {
        removeDb(path);
        renameSync(output, path);
        this.#local.set(agent, { version: snapshot.version, sha256: snapshot.sha256 });
        await this.#tell(agent, 'restored', snapshot.version, snapshot.version, report.tables, 0);
        return { path, version: snapshot.version, outcome: 'restored' };
      }
      await this.#o.store.quarantine({
        agent,
        version: snapshot.version,
        reason: report.reason,
        bytes: snapshot.bytes,
        at: this.#o.now(),
      });
      if (report.outcome === 'reset') {
        removeDb(output);
        new (await load()).sqlite.DatabaseSync(output).close();
      }
      // The replacement is stored at once, so no other process or replica trips over the bad snapshot again.
      let version: number;
      try {
        version = await this.#commit(agent, output, snapshot.version, SYSTEM_WRITER);
      } catch (error) {
        if (error instanceof MemoryError && error.class === 'conflict') return null;
        throw error;
      }
      const tables = report.outcome === 'salvaged' ? report.tables.length : 0;
      const lost = report.outcome === 'salvaged' ? report.lost : 0;
      await this.#tell(agent, report.outcome, snapshot.version, version, tables, lost);
      return { path, version, outcome: report.outcome, notice: noticeOf(snapshot.version, report) };
    } finally {
      rmSync(input, { force: true });
      removeDb(output);
    }
  }

  async #commit(agent: string, path: string, baseVersion: number, by: string): Promise<number> {
    const target = this.pathOf(agent);
    const copy = join(this.#ownDir(), `${fileName(agent)}.commit-${randomBytes(6).toString('hex')}`);
    try {
      const { sqlite, compress } = await load();
      const source = new sqlite.DatabaseSync(path, { readOnly: true });
      try {
        // A consistent copy even while the engine's own connection has the file open (WAL included).
        await sqlite.backup(source, copy);
      } finally {
        source.close();
      }
      const tableCount = cleanAndCheck(new sqlite.DatabaseSync(copy));
      const raw = readFileSync(copy);
      const bytes = new Uint8Array(await compress(raw));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const version = await this.#o.store.put({
        agent,
        baseVersion,
        bytes,
        rawSize: raw.byteLength,
        sha256,
        tableCount,
        updatedAt: this.#o.now(),
        updatedBy: by,
      });
      if (version === null) {
        // The local copy holds changes the store refused: it is stale, and the next checkout restores.
        this.#local.delete(agent);
        throw new MemoryError(
          'conflict',
          `the workspace of ${agent} changed since version ${baseVersion}: another call stored a newer one; nothing was stored, run the statements again`,
        );
      }
      if (path !== target) {
        removeDb(target);
        renameSync(copy, target);
      }
      this.#local.set(agent, { version, sha256 });
      return version;
    } finally {
      removeDb(copy);
    }
  }

  #count(checkout: WorkspaceCheckout): WorkspaceCheckout {
    this.counts[checkout.outcome]++;
    return checkout;
  }

  async #tell(
    agent: string,
    outcome: RecoveryEvent['outcome'],
    fromVersion: number,
    version: number,
    tables: number,
    lost: number,
  ): Promise<void> {
    try {
      await this.#o.onRecovery?.({ agent, outcome, fromVersion, version, tables, lost });
    } catch {
      // the audit's own failure is its writer's to report; the agent's call goes on
    }
  }

  #dropLocal(agent: string, own: boolean): void {
    const name = fileName(agent);
    for (const file of this.localFiles()) {
      const base = file.slice(file.lastIndexOf('/') + 1);
      const mine = this.#dir !== undefined && file.startsWith(`${this.#dir}/`);
      if (!base.startsWith(name) || (mine && !own)) continue;
      rmSync(file, { force: true });
    }
    if (own) this.#local.delete(agent);
  }

  /** This process's directory, made on first use; dead processes' directories are swept then. */
  #ownDir(): string {
    if (this.#dir !== undefined) return this.#dir;
    mkdirSync(this.#o.cacheRoot, { recursive: true, mode: 0o700 });
    // Safe on a shared temp directory too: only directories whose process is gone are removed.
    sweepDead(this.#o.cacheRoot);
    const dir = join(this.#o.cacheRoot, `p${process.pid}-${randomBytes(4).toString('hex')}`);
    mkdirSync(dir, { mode: 0o700 });
    this.#dir = dir;
    return dir;
  }

  /** Removes this process's directory (a closing ledger): its copies are restored from the store when needed. */
  close(): void {
    if (this.#dir !== undefined) rmSync(this.#dir, { recursive: true, force: true });
    this.#dir = undefined;
    this.#local.clear();
  }
}

/**
 * Drops any `__` mount the engine left, then rewrites the copy if it has free pages: a dropped mount's or a
 * deleted row's bytes stay in free pages, and the snapshot must not carry them (I15, I9). Returns the table count
 * once `quick_check` passes; a copy that fails is never stored.
 */
function cleanAndCheck(db: DatabaseSync): number {
  try {
    const mounts = db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '\\_\\_%' ESCAPE '\\'")
      .all() as { name: string }[];
    for (const m of mounts) db.exec(`DROP TABLE "${m.name.replaceAll('"', '""')}"`);
    const { freelist_count: free } = db.prepare('PRAGMA freelist_count').get() as { freelist_count: number };
    if (Number(free) > 0) db.exec('VACUUM');
    const check = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    if (check.length !== 1 || check[0]!.quick_check !== 'ok') {
      throw new MemoryError('internal', 'the workspace file failed its integrity check; nothing was stored');
    }
    const { n } = db
      .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .get() as { n: number };
    return Number(n);
  } finally {
    db.close();
  }
}

/** What the agent is told after a salvage or reset: versions, table names and counts, never row content. */
function noticeOf(version: number, report: RestoreReport): string {
  const kept = 'The damaged copy is kept aside for an operator (memledger workspace show).';
  if (report.outcome === 'salvaged') {
    const tables = report.tables.map((t) => `${t.name} (${t.rows} rows)`).join(', ');
    const lost = report.lost > 0 ? `; ${report.lost} table(s) could not be read` : '';
    return `Your workspace snapshot v${version} could not be restored whole (${report.reason}). Salvaged ${report.tables.length} table(s): ${tables}${lost}. Rows past a damaged page may be missing. ${kept}`;
  }
  return `Your workspace snapshot v${version} could not be restored (${report.outcome === 'reset' ? report.reason : ''}) and nothing in it was readable: you start from an empty workspace. ${kept}`;
}

/** A file name for the agent's copy: readable, and unique by a hash of the principal. */
export function fileName(agent: string): string {
  const slug = agent.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 40);
  return `${slug}-${createHash('sha256').update(agent).digest('hex').slice(0, 16)}.sqlite`;
}

function removeDb(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(path + suffix, { force: true });
}

function processDirs(root: string): string[] {
  return safeList(root)
    .filter((d) => /^p\d+-[0-9a-f]+$/.test(d))
    .map((d) => join(root, d));
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Directories of processes that are gone: nobody will use those copies again. */
function sweepDead(root: string): void {
  for (const dir of processDirs(root)) {
    const pid = Number(/^p(\d+)-/.exec(dir.slice(root.length + 1))?.[1]);
    if (pid === process.pid || alive(pid)) continue;
    rmSync(dir, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
