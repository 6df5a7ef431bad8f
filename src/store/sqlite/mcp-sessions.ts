/** MCP sessions on SQLite (the `mcp_sessions` table of migration 9), statements prepared once per connection. */
import type { DatabaseSync } from 'node:sqlite';
import type { McpSessionLimits, McpSessionRow, McpSessionStore } from '../mcp-sessions-port.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;
/** The store's write transaction (BEGIN IMMEDIATE), so two processes opening sessions of one token serialise. */
type Write = <T>(fn: () => T) => Promise<T>;

interface SessionDbRow {
  id: string;
  token_id: string;
  client_name: string | null;
  client_version: string | null;
  created_at: string;
  seen_at: string;
}

export class SqliteMcpSessionStore implements McpSessionStore {
  readonly #sql: ReturnType<typeof prepare>;
  readonly #serial: Serial;
  readonly #write: Write;

  constructor(db: DatabaseSync, serial: Serial, write: Write) {
    this.#sql = prepare(db);
    this.#serial = serial;
    this.#write = write;
  }

  open(row: McpSessionRow, limits: McpSessionLimits): Promise<string[]> {
    return this.#write(() => {
      const sql = this.#sql;
      const dropped = (sql.stale.all(limits.staleBefore) as { id: string }[]).map((r) => r.id);
      sql.dropStale.run(limits.staleBefore);
      // Only this token's own sessions make room for it: one client opening many never ends another's.
      const over = (sql.countFor.get(row.tokenId) as { n: number }).n - (limits.perToken - 1);
      if (over > 0) {
        for (const r of sql.oldestFor.all(row.tokenId, over) as { id: string }[]) {
          sql.drop.run(r.id);
          dropped.push(r.id);
        }
      }
      sql.insert.run(row.id, row.tokenId, row.clientName, row.clientVersion, row.createdAt, row.seenAt);
      return dropped;
    });
  }

  get(id: string): Promise<McpSessionRow | null> {
    return this.#serial(async () => {
      const r = this.#sql.get.get(id) as SessionDbRow | undefined;
      return r === undefined ? null : toRow(r);
    });
  }

  touch(id: string, at: string): Promise<void> {
    return this.#write(() => {
      this.#sql.touch.run(at, id);
    });
  }

  close(id: string): Promise<boolean> {
    return this.#write(() => Number(this.#sql.drop.run(id).changes) > 0);
  }
}

function prepare(db: DatabaseSync) {
  const p = (sql: string) => db.prepare(sql);
  return {
    insert: p(
      `INSERT INTO mcp_sessions (id, token_id, client_name, client_version, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?)`,
    ),
    get: p(
      `SELECT id, token_id, client_name, client_version, created_at, seen_at FROM mcp_sessions WHERE id = ?`,
    ),
    touch: p(`UPDATE mcp_sessions SET seen_at = ? WHERE id = ?`),
    drop: p(`DELETE FROM mcp_sessions WHERE id = ?`),
    stale: p(`SELECT id FROM mcp_sessions WHERE seen_at < ?`),
    dropStale: p(`DELETE FROM mcp_sessions WHERE seen_at < ?`),
    countFor: p(`SELECT count(*) AS n FROM mcp_sessions WHERE token_id = ?`),
    oldestFor: p(`SELECT id FROM mcp_sessions WHERE token_id = ? ORDER BY seen_at, created_at LIMIT ?`),
  };
}

const toRow = (r: SessionDbRow): McpSessionRow => ({
  id: r.id,
  tokenId: r.token_id,
  clientName: r.client_name,
  clientVersion: r.client_version,
  createdAt: r.created_at,
  seenAt: r.seen_at,
});
