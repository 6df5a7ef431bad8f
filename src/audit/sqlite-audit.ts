/** audit.db: the append-only audit store, a separate file with its own lifecycle from memory.db. */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { openDatabase, type Sync } from '../store/sqlite/database.ts';
import { scrubMessage } from './message.ts';
import type { AuditFilter, AuditRecord, AuditSink, FailureCount } from './record.ts';

export const AUDIT_MIGRATIONS = [
  {
    version: 1,
    name: 'audit log',
    sql: `
CREATE TABLE audit (
  seq            INTEGER PRIMARY KEY,
  id             TEXT NOT NULL UNIQUE,
  at             TEXT NOT NULL,
  principal      TEXT NOT NULL,
  principal_kind TEXT NOT NULL,
  on_behalf_of   TEXT,
  surface        TEXT NOT NULL,
  operation      TEXT NOT NULL,
  tool           TEXT,
  token_id       TEXT,
  session_id     TEXT,
  run_id         TEXT,
  client         TEXT,
  targets        TEXT NOT NULL,
  args_hash      TEXT NOT NULL,
  args_preview   TEXT NOT NULL,
  outcome        TEXT NOT NULL CHECK (outcome IN ('ok','error')),
  failure_class  TEXT,
  message        TEXT,
  changes        TEXT NOT NULL,
  duration_ms    REAL NOT NULL
);
CREATE INDEX audit_at ON audit(at);
CREATE INDEX audit_principal ON audit(principal, seq);
CREATE INDEX audit_failures ON audit(failure_class, operation) WHERE outcome = 'error';
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'I8 audit is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'I8 audit is append-only'); END;
`,
  },
  {
    // Every call writes a record, so each index costs every call a page. No reader uses this one: the feed reads
    // newest first by seq and stops at its limit, and failure counts read the index of failures.
    version: 2,
    name: 'drop the unused time index',
    sql: `DROP INDEX audit_at;`,
  },
];

/**
 * The audit's page cache. Every call appends a record, so with memory.db's 64 MB a long-running server's cache
 * filled with pages it had just written and would not read again: a 10-minute soak of `serve` grew native memory
 * by about 8 MB a minute until the 64 MB were full. Appends touch only the right edge of the table and of its
 * indexes, and the readers (the feed newest first, failure counts) read recent pages: 8 MB holds both. Measured:
 * 16 us of CPU per record at 64 MB and at 8 MB on a 32k-record audit.db.
 */
const AUDIT_CACHE_MB = 8;

export function openSqliteAudit(path: string, options: { sync?: Sync } = {}): AuditSink {
  return new SqliteAudit(openDatabase(path, AUDIT_MIGRATIONS, { cacheMb: AUDIT_CACHE_MB, ...options }));
}

interface AuditRow {
  id: string;
  at: string;
  principal: string;
  principal_kind: string;
  on_behalf_of: string | null;
  surface: string;
  operation: string;
  tool: string | null;
  token_id: string | null;
  session_id: string | null;
  run_id: string | null;
  client: string | null;
  targets: string;
  args_hash: string;
  args_preview: string;
  outcome: 'ok' | 'error';
  failure_class: AuditRecord['failureClass'];
  message: string | null;
  changes: string;
  duration_ms: number;
}

class SqliteAudit implements AuditSink {
  readonly #db: DatabaseSync;
  readonly #insert;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#insert = db.prepare(
      // A record whose id is there already stays as it is: moving an outbox row twice writes it once (I8).
      `INSERT OR IGNORE INTO audit (id, at, principal, principal_kind, on_behalf_of, surface, operation, tool, token_id, session_id, run_id,
        client, targets, args_hash, args_preview, outcome, failure_class, message, changes, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  async write(r: AuditRecord): Promise<void> {
    this.#insert.run(
      r.id,
      r.at,
      r.principal,
      r.principalKind,
      r.onBehalfOf,
      r.surface,
      r.operation,
      r.tool,
      r.tokenId,
      r.sessionId,
      r.runId,
      r.client,
      JSON.stringify(r.targets),
      r.argsHash,
      JSON.stringify(r.argsPreview),
      r.outcome,
      r.failureClass,
      r.message === null ? null : scrubMessage(r.message),
      JSON.stringify(r.changes),
      r.durationMs,
    );
  }

  async query(filter: AuditFilter): Promise<AuditRecord[]> {
    const where: string[] = [];
    const params: Record<string, SQLInputValue> = { n: Math.min(filter.limit ?? 100, 10_000) };
    const eq = (column: string, value: string | undefined) => {
      if (value === undefined) return;
      where.push(`${column} = :${column}`);
      params[column] = value;
    };
    eq('principal', filter.principal);
    eq('operation', filter.operation);
    eq('tool', filter.tool);
    eq('outcome', filter.outcome);
    eq('failure_class', filter.failureClass ?? undefined);
    if (filter.since !== undefined) {
      where.push('at >= :since');
      params.since = filter.since;
    }
    const sql = `SELECT * FROM audit ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT :n`;
    return (this.#db.prepare(sql).all(params) as unknown as AuditRow[]).map(toRecord);
  }

  async failureCounts(since?: string): Promise<FailureCount[]> {
    const rows = this.#db
      .prepare(
        `SELECT operation, tool, failure_class, count(*) AS n FROM audit WHERE outcome = 'error' AND at >= :since
         GROUP BY operation, tool, failure_class ORDER BY n DESC`,
      )
      .all({ since: since ?? '' }) as {
      operation: string;
      tool: string | null;
      failure_class: FailureCount['failureClass'];
      n: number;
    }[];
    return rows.map((r) => ({
      operation: r.operation,
      tool: r.tool,
      failureClass: r.failure_class,
      count: r.n,
    }));
  }

  // The body runs before the promise is returned: the file is closed when a synchronous caller goes on.
  async close(): Promise<void> {
    this.#db.close();
  }
}

const toRecord = (r: AuditRow): AuditRecord => ({
  id: r.id,
  at: r.at,
  principal: r.principal,
  principalKind: r.principal_kind,
  onBehalfOf: r.on_behalf_of,
  surface: r.surface,
  operation: r.operation,
  tool: r.tool,
  tokenId: r.token_id,
  sessionId: r.session_id,
  runId: r.run_id,
  client: r.client,
  targets: JSON.parse(r.targets),
  argsHash: r.args_hash,
  argsPreview: JSON.parse(r.args_preview),
  outcome: r.outcome,
  failureClass: r.failure_class,
  message: r.message,
  changes: JSON.parse(r.changes),
  durationMs: r.duration_ms,
});
