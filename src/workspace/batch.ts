/**
 * Runs an agent's batch on an open workspace: one transaction, the mounts created inside it, a savepoint per
 * statement, the subject-column rule checked after each statement that shaped a table, and the first failure
 * rolling the whole batch back with the failing statement's index. The mounts are dropped before COMMIT, and
 * they live in the temp database, so a committed file never holds them (I15).
 */
import type { StatementSync } from 'node:sqlite';
import { MemoryError } from '../model/errors.ts';
import { boundedRows, type StatementResult } from './bounds.ts';
import { megabytes, USAGE_TABLE, type WorkspaceLimits } from './config.ts';
import type { MountData } from './mount-data.ts';
import type { OpenWorkspace } from './open.ts';
import { teach } from './teach.ts';

export type Binding = string | number | boolean | null;

export interface BatchOutcome {
  results: StatementResult[];
  /** Whether the batch changed the file (and was committed), so the caller stores a new version. */
  wrote: boolean;
  bytes: number;
}

/** Runs `statements`; throws a MemoryError (with `details.statement`, the failing index) after a rollback. */
export function runBatch(
  ws: OpenWorkspace,
  statements: readonly string[],
  bindings: Readonly<Record<string, Binding>>,
  mounts: readonly MountData[],
  limits: WorkspaceLimits,
): BatchOutcome {
  const { db, guard } = ws;
  const params = toParams(bindings);
  guard.engine = true;
  db.exec('BEGIN');
  const results: StatementResult[] = [];
  let wrote = false;
  const used = new Set<string>();
  try {
    mount(ws, mounts);
    statements.forEach((sql, index) => {
      db.exec('SAVEPOINT stmt');
      const result = runOne(ws, sql, index, statements.length, params, limits);
      wrote ||= guard.touched.writes;
      for (const t of guard.touched.tables) used.add(t);
      guard.engine = true;
      checkSubjects(ws, [...guard.touched.shaped], index, statements.length);
      db.exec('RELEASE stmt');
      results.push(result);
    });
    const now = Date.now();
    for (const t of used) ws.usage.set(t, now);
    if (!wrote) {
      db.exec('ROLLBACK');
      return { results, wrote, bytes: fileBytes(ws) };
    }
    flushUsage(ws);
    unmount(ws, mounts);
    db.exec('COMMIT');
    return { results, wrote, bytes: fileBytes(ws) };
  } catch (error) {
    guard.engine = true;
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

function runOne(
  ws: OpenWorkspace,
  sql: string,
  index: number,
  total: number,
  params: Record<string, Binding>,
  limits: WorkspaceLimits,
): StatementResult {
  const { db, guard } = ws;
  const where = `statement ${index + 1} of ${total} (index ${index})`;
  guard.reset();
  guard.engine = false;
  let stmt: StatementSync;
  try {
    // VACUUM has no authorizer action; inside the batch's transaction it cannot run anyway, and VACUUM INTO's
    // ATTACH would be denied. Refused here by its first word so the model is told why, as a permission.
    if (/^\s*vacuum\b/i.test(sql)) {
      guard.denial =
        'VACUUM and VACUUM INTO are not allowed: the engine maintains the file, and a workspace writes no other file';
      throw new Error('not authorized');
    }
    stmt = db.prepare(sql);
    if (stmt.columns().length > 0) return boundedRows(stmt, index, params, sql, limits);
    const run = stmt.run(params as never);
    return {
      index,
      columns: [],
      rows: [],
      rowCount: 0,
      rowsAtLeast: false,
      changes: Number(run.changes),
      truncated: false,
    };
  } catch (error) {
    guard.engine = true;
    throw failure(ws, error, sql, where, index, limits);
  } finally {
    guard.engine = true;
  }
}

/** What went wrong, as a typed error that teaches; the SQLite text is the caller's own SQL, kept out of the audit. */
function failure(
  ws: OpenWorkspace,
  error: unknown,
  sql: string,
  where: string,
  index: number,
  limits: WorkspaceLimits,
): MemoryError {
  const details = { statement: index };
  if (ws.guard.denial !== null) {
    return new MemoryError('permission', `${where} was refused: ${ws.guard.denial}`, { details });
  }
  const text = error instanceof Error ? error.message : String(error);
  if (/database or disk is full/i.test(text)) {
    return new MemoryError(
      'conflict',
      `${where} would grow the workspace past its size cap of ${megabytes(limits.maxBytes)} (${ws.maxPages} pages); ` +
        'delete rows or drop tables first. The batch was rolled back.',
      { details: { ...details, maxBytes: limits.maxBytes } },
    );
  }
  if (/malformed|not a database|disk i\/o/i.test(text)) {
    return new MemoryError('internal', `${where} could not run: the workspace file is damaged`, { details });
  }
  if (/not authorized/i.test(text)) {
    return new MemoryError(
      'permission',
      `${where} was refused: this statement is not allowed in a workspace`,
      { details },
    );
  }
  const hints = teach(ws.db, sql, text);
  const message = `${where} failed: ${text}${hints.length > 0 ? `. ${hints.join('. ')}` : ''}. The batch was rolled back.`;
  return new MemoryError('invalid_input', message, { details, content: [text, ...hints] });
}

/**
 * Every durable table needs a `subject` column, so erasure by subject reaches every row about a person (I9).
 * Checked on the table as SQLite built it (CREATE … AS SELECT, ALTER … DROP COLUMN), not on the SQL text.
 */
function checkSubjects(ws: OpenWorkspace, tables: string[], index: number, total: number): void {
  for (const table of tables) {
    const exists = ws.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table);
    if (exists === undefined) continue;
    const cols = ws.db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[];
    if (cols.some((c) => c.name.toLowerCase() === 'subject')) continue;
    ws.db.exec('ROLLBACK TO stmt');
    throw new MemoryError(
      'invalid_input',
      `statement ${index + 1} of ${total} (index ${index}) was refused: table ${table} has no subject column. Add ` +
        '`subject TEXT` (who or what the row is about, e.g. person:alice@example.com; NULL for rows about nobody): ' +
        'erasure by subject must reach every row about a person. The batch was rolled back.',
      { details: { statement: index, rule: 'subject-column' }, content: [table] },
    );
  }
}

export function mount(ws: OpenWorkspace, mounts: readonly MountData[]): void {
  for (const m of mounts) {
    const cols = m.columns.map((c) => `"${c.name}" ${c.type}`).join(', ');
    ws.db.exec(`CREATE TEMP TABLE "${m.name}" (${cols})`);
    if (m.rows.length === 0) continue;
    const insert = ws.db.prepare(
      `INSERT INTO temp."${m.name}" VALUES (${m.columns.map(() => '?').join(', ')})`,
    );
    for (const row of m.rows) insert.run(...row);
  }
}

/** Dropped before COMMIT: the file that is stored holds only what the agent created (I15). */
function unmount(ws: OpenWorkspace, mounts: readonly MountData[]): void {
  for (const m of mounts) ws.db.exec(`DROP TABLE IF EXISTS temp."${m.name}"`);
}

function flushUsage(ws: OpenWorkspace): void {
  if (ws.usage.size === 0) return;
  ws.db.exec(`CREATE TABLE IF NOT EXISTS ${USAGE_TABLE} (name TEXT PRIMARY KEY, used_at INTEGER NOT NULL)`);
  const up = ws.db.prepare(
    `INSERT INTO ${USAGE_TABLE} (name, used_at) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET used_at = excluded.used_at`,
  );
  for (const [name, at] of ws.usage) up.run(name, at);
}

function fileBytes(ws: OpenWorkspace): number {
  const row = ws.db.prepare('PRAGMA page_count').get() as { page_count: number };
  return Number(row.page_count) * ws.pageSize;
}

/** Booleans bind as 1 and 0; names are given without their `:` (`{ who: 'x' }` binds `:who`, `@who`, `$who`). */
function toParams(bindings: Readonly<Record<string, Binding>>): Record<string, Binding> {
  const out: Record<string, Binding> = {};
  for (const [k, v] of Object.entries(bindings))
    out[k.replace(/^[:@$]/, '')] = typeof v === 'boolean' ? (v ? 1 : 0) : v;
  return out;
}
