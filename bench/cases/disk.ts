/**
 * disk: bytes per memory of memory.db (plus its WAL after a checkpoint) against the raw database holding the
 * same rows, with a per-table breakdown from SQLite's dbstat so the difference can be traced.
 */
import { statSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import type { Context } from '../context.ts';
import { RawStore } from '../raw.ts';
import type { BenchResult } from '../report.ts';
import { atMost, result } from '../report.ts';
import { ratio, round } from '../stats.ts';

/** Objects smaller than this share of the file are summed as `other` in the breakdown. */
const BREAKDOWN_MIN_SHARE = 0.005;
/** Issue 14: bytes per memory over the raw DB's. */
const TARGET_RATIO = 1.2;

export async function benchDisk(ctx: Context): Promise<BenchResult> {
  ctx.log('disk: checkpoint and measure both databases');
  const n = ctx.settings.scale;
  const mine = measureFile(ctx.memoryDb, n);
  // Home files only: run.ts skips this case on a database.
  if (!(ctx.raw instanceof RawStore))
    throw new Error('disk: measures the files of a home and a raw SQLite DB');
  const raw = measureFile(ctx.raw.path, n);
  const audit = fileSize(ctx.memoryDb.replace(/memory\.db$/, 'audit.db'));
  return result({
    description:
      'bytes per memory of memory.db + memory.db-wal after a TRUNCATE checkpoint, right after the bulk import, vs the raw DB (table + FTS5) holding the same rows',
    memledger: { ...mine, auditDbBytes: audit },
    raw,
    ratio: ratio(mine.bytesPerMemory, raw.bytesPerMemory),
    target: `<= ${TARGET_RATIO}x raw bytes per memory`,
    checks: [atMost('ratio', ratio(mine.bytesPerMemory, raw.bytesPerMemory), TARGET_RATIO)],
  });
}

function measureFile(path: string, memories: number) {
  // A second connection: the store keeps its own open, and a checkpoint needs no writer lock held by us.
  const db = new DatabaseSync(path, { timeout: 10_000 });
  try {
    const cp = db.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as { busy: number };
    const rows = db
      .prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC')
      .all() as { name: string; bytes: number }[];
    const dbBytes = fileSize(path);
    const walBytes = fileSize(`${path}-wal`);
    const perObject: Record<string, number> = {};
    let other = 0;
    for (const r of rows) {
      if (r.bytes >= dbBytes * BREAKDOWN_MIN_SHARE) perObject[r.name] = round(r.bytes / memories, 1);
      else other += r.bytes;
    }
    if (other > 0) perObject.other = round(other / memories, 1);
    return {
      dbBytes,
      walBytes,
      checkpointed: cp.busy === 0,
      bytesPerMemory: round((dbBytes + walBytes) / memories, 1),
      bytesPerMemoryByObject: perObject,
    };
  } finally {
    db.close();
  }
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0; // no WAL after a TRUNCATE checkpoint is normal
  }
}
