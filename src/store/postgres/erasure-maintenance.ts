/**
 * Erasure's maintenance on Postgres (I9): what takes the erased bytes out of the heap, TOAST, index and WAL files
 * once the rows are blanked. It runs on the maintenance pool (the tables' owner), outside any transaction.
 */
import { MemoryError } from '../../model/errors.ts';
import { pgError, type Sql } from './database.ts';

/** WAL rounds after an erasure at most: 64 segments are 1 GB of WAL (min_wal_size keeps 80 MB by default). */
const MAX_WAL_ROUNDS = 64;

/**
 * After erasure (I9): the blanked rows' old versions stay in the heap, TOAST and index pages (an UPDATE writes
 * a new tuple; VACUUM only marks the old one's space free, it does not zero it), so the tables holding content
 * are rewritten by VACUUM FULL, which also rebuilds every index and empties GIN pending lists; the old files
 * are truncated at commit. Then the write-ahead log is cycled until no segment holds the old bytes (below).
 * VACUUM needs the tables' owner and cannot run in a transaction; CHECKPOINT, pg_switch_wal and pg_ls_waldir
 * need a superuser (or pg_checkpoint, pg_monitor and EXECUTE on pg_switch_wal): it runs on the maintenance pool, and is
 * skipped (checkpointed: false) when the store has none. WAL already archived (archive_command) or streamed
 * to a standby is out of reach: those copies are the DBA's to expire.
 */
export async function compactAfterErasure(
  m: Sql,
  notices: MaintenanceNotice[],
): Promise<{ checkpointed: boolean }> {
  try {
    await waitForOlderSnapshots(m);
    await vacuumUntilClean(m, notices);
    await m`checkpoint`;
    return { checkpointed: await cycleWal(m) };
  } catch (error) {
    throw pgError(error, 'compact after erasure');
  }
}

/**
 * VACUUM FULL keeps a dead row version some open transaction may still see, and says so ("N dead row versions
 * cannot be removed yet"). Such a version still holds the erased bytes, so the rewrite is repeated, after a
 * pause, until it keeps none (or a minute has passed: then the erasure fails as `upstream`, having landed).
 */
async function vacuumUntilClean(m: Sql, notices: MaintenanceNotice[]): Promise<void> {
  const tables = CONTENT_TABLES.map((t) => `memledger.${t}`).join(', ');
  const deadline = Date.now() + 60_000;
  for (;;) {
    notices.length = 0;
    await m.unsafe(`vacuum (full, verbose) ${tables}`);
    const kept = notices.reduce((n, x) => n + keptDead(x.detail), 0);
    if (kept === 0) return;
    if (Date.now() > deadline) {
      throw new MemoryError(
        'upstream',
        `the erasure landed, but ${kept} old row version(s) are still held by an open transaction of this database; run the erase again once it ends`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    await waitForOlderSnapshots(m);
  }
}

/**
 * Cycles the write-ahead log until no segment file holds a byte written before the erasure (I9). Old bytes are
 * in the segments up to the current one (the content's own inserts, and the erasure's records: a page's first
 * change after a checkpoint logs the whole page, the dead tuple with it), and checkpoints do not delete old
 * segments but recycle them under future names, contents and all, until they are reused. So: switch and
 * checkpoint once, which recycles every segment up to the erasure's; note the highest file name there is then,
 * which bounds where those went; then switch and checkpoint until the current segment is past it. Each segment
 * in between has been written to its end (a switch writes the rest of its segment), and what is recycled from
 * now on began after the erasure. With `wal_recycle = off` old segments are deleted instead and it is quick.
 * False if it did not finish within MAX_WAL_ROUNDS.
 */
async function cycleWal(m: Sql): Promise<boolean> {
  await m`select pg_switch_wal()`;
  await m`checkpoint`;
  const [top] = await m<{ name: string | null }[]>`
    select max(name) as name from pg_ls_waldir() where name ~ '^[0-9A-F]{24}$'`;
  for (let round = 0; round < MAX_WAL_ROUNDS; round++) {
    const [now] = await m<{ name: string }[]>`select pg_walfile_name(pg_current_wal_lsn()) as name`;
    if (top?.name === null || top?.name === undefined || now!.name > top.name) return true;
    await m`select pg_switch_wal()`;
    await m`checkpoint`;
  }
  return false;
}

/** Tables that hold memory content or keys and so are rewritten after an erasure. */
const CONTENT_TABLES: readonly string[] = [
  'memories',
  'memory_subjects',
  'events',
  'rejections',
  'claims',
  'corrections',
  'search_docs',
  'home_keys',
  // A chain following a subject names it until erasure forgets it (store migration 4).
  'summary_chains',
  // A workspace re-snapshot after an erasure leaves the old bytea as a dead tuple (issue 11).
  'workspace_snapshots',
  'workspace_quarantine',
  // A vector can be inverted into text close to its body (migration 7).
  'memory_vectors',
];

/**
 * VACUUM FULL copies a row version that some open snapshot may still see, so a transaction of this database
 * that began before the erasure committed (a long read, an autoanalyze) would keep the old bytes alive in the
 * rewritten file. Wait, up to `limitMs`, until every other backend of this database holds only a snapshot taken
 * after now; other databases' backends do not hold back this database's horizon.
 */
async function waitForOlderSnapshots(m: Sql, limitMs = 30_000): Promise<void> {
  const [now] = await m<{ x: string }[]>`select (pg_current_xact_id()::text::bigint % 4294967296)::text as x`;
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    const [row] = await m<{ n: number }[]>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and backend_xmin is not null
        and age(backend_xmin) >= age(${now!.x}::xid)`;
    if ((row?.n ?? 0) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A notice of the maintenance pool, as postgres.js hands it over. */
export interface MaintenanceNotice {
  message?: string;
  detail?: string;
}

/** "2 dead row versions cannot be removed yet." → 2 (VACUUM FULL VERBOSE's DETAIL line); anything else → 0. */
function keptDead(detail: string | undefined): number {
  const m = detail === undefined ? null : /(\d+) dead row versions? cannot be removed yet/.exec(detail);
  return m === null ? 0 : Number(m[1]);
}
