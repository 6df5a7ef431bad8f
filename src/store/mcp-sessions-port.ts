/**
 * The part of the Store port that MCP over Streamable HTTP needs: session records, so any process serving a home
 * can answer any request of a session (a restart or another replica continues it). Kept apart from port.ts:
 * sessions are transport state, not memory.
 */

/** One MCP session: the token it is bound to and who the client said it was at `initialize`. */
export interface McpSessionRow {
  id: string;
  tokenId: string;
  clientName: string | null;
  clientVersion: string | null;
  createdAt: string;
  /** When a request of the session was last served, to a minute or so (not every request writes it). */
  seenAt: string;
}

export interface McpSessionLimits {
  /** Sessions one token keeps at once: opening one more drops that token's least recently seen. */
  perToken: number;
  /** Sessions of any token last seen before this are expired and dropped. */
  staleBefore: string;
}

export interface McpSessionStore {
  /** Records a new session, dropping expired ones and the token's own past its cap; returns the ids dropped. */
  open(row: McpSessionRow, limits: McpSessionLimits): Promise<string[]>;
  get(id: string): Promise<McpSessionRow | null>;
  touch(id: string, at: string): Promise<void>;
  /** Ends a session; false when there was none. */
  close(id: string): Promise<boolean>;
}
