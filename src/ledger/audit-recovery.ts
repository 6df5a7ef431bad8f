/**
 * On open, moves the audit records a killed process left in the store's outbox to the audit store (I8), each
 * marked `recovered: true` in its preview: it is the record as of the call's last commit, not its end.
 *
 * Several processes share a store (CLI, server, hooks; replicas on one database), so a row may belong to a
 * process that is alive and about to write that record itself: its rows are left to it, since the audit store
 * keeps the first record per id and a partial record moved early would win over the call's final one. Whether
 * the writer lives is known only on its own machine:
 * - a row of this machine (its host is this one, or the store lives on one machine: a home) is moved as soon as
 *   its pid is not alive;
 * - a row of another machine (replicas on several hosts) is moved once it is older than `OUTBOX_LEASE_MS` by
 *   the store's clock. A call's last commit rewrites its row, and only its final audit write follows, so a row
 *   that old has a writer that died or whose audit write failed and left it for a later open.
 * Chosen over writing the audit record inside the write's own transaction (the audit lives in the same Postgres
 * database): the audit is append-only and keeps one record per id, so a record written at commit could not be
 * completed by the call's end, and a call that commits several times would need several records.
 * A record written twice is still one record (the audit store ignores an id it holds), so two processes
 * recovering at once, or a recovery racing a slow writer, never duplicate anything.
 */
import type { AuditRecord, AuditSink } from '../audit/record.ts';
import type { PendingOutboxRow, Store } from '../store/port.ts';
import { withFields, writeRecord } from './audit-trail.ts';
import { thisHost } from './host.ts';

/** How old another machine's outbox row must be before it is taken as orphaned: far past any call's final write. */
export const OUTBOX_LEASE_MS = 10 * 60_000;

/**
 * Moves the records of dead processes. `ownRowsToo` takes this process's own rows as well: right when it opens
 * the home's connections, no call of this process is in flight, so its rows (from connections it closed before,
 * or a dead process whose id was reused) are orphans. Returns how many records it moved.
 */
export async function recoverOutbox(store: Store, sink: AuditSink, ownRowsToo: boolean): Promise<number> {
  const rows = store.auditOutbox.pending();
  // Every write starts before the first await: a sink that writes synchronously underneath (SQLite) holds every
  // moved record by the time the ledger's constructor returns.
  const writes = rows
    .filter((row) => orphaned(row, ownRowsToo))
    .map(async (row) => {
      const record = JSON.parse(row.record) as AuditRecord;
      const preview = withFields(record.argsPreview, { recovered: true });
      return (await writeRecord(sink, { ...record, argsPreview: preview })) ? row.id : null;
    });
  const moved = (await Promise.all(writes)).filter((id) => id !== null);
  if (moved.length > 0) store.auditOutbox.flushed(moved);
  return moved.length;
}

/**
 * The sink as a ledger uses it while its open's recovery runs: every write and read waits for the recovery first,
 * so the moved records land before any record of this ledger's calls and every audit read sees them.
 */
export function afterRecovery(sink: AuditSink, recovery: Promise<unknown>): AuditSink {
  return {
    // The options too: a `backed` record (its version waits in the outbox) may commit without its own fsync.
    write: async (record, options) => {
      await recovery;
      return sink.write(record, options);
    },
    ...(sink.hold === undefined
      ? {}
      : {
          // After the recovery too, and in the order of the calls: a read queued behind it sees it held.
          hold: (record: AuditRecord, durable: () => void) => {
            recovery
              .then(() => sink.hold!(record, durable))
              .catch((error: unknown) =>
                process.emitWarning(`memledger: audit write failed: ${(error as Error).message}`),
              );
          },
        }),
    query: async (filter) => {
      await recovery;
      return sink.query(filter);
    },
    failureCounts: async (since) => {
      await recovery;
      return sink.failureCounts(since);
    },
    close: () => sink.close(),
  };
}

/** Whether nobody is left to write this row's record (see the header). */
function orphaned(row: PendingOutboxRow, ownRowsToo: boolean): boolean {
  if (row.host !== null && row.host !== thisHost()) return row.ageMs !== null && row.ageMs >= OUTBOX_LEASE_MS;
  return row.pid === process.pid ? ownRowsToo : !isAlive(row.pid);
}

/**
 * Whether a process of this machine still runs (the row's host is this one, or a home, which is local: SQLite's WAL needs one machine). A pid reused
 * by an unrelated process only delays the move until that process is gone too; nothing is lost.
 */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
