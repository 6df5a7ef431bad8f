/**
 * On open, moves the audit records a killed process left in the store's outbox to the audit store (I8), each
 * marked `recovered: true` in its preview: it is the record as of the call's last commit, not its end.
 *
 * Several processes share a home (CLI, server, hooks), so a row may belong to a process that is alive and about
 * to write that record itself: rows of a live process are left to it. A row whose process is gone is moved; a
 * record written twice is still one record (the audit store ignores an id it holds), so two processes recovering
 * at once, or a recovery racing a slow writer, never duplicate anything.
 */
import type { AuditRecord, AuditSink } from '../audit/record.ts';
import type { Store } from '../store/port.ts';
import { withFields, writeRecord } from './audit-trail.ts';

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
    .filter((row) => (row.pid === process.pid ? ownRowsToo : !isAlive(row.pid)))
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
    write: async (record) => {
      await recovery;
      return sink.write(record);
    },
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

/**
 * Whether a process of this machine still runs (a home is local: SQLite's WAL needs one machine). A pid reused
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
