/** Workspace snapshots on Postgres (migration 3): every replica of a tenant restores and replaces the same row. */
import { type SnapshotDbRow, toMeta } from '../sqlite/workspaces.ts';
import type {
  QuarantinedSnapshot,
  WorkspaceSnapshot,
  WorkspaceSnapshotMeta,
  WorkspaceSnapshotPut,
  WorkspaceSnapshotStore,
} from '../workspaces-port.ts';
import { one, type Q, run } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;
/** The store's write transaction: it holds the tenant's write lock, so two replicas putting one workspace serialise. */
type Write = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;

const META =
  'agent, version, raw_size::float8 as raw_size, compressed_size::float8 as compressed_size, sha256, table_count, updated_at, updated_by';

export class PostgresWorkspaceStore implements WorkspaceSnapshotStore {
  readonly #read: Read;
  readonly #write: Write;

  constructor(read: Read, write: Write) {
    this.#read = read;
    this.#write = write;
  }

  meta(agent: string): Promise<WorkspaceSnapshotMeta | null> {
    return this.#read(async (q) => {
      const r = await one<SnapshotDbRow>(
        q,
        `select ${META} from memledger.workspace_snapshots where agent = $1`,
        [agent],
      );
      return r === undefined ? null : toMeta(r);
    });
  }

  get(agent: string): Promise<WorkspaceSnapshot | null> {
    return this.#read(async (q) => {
      const r = await one<SnapshotDbRow>(
        q,
        `select ${META}, bytes from memledger.workspace_snapshots where agent = $1`,
        [agent],
      );
      return r === undefined ? null : { ...toMeta(r), bytes: new Uint8Array(r.bytes!) };
    });
  }

  put(s: WorkspaceSnapshotPut): Promise<number | null> {
    return this.#write(async (q) => {
      const version = s.baseVersion + 1;
      const args = [s.bytes, s.rawSize, s.bytes.byteLength, s.sha256, s.tableCount, s.updatedAt, s.updatedBy];
      // The version test is in the statement, under the tenant's write lock: a stale writer changes no row.
      const rows =
        s.baseVersion === 0
          ? await run(
              q,
              `insert into memledger.workspace_snapshots
                 (agent, version, bytes, raw_size, compressed_size, sha256, table_count, updated_at, updated_by)
               values ($1, $2, $3, $4, $5, $6, $7, $8, $9) on conflict (tenant, agent) do nothing returning 1`,
              [s.agent, version, ...args],
            )
          : await run(
              q,
              `update memledger.workspace_snapshots set version = $1, bytes = $2, raw_size = $3,
                 compressed_size = $4, sha256 = $5, table_count = $6, updated_at = $7, updated_by = $8
               where agent = $9 and version = $10 returning 1`,
              [version, ...args, s.agent, s.baseVersion],
            );
      return rows.length === 1 ? version : null;
    });
  }

  list(): Promise<WorkspaceSnapshotMeta[]> {
    return this.#read(async (q) =>
      (await run<SnapshotDbRow>(q, `select ${META} from memledger.workspace_snapshots order by agent`)).map(
        toMeta,
      ),
    );
  }

  delete(agent: string): Promise<boolean> {
    return this.#write(async (q) => {
      const a = await run(q, 'delete from memledger.workspace_snapshots where agent = $1 returning 1', [
        agent,
      ]);
      const b = await run(q, 'delete from memledger.workspace_quarantine where agent = $1 returning 1', [
        agent,
      ]);
      return a.length + b.length > 0;
    });
  }

  quarantine(s: QuarantinedSnapshot): Promise<void> {
    return this.#write(async (q) => {
      await run(
        q,
        `insert into memledger.workspace_quarantine (agent, version, reason, bytes, at) values ($1, $2, $3, $4, $5)
         on conflict (tenant, agent) do update set version = excluded.version, reason = excluded.reason,
           bytes = excluded.bytes, at = excluded.at`,
        [s.agent, s.version, s.reason, s.bytes, s.at],
      );
    });
  }

  quarantined(agent: string): Promise<QuarantinedSnapshot | null> {
    return this.#read(async (q) => {
      const r = await one<QuarantinedSnapshot>(
        q,
        'select agent, version, reason, bytes, at from memledger.workspace_quarantine where agent = $1',
        [agent],
      );
      return r === undefined ? null : { ...r, bytes: new Uint8Array(r.bytes) };
    });
  }

  dropQuarantine(agent: string): Promise<boolean> {
    return this.#write(
      async (q) =>
        (await run(q, 'delete from memledger.workspace_quarantine where agent = $1 returning 1', [agent]))
          .length > 0,
    );
  }
}
