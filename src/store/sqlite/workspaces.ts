/** Workspace snapshots on SQLite (the tables of migration 10), statements prepared once per connection. */
import type { DatabaseSync } from 'node:sqlite';
import type {
  QuarantinedSnapshot,
  WorkspaceSnapshot,
  WorkspaceSnapshotMeta,
  WorkspaceSnapshotPut,
  WorkspaceSnapshotStore,
} from '../workspaces-port.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;
/** The store's write transaction (BEGIN IMMEDIATE): two processes putting one workspace serialise on it. */
type Write = <T>(fn: () => T) => Promise<T>;

export interface SnapshotDbRow {
  agent: string;
  version: number;
  raw_size: number;
  compressed_size: number;
  sha256: string;
  table_count: number;
  updated_at: string;
  updated_by: string;
  bytes?: Uint8Array;
}

const META = 'agent, version, raw_size, compressed_size, sha256, table_count, updated_at, updated_by';

export class SqliteWorkspaceStore implements WorkspaceSnapshotStore {
  readonly #sql: ReturnType<typeof prepare>;
  readonly #serial: Serial;
  readonly #write: Write;

  constructor(db: DatabaseSync, serial: Serial, write: Write) {
    this.#sql = prepare(db);
    this.#serial = serial;
    this.#write = write;
  }

  meta(agent: string): Promise<WorkspaceSnapshotMeta | null> {
    return this.#serial(async () => {
      const r = this.#sql.meta.get(agent) as SnapshotDbRow | undefined;
      return r === undefined ? null : toMeta(r);
    });
  }

  get(agent: string): Promise<WorkspaceSnapshot | null> {
    return this.#serial(async () => {
      const r = this.#sql.get.get(agent) as SnapshotDbRow | undefined;
      return r === undefined ? null : { ...toMeta(r), bytes: new Uint8Array(r.bytes!) };
    });
  }

  put(s: WorkspaceSnapshotPut): Promise<number | null> {
    return this.#write(() => {
      const sql = this.#sql;
      const version = s.baseVersion + 1;
      const args = [s.bytes, s.rawSize, s.bytes.byteLength, s.sha256, s.tableCount, s.updatedAt, s.updatedBy];
      // The version test is in the statement itself, inside BEGIN IMMEDIATE: a stale writer changes no row.
      const changes =
        s.baseVersion === 0
          ? Number(sql.insert.run(s.agent, version, ...args).changes)
          : Number(sql.update.run(version, ...args, s.agent, s.baseVersion).changes);
      return changes === 1 ? version : null;
    });
  }

  list(): Promise<WorkspaceSnapshotMeta[]> {
    return this.#serial(async () => (this.#sql.list.all() as unknown as SnapshotDbRow[]).map(toMeta));
  }

  delete(agent: string): Promise<boolean> {
    return this.#write(() => {
      const a = Number(this.#sql.drop.run(agent).changes);
      const b = Number(this.#sql.dropQuarantine.run(agent).changes);
      return a + b > 0;
    });
  }

  quarantine(q: QuarantinedSnapshot): Promise<void> {
    return this.#write(() => {
      this.#sql.quarantine.run(q.agent, q.version, q.reason, q.bytes, q.at);
    });
  }

  quarantined(agent: string): Promise<QuarantinedSnapshot | null> {
    return this.#serial(async () => {
      const r = this.#sql.quarantined.get(agent) as
        | { agent: string; version: number; reason: string; bytes: Uint8Array; at: string }
        | undefined;
      return r === undefined ? null : { ...r, bytes: new Uint8Array(r.bytes) };
    });
  }

  dropQuarantine(agent: string): Promise<boolean> {
    return this.#write(() => Number(this.#sql.dropQuarantine.run(agent).changes) > 0);
  }
}

function prepare(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    meta: p(`SELECT ${META} FROM workspace_snapshots WHERE agent = ?`),
    get: p(`SELECT ${META}, bytes FROM workspace_snapshots WHERE agent = ?`),
    list: p(`SELECT ${META} FROM workspace_snapshots ORDER BY agent`),
    insert: p(
      `INSERT INTO workspace_snapshots (agent, version, bytes, raw_size, compressed_size, sha256, table_count, updated_at, updated_by)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (agent) DO NOTHING`,
    ),
    update: p(
      `UPDATE workspace_snapshots SET version = ?, bytes = ?, raw_size = ?, compressed_size = ?, sha256 = ?,
         table_count = ?, updated_at = ?, updated_by = ? WHERE agent = ? AND version = ?`,
    ),
    drop: p(`DELETE FROM workspace_snapshots WHERE agent = ?`),
    quarantine: p(
      `INSERT INTO workspace_quarantine (agent, version, reason, bytes, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (agent) DO UPDATE SET version = excluded.version, reason = excluded.reason,
         bytes = excluded.bytes, at = excluded.at`,
    ),
    quarantined: p(`SELECT agent, version, reason, bytes, at FROM workspace_quarantine WHERE agent = ?`),
    dropQuarantine: p(`DELETE FROM workspace_quarantine WHERE agent = ?`),
  };
}

export const toMeta = (r: SnapshotDbRow): WorkspaceSnapshotMeta => ({
  agent: r.agent,
  version: Number(r.version),
  rawSize: Number(r.raw_size),
  compressedSize: Number(r.compressed_size),
  sha256: r.sha256,
  tableCount: Number(r.table_count),
  updatedAt: r.updated_at,
  updatedBy: r.updated_by,
});
