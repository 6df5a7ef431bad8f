/**
 * Migration 9 of memory.db: MCP sessions over Streamable HTTP. A session issued by one `memledger serve` is a row
 * here, so a restarted process or another replica on the same home continues it (the session id keys what
 * `get_context` already showed, and the audit). A row holds the token it is bound to and the client's name and
 * version from `initialize`, never memory content. The index serves the per-token cap (the token's least
 * recently seen sessions first) and the sweep of idle ones. IF NOT EXISTS: a test that rewinds a home's
 * user_version to replay an earlier migration (test/feeds/scopes.test.ts) replays this one over its own table.
 */
import type { Migration } from '../database.ts';

export const MIGRATION_9: Migration = {
  version: 9,
  name: 'mcp sessions',
  sql: `
CREATE TABLE IF NOT EXISTS mcp_sessions (
  id              TEXT PRIMARY KEY,
  token_id        TEXT NOT NULL,
  client_name     TEXT,
  client_version  TEXT,
  created_at      TEXT NOT NULL,
  seen_at         TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS mcp_sessions_token ON mcp_sessions(token_id, seen_at);
CREATE INDEX IF NOT EXISTS mcp_sessions_seen ON mcp_sessions(seen_at);
`,
};
