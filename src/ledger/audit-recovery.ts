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
export function recoverOutbox(store: Store, sink: AuditSink, ownRowsToo: boolean): number {
  const rows = store.auditOutbox.pending();
  const moved: string[] = [];
  for (const row of rows) {
    if (row.pid === process.pid ? !ownRowsToo : isAlive(row.pid)) continue;
    const record = JSON.parse(row.record) as AuditRecord;
    if (writeRecord(sink, { ...record, argsPreview: withFields(record.argsPreview, { recovered: true }) })) {
      moved.push(row.id);
    }
  }
  if (moved.length > 0) store.auditOutbox.flushed(moved);
  return moved.length;
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
