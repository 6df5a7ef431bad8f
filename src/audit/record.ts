/** Audit records (I8): one per call and its state changes. Who, for whom, what, a hash and preview, never content. */
import type { ErrorClass } from '../model/errors.ts';

export interface StateChange {
  id: string;
  from: string | null;
  to: string;
}

export interface AuditRecord {
  id: string;
  at: string;
  principal: string;
  principalKind: string;
  onBehalfOf: string | null;
  surface: string;
  operation: string;
  tool: string | null;
  tokenId: string | null;
  sessionId: string | null;
  runId: string | null;
  client: string | null;
  targets: string[];
  argsHash: string;
  argsPreview: unknown;
  outcome: 'ok' | 'error';
  failureClass: ErrorClass | null;
  /** Our own message about a failure, with quoted input removed. */
  message: string | null;
  changes: StateChange[];
  durationMs: number;
}

export interface AuditFilter {
  principal?: string;
  operation?: string;
  tool?: string;
  outcome?: 'ok' | 'error';
  failureClass?: ErrorClass;
  since?: string;
  limit?: number;
}

export interface FailureCount {
  operation: string;
  tool: string | null;
  failureClass: ErrorClass;
  count: number;
}

/**
 * Where audit records go. Kept apart from the memory store so erasure there never touches it. Asynchronous, so a
 * sink may be a database server (Postgres); a write's promise settles once the record is durable, and the
 * ledger awaits it before the call it records returns (I8).
 */
export interface AuditSink {
  /**
   * Appends a record. Idempotent by id: a record whose id the store holds already is ignored, never doubled.
   * `backed`: a version of the record waits in the store's outbox, committed, until this write settles and the
   * outbox row is deleted by a later commit; a sink whose commits share one log with the store's (Postgres, one
   * database) may then settle before its own flush, since that later commit flushes this one first.
   */
  write(record: AuditRecord, options?: { backed?: boolean }): Promise<void>;
  /**
   * Optional: takes a backed record (its version committed in the store's outbox, so the call is safe before
   * this record is, I8/I13) to write later together with others (sqlite-audit.ts), and calls `durable` once it
   * is written, at which the caller lets the outbox row go. A record that is never written never calls it: its
   * row stays for a later open to move. A sink without it gets every record through `write`.
   */
  hold?(record: AuditRecord, durable: () => void): void;
  /** Records matching the filter, newest first. */
  query(filter: AuditFilter): Promise<AuditRecord[]>;
  failureCounts(since?: string): Promise<FailureCount[]>;
  close(): Promise<void>;
}
