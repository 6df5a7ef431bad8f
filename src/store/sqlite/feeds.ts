/**
 * Feeds on SQLite: feed definitions and checkpoints (the `feeds` table), source items (`feed_items`) and the
 * live-claim lookup corroboration uses. Statements are prepared once per connection.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { MemoryError } from '../../model/errors.ts';
import type { Memory } from '../../model/memory.ts';
import type { FeedRow, FeedStore, FeedUpdate, SourceItem } from '../feeds-port.ts';
import type { TransactionOptions } from '../port.ts';
import { engineError } from './database.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;
/** The store's write transaction, which also carries the call's audit outbox row (I8). */
type Write = <T>(fn: () => T, options?: TransactionOptions) => Promise<T>;

export class SqliteFeedStore implements FeedStore {
  readonly #db: DatabaseSync;
  readonly #serial: Serial;
  readonly #write: Write;

  constructor(db: DatabaseSync, serial: Serial, write: Write) {
    this.#db = db;
    this.#serial = serial;
    this.#write = write;
  }

  list(): Promise<FeedRow[]> {
    return this.#serial(async () =>
      (statements(this.#db).feedList.all() as unknown as FeedDbRow[]).map(toFeed),
    );
  }

  get(name: string): Promise<FeedRow | null> {
    return this.#serial(async () => {
      const row = statements(this.#db).feedGet.get(name) as FeedDbRow | undefined;
      return row === undefined ? null : toFeed(row);
    });
  }

  insert(row: FeedRow, options?: TransactionOptions): Promise<void> {
    return this.#write(() => {
      try {
        statements(this.#db).feedInsert.run(
          row.name,
          row.connector,
          JSON.stringify(row.config),
          JSON.stringify(row.checkpoint),
          JSON.stringify(row.stats),
          row.createdAt,
          row.lastSyncAt,
          row.lastError,
        );
      } catch (error) {
        if (/UNIQUE constraint failed: feeds\.name/.test((error as Error).message)) {
          throw new MemoryError('conflict', `a feed named ${row.name} exists already`, {
            details: { name: row.name },
          });
        }
        throw engineError(error, 'add a feed');
      }
    }, options);
  }

  update(name: string, change: FeedUpdate, options?: TransactionOptions): Promise<void> {
    return this.#write(() => {
      const columns: [keyof FeedUpdate, string, boolean][] = [
        ['config', 'config', true],
        ['checkpoint', 'checkpoint', true],
        ['stats', 'stats', true],
        ['lastSyncAt', 'last_sync_at', false],
        ['lastError', 'last_error', false],
      ];
      const sets: string[] = [];
      const params: Record<string, string | null> = { name };
      for (const [field, column, json] of columns) {
        const value = change[field];
        if (value === undefined) continue;
        sets.push(`${column} = :${column}`);
        params[column] = json ? JSON.stringify(value) : (value as string | null);
      }
      if (sets.length === 0) return;
      let changes: number;
      try {
        changes = Number(
          this.#db.prepare(`UPDATE feeds SET ${sets.join(', ')} WHERE name = :name`).run(params).changes,
        );
      } catch (error) {
        throw engineError(error, 'update a feed');
      }
      if (changes === 0) throw new MemoryError('not_found', `no feed named ${name}`);
    }, options);
  }

  remove(name: string, options?: TransactionOptions): Promise<boolean> {
    return this.#write(() => Number(statements(this.#db).feedDelete.run(name).changes) > 0, options);
  }
}

/** The live memories saying a claim in a scope: active ones first, then held ones, oldest first. */
export function readLiveClaims(db: DatabaseSync, scope: string, fingerprint: string): Memory[] {
  const rows = statements(db).liveClaim.all({
    prefix: fingerprint.slice(0, FINGERPRINT_PREFIX),
    fingerprint,
    scope,
  }) as unknown as MemoryRow[];
  return rows.map(toMemory);
}

export function readSourceItem(
  db: DatabaseSync,
  connector: string,
  scope: string,
  itemId: string,
): string | null {
  const row = statements(db).itemGet.get(connector, scope, itemId) as { memory_id: string } | undefined;
  return row?.memory_id ?? null;
}

/** Records a source item. The primary key makes a second insert of the same item in a scope fail, never land twice. */
export function writeSourceItem(db: DatabaseSync, item: SourceItem): void {
  try {
    statements(db).itemInsert.run(item.connector, item.scope, item.itemId, item.memoryId, item.at);
  } catch (error) {
    if (/UNIQUE constraint failed: feed_items/.test((error as Error).message)) {
      throw new MemoryError(
        'conflict',
        `source item ${item.connector}/${item.itemId} was recorded already in ${item.scope}`,
        {
          details: { connector: item.connector, scope: item.scope, itemId: item.itemId },
          cause: error,
        },
      );
    }
    throw error;
  }
}

/** A feeds row as both engines store it (JSON columns as text); the Postgres store maps it with `toFeed` too. */
export interface FeedDbRow {
  name: string;
  connector: string;
  config: string;
  checkpoint: string;
  stats: string;
  created_at: string;
  last_sync_at: string | null;
  last_error: string | null;
}

export const toFeed = (r: FeedDbRow): FeedRow => ({
  name: r.name,
  connector: r.connector,
  config: JSON.parse(r.config),
  checkpoint: JSON.parse(r.checkpoint),
  stats: JSON.parse(r.stats),
  createdAt: r.created_at,
  lastSyncAt: r.last_sync_at,
  lastError: r.last_error,
});

/** The fingerprint digits memory.db's live-claim index holds (migration 4); the lookup repeats its expression. */
const FINGERPRINT_PREFIX = 12;

const FEED_COLUMNS = 'name, connector, config, checkpoint, stats, created_at, last_sync_at, last_error';

function prepare(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    // The prefix term is what lets the planner use the index of migration 4; the full comparisons decide.
    liveClaim: p(
      `SELECT ${MEMORY_COLUMNS} FROM memories m
       WHERE substr(m.fingerprint, 1, ${FINGERPRINT_PREFIX}) = :prefix AND m.fingerprint = :fingerprint
         AND m.scope = :scope AND m.state IN ('held', 'active')
       ORDER BY m.state = 'active' DESC, m.seq LIMIT 50`,
    ),
    itemGet: p(`SELECT memory_id FROM feed_items WHERE connector = ? AND scope = ? AND item_id = ?`),
    itemInsert: p(`INSERT INTO feed_items (connector, scope, item_id, memory_id, at) VALUES (?, ?, ?, ?, ?)`),
    feedList: p(`SELECT ${FEED_COLUMNS} FROM feeds ORDER BY name`),
    feedGet: p(`SELECT ${FEED_COLUMNS} FROM feeds WHERE name = ?`),
    feedInsert: p(`INSERT INTO feeds (${FEED_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
    feedDelete: p(`DELETE FROM feeds WHERE name = ?`),
  } satisfies Record<string, StatementSync>;
}

const prepared = new WeakMap<DatabaseSync, ReturnType<typeof prepare>>();

/** Statements for one connection, prepared on first use: a store that never syncs a feed prepares none. */
function statements(db: DatabaseSync): ReturnType<typeof prepare> {
  let s = prepared.get(db);
  if (s === undefined) {
    s = prepare(db);
    prepared.set(db, s);
  }
  return s;
}
