/** Feeds on Postgres: feed definitions and checkpoints, source items, and the live-claim lookup (SQLite's feeds.ts). */
import { MemoryError } from '../../model/errors.ts';
import type { Memory } from '../../model/memory.ts';
import type { FeedRow, FeedStore, FeedUpdate, SourceItem } from '../feeds-port.ts';
import type { TransactionOptions } from '../port.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { one, type Param, type Q, run } from './statements.ts';
import { type FeedDbRow, toFeed } from '../sqlite/feeds.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;
type Write = <T>(fn: (q: Q) => Promise<T>, options?: TransactionOptions) => Promise<T>;

const FEED_COLUMNS = 'name, connector, config, checkpoint, stats, created_at, last_sync_at, last_error';

export class PostgresFeedStore implements FeedStore {
  readonly #read: Read;
  readonly #write: Write;

  constructor(read: Read, write: Write) {
    this.#read = read;
    this.#write = write;
  }

  list(): Promise<FeedRow[]> {
    return this.#read(async (q) =>
      (await run<FeedDbRow>(q, `select ${FEED_COLUMNS} from memledger.feeds order by name`)).map(toFeed),
    );
  }

  get(name: string): Promise<FeedRow | null> {
    return this.#read(async (q) => {
      const row = await one<FeedDbRow>(q, `select ${FEED_COLUMNS} from memledger.feeds where name = $1`, [
        name,
      ]);
      return row === undefined ? null : toFeed(row);
    });
  }

  insert(row: FeedRow, options?: TransactionOptions): Promise<void> {
    return this.#write(async (q) => {
      const inserted = await run(
        q,
        `insert into memledger.feeds (${FEED_COLUMNS}) values ($1, $2, $3, $4, $5, $6, $7, $8)
         on conflict do nothing returning 1`,
        [
          row.name,
          row.connector,
          JSON.stringify(row.config),
          JSON.stringify(row.checkpoint),
          JSON.stringify(row.stats),
          row.createdAt,
          row.lastSyncAt,
          row.lastError,
        ],
      );
      if (inserted.length === 0) {
        throw new MemoryError('conflict', `a feed named ${row.name} exists already`, {
          details: { name: row.name },
        });
      }
    }, options);
  }

  update(name: string, change: FeedUpdate, options?: TransactionOptions): Promise<void> {
    return this.#write(async (q) => {
      const columns: [keyof FeedUpdate, string, boolean][] = [
        ['config', 'config', true],
        ['checkpoint', 'checkpoint', true],
        ['stats', 'stats', true],
        ['lastSyncAt', 'last_sync_at', false],
        ['lastError', 'last_error', false],
      ];
      const sets: string[] = [];
      const params: Param[] = [name];
      for (const [field, column, json] of columns) {
        const value = change[field];
        if (value === undefined) continue;
        params.push(json ? JSON.stringify(value) : (value as string | null));
        sets.push(`${column} = $${params.length}`);
      }
      if (sets.length === 0) return;
      const changed = await run(
        q,
        `update memledger.feeds set ${sets.join(', ')} where name = $1 returning 1`,
        params,
      );
      if (changed.length === 0) throw new MemoryError('not_found', `no feed named ${name}`);
    }, options);
  }

  remove(name: string, options?: TransactionOptions): Promise<boolean> {
    return this.#write(
      async (q) =>
        (await run(q, 'delete from memledger.feeds where name = $1 returning 1', [name])).length > 0,
      options,
    );
  }
}

/**
 * The live memories saying a claim in a scope: active ones first, then held ones, oldest first. Plain columns
 * only, so the index of migration 10 serves it under row-level security (no non-leakproof function on a column).
 */
export async function readLiveClaims(q: Q, scope: string, fingerprint: string): Promise<Memory[]> {
  const rows = await run<MemoryRow>(
    q,
    `select ${MEMORY_COLUMNS} from memledger.memories m
     where m.scope = $1 and m.fingerprint = $2 and m.state in ('held', 'active')
     order by m.state = 'active' desc, m.seq limit 50`,
    [scope, fingerprint],
  );
  return rows.map(toMemory);
}

export async function readSourceItem(
  q: Q,
  connector: string,
  scope: string,
  itemId: string,
): Promise<string | null> {
  const row = await one<{ memory_id: string }>(
    q,
    'select memory_id from memledger.feed_items where connector = $1 and scope = $2 and item_id = $3',
    [connector, scope, itemId],
  );
  return row?.memory_id ?? null;
}

/** Records a source item; a second insert of the same item in a scope is a `conflict`, never a second row. */
export async function writeSourceItem(q: Q, item: SourceItem): Promise<void> {
  const inserted = await run(
    q,
    `insert into memledger.feed_items (connector, scope, item_id, memory_id, at) values ($1, $2, $3, $4, $5)
     on conflict do nothing returning 1`,
    [item.connector, item.scope, item.itemId, item.memoryId, item.at],
  );
  if (inserted.length === 0) {
    throw new MemoryError(
      'conflict',
      `source item ${item.connector}/${item.itemId} was recorded already in ${item.scope}`,
      { details: { connector: item.connector, scope: item.scope, itemId: item.itemId } },
    );
  }
}
