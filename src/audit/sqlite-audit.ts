/**
 * audit.db: the append-only audit store, a separate file with its own lifecycle from memory.db.
 *
 * Backed records (a write call's, whose version already sits committed in memory.db's outbox, I8/I13) are held
 * and written many to one transaction; the rest (reads, refusals, surface records) are written before their
 * call returns, behind whatever is held, so audit.db keeps the calls' order. Held records are written:
 * - when BATCH_MAX are held, at the end of the event-loop turn that held the first (setImmediate),
 * - before any read of this sink (the feed, failure counts), so every reader in this process sees every
 *   finished call,
 * - at close, and at the process's exit (an exit hook; a SIGKILL skips it, and the outbox covers that).
 * Only once the batch is committed is each record's outbox row let go (`durable`); a batch that fails is warned
 * and its rows stay for a later open to move (audit-recovery.ts).
 *
 * Another process reading audit.db (a CLI `memledger audit` beside a running server) sees a live writer's
 * records once that writer writes them: at the latest at the end of its current turn, or after BATCH_MAX
 * more writes in a turn that never yields. It never sees one twice and never loses one: the outbox rows of a
 * live writer are left to it (recovery moves only dead processes' rows), a dead writer's rows are moved by the
 * next open, and audit.db ignores an id it holds, so a row moved after its record was written adds nothing.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
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

/**
 * At most this many backed records wait for one transaction. Measured at 100k (bench/remember-profile.ts, WAL
 * frames per remember, memory.db + audit.db; 28.1 when every record had its own transaction): 4 held 25.8,
 * 16 held 26.1, 64 held 26.3. Each held record keeps its ~600-byte outbox row, so a bigger batch grows the
 * outbox past one page (splits, and freed pages zeroed by secure_delete) for what the rarer audit.db commit
 * saves; CPU per call was the same within the load's noise. 16 holds little back from readers in other
 * processes and keeps the call that writes a batch short.
 */
const BATCH_MAX = 16;

/**
 * A record, and what to tell once it is in audit.db. Its columns are serialised when its batch is written, off
 * the call's path: the ledger hands over a record it built for this write and keeps no reference to it.
 */
interface Held {
  record: AuditRecord;
  durable: (() => void) | undefined;
}

/** Open sinks with records held, written at the process's exit. */
const open = new Set<SqliteAudit>();
let exitHook = false;

class SqliteAudit implements AuditSink {
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  #held: Held[] = [];
  #turn: NodeJS.Immediate | undefined;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#insert = db.prepare(
      // A record whose id is there already stays as it is: moving an outbox row twice writes it once (I8).
      `INSERT OR IGNORE INTO audit (id, at, principal, principal_kind, on_behalf_of, surface, operation, tool, token_id, session_id, run_id,
        client, targets, args_hash, args_preview, outcome, failure_class, message, changes, duration_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    open.add(this);
    if (!exitHook) {
      exitHook = true;
      process.on('exit', () => {
        for (const sink of open) sink.#drain();
      });
    }
  }

  hold(r: AuditRecord, durable: () => void): void {
    this.#held.push({ record: r, durable });
    if (this.#held.length >= BATCH_MAX) this.#drain();
    else this.#turn ??= setImmediate(() => this.#drain()).unref();
  }

  // No await in the body: the record is written by the time the promise is returned.
  async write(r: AuditRecord): Promise<void> {
    // Behind what is held, in one transaction with it, so audit.db keeps the calls' order.
    const before = this.#held.splice(0);
    try {
      this.#commit([...before, { record: r, durable: undefined }]);
    } catch (error) {
      if (before.length > 0) lost(before.length, error);
      throw error;
    }
  }

  /** Writes what is held, in one transaction; a failure is warned, and the records' outbox rows stay. */
  #drain(): void {
    if (this.#turn !== undefined) clearImmediate(this.#turn);
    this.#turn = undefined;
    const batch = this.#held.splice(0);
    if (batch.length === 0) return;
    try {
      this.#commit(batch);
    } catch (error) {
      lost(batch.length, error);
    }
  }

  #commit(batch: Held[]): void {
    if (batch.length === 1) this.#insert.run(...rowValues(batch[0]!.record));
    else {
      this.#db.exec('BEGIN IMMEDIATE');
      try {
        for (const held of batch) this.#insert.run(...rowValues(held.record));
        this.#db.exec('COMMIT');
      } catch (error) {
        if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    }
    for (const held of batch) held.durable?.();
  }

  async query(filter: AuditFilter): Promise<AuditRecord[]> {
    this.#drain();
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
    this.#drain();
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
    this.#drain();
    open.delete(this);
    this.#db.close();
  }
}

function rowValues(r: AuditRecord): SQLInputValue[] {
  return [
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
  ];
}

/** Held records a failed transaction took with it: warned, never silent (their outbox rows are moved later). */
function lost(count: number, error: unknown): void {
  process.emitWarning(
    `memledger: audit write failed: ${(error as Error).message} (${count} held records; their outbox rows stay for a later open)`,
  );
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
