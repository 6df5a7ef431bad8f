/**
 * The process a behavior's source query runs in: a fresh in-memory SQLite holding only the views it was sent,
 * under a read-only allow-list (SELECT and reads of those views, the workspace's safe functions; no writes, no
 * ATTACH, no pragmas, no transactions). A process, as for workspaces, because a running statement cannot be
 * stopped from JavaScript (see src/workspace/engine-child.ts): the parent kills it at the time limit.
 */
import { constants as c, DatabaseSync } from 'node:sqlite';
import { boundedRows } from '../workspace/bounds.ts';
import { ALLOWED_FUNCTIONS, registerFunctions } from '../workspace/functions.ts';
import type { MountData } from '../workspace/mount-data.ts';

export interface SourceRequest {
  views: MountData[];
  sql: string;
  limits: { maxRows: number; maxResultBytes: number; maxCellChars: number };
}

export type SourceReply =
  | { ok: true; columns: string[]; rows: unknown[][]; truncated: boolean }
  | { ok: false; class: 'permission' | 'invalid_input'; message: string };

/** null allows; a string says why the action is denied. */
function decide(action: number, _a1: string, a2: string, db: string): string | null {
  switch (action) {
    case c.SQLITE_SELECT:
    case c.SQLITE_RECURSIVE:
      return null;
    case c.SQLITE_READ:
      return db === 'main' || db === '' ? null : `reading from database ${db} is not allowed`;
    case c.SQLITE_FUNCTION:
      return ALLOWED_FUNCTIONS.has(a2.toLowerCase())
        ? null
        : `the function ${a2}() is not allowed in a source`;
    case c.SQLITE_PRAGMA:
      return 'pragmas are not allowed in a source';
    case c.SQLITE_ATTACH:
    case c.SQLITE_DETACH:
      return 'ATTACH and DETACH are not allowed in a source';
    default:
      return `a source is read-only: only SELECT is allowed (action ${action} denied)`;
  }
}

function run(req: SourceRequest): SourceReply {
  const db = new DatabaseSync(':memory:', { limits: { attach: 0 }, allowExtension: false, defensive: true });
  for (const v of req.views) {
    db.exec(`CREATE TABLE ${v.name} (${v.columns.map((col) => `${col.name} ${col.type}`).join(', ')})`);
    const insert = db.prepare(`INSERT INTO ${v.name} VALUES (${v.columns.map(() => '?').join(', ')})`);
    for (const row of v.rows) insert.run(...row);
  }
  registerFunctions(db);
  let denial: string | null = null;
  db.setAuthorizer((action, a1, a2, dbName) => {
    const why = decide(action, a1 ?? '', a2 ?? '', dbName ?? '');
    if (why === null) return c.SQLITE_OK;
    denial ??= why;
    return c.SQLITE_DENY;
  });
  try {
    const stmt = db.prepare(req.sql);
    // A statement that prepares may still not be a query (a lone comment, an empty batch tail): refuse it.
    if (stmt.columns().length === 0)
      return { ok: false, class: 'permission', message: 'a source must be a SELECT' };
    const r = boundedRows(stmt, 0, {}, req.sql, req.limits);
    return { ok: true, columns: r.columns, rows: r.rows, truncated: r.truncated };
  } catch (error) {
    if (denial !== null) return { ok: false, class: 'permission', message: denial };
    // SQLite's message names the source's own SQL (a column, a token), never a row's value.
    return { ok: false, class: 'invalid_input', message: String((error as Error).message) };
  } finally {
    db.close();
  }
}

process.once('message', (req: SourceRequest) => {
  let reply: SourceReply;
  try {
    reply = run(req);
  } catch (error) {
    reply = { ok: false, class: 'invalid_input', message: `the source failed: ${(error as Error).message}` };
  }
  process.send?.(reply, () => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
