/**
 * memory.db's upkeep outside the write path: rebuilding the full-text indexes from the rows, the store's
 * statistics, and truncating the write-ahead log after an erasure (I9).
 */
import { statSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import type { StoreStats } from '../port.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { type FtsIndexes, indexOf, StatTotals } from './scope-stats.ts';

/** Checkpoint attempts after an erasure, each waiting up to WAL_WAIT_MS for readers, 25 ms doubling to 500 ms apart. */
const WAL_ATTEMPTS = 10;
const WAL_WAIT_MS = 200;

/** Rebuilds both full-text indexes and the scope statistics from the rows; run inside a write transaction. */
export function rebuildIndexes(db: DatabaseSync, fts: FtsIndexes): { indexed: number } {
  db.exec(`DELETE FROM fts_current`);
  db.exec(`DELETE FROM fts_history`);
  let indexed = 0;
  // Counted in memory and written once, replacing the table: as if each row had been indexed alone.
  const totals = new StatTotals();
  for (const row of db
    .prepare(
      `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.active_from IS NOT NULL AND m.state <> 'erased'`,
    )
    .iterate() as Iterable<MemoryRow>) {
    const memory = toMemory(row);
    const index = indexOf(memory.state, memory.activeFrom)!;
    fts.insert(index, row.seq, memory, totals);
    indexed++;
  }
  totals.write(db);
  db.exec(`INSERT INTO fts_current(fts_current) VALUES ('optimize')`);
  db.exec(`INSERT INTO fts_history(fts_history) VALUES ('optimize')`);
  return { indexed };
}

export function storeStats(db: DatabaseSync, path: string): StoreStats {
  const byState: Record<string, number> = {};
  let memories = 0;
  for (const r of db.prepare('SELECT state, count(*) AS n FROM memories GROUP BY state').all() as {
    state: string;
    n: number;
  }[]) {
    byState[r.state] = r.n;
    memories += r.n;
  }
  const count = (table: string) =>
    (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
  const files: Record<string, number> = {};
  for (const suffix of ['', '-wal']) {
    try {
      files[`memory.db${suffix}`] = statSync(path + suffix).size;
    } catch {
      // the WAL may not exist right after a checkpoint
    }
  }
  return {
    memories,
    byState,
    scopes: count('scopes'),
    events: count('events'),
    rejections: count('rejections'),
    erasures: count('erasures'),
    files,
  };
}

/**
 * Truncates the write-ahead log, retrying while another process's read holds it (I9): an erasure's old pages
 * stay in memory.db-wal until a checkpoint copies past them and the log is cut. Bounded: after some 5 s of
 * attempts it gives up and says so, and the bytes leave at the next checkpoint that succeeds.
 */
export async function truncateWal(db: DatabaseSync): Promise<boolean> {
  const checkpoint = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)');
  const { timeout } = db.prepare('PRAGMA busy_timeout').get() as { timeout: number };
  // The checkpoint waits in the busy handler for readers to finish: cap each wait, so the bound is ours.
  db.exec(`PRAGMA busy_timeout = ${WAL_WAIT_MS}`);
  try {
    for (let attempt = 0; attempt < WAL_ATTEMPTS; attempt++) {
      if ((checkpoint.get() as { busy: number }).busy === 0) return true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(25 * 2 ** attempt, 500)));
    }
    return false;
  } finally {
    db.exec(`PRAGMA busy_timeout = ${Number(timeout)}`);
  }
}
