/**
 * `/mcp`: the MCP server over Streamable HTTP, answerable by any process serving the home.
 *
 * Why session records in the store rather than sessions in memory or no sessions at all: what a session holds
 * that matters lives in the store already (what `get_context` showed it, keyed on the session id; the audit and
 * provenance that carry it), so the only thing a process kept to itself was the SDK transport, and with it a
 * process restart, an eviction or a second replica stranded the client on 404 for good. Fully stateless MCP
 * (no session id) would lose the suppression for every client that does not name its own session. A
 * self-verifying id (an HMAC over token and nonce) would survive restarts too, but could not be ended by DELETE
 * nor capped per token, and every request would forget the client's name from `initialize`. So a session is a
 * row in memory.db (migration 9): issued at `initialize`, bound to the token, looked up on every request by
 * whichever process gets it, ended by DELETE. Each request is served by an SDK `Server` on a stateless
 * transport of its own, told the session id and client it belongs to. The server is kept idle for the
 * session's next request in this process (a cache, never the truth: the store is asked first every time),
 * because building one (the tool list and its JSON schemas) cost about 4 ms, more than the call itself.
 *
 * - `initialize` always opens a fresh session, whatever session id it carries (never 404: that id may be stale).
 * - A session id that does not exist, expired, was ended or belongs to another token is answered 404 alike.
 * - Caps are per token: one token opening many sessions ends only its own least recently used ones.
 * - GET (the server-to-client SSE stream) is 405: this server sends nothing unprompted, as the spec allows.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { VerifiedToken } from '../../auth/token-store.ts';
import type { Ledger } from '../../index.ts';
import type { McpSessionRow } from '../../store/mcp-sessions-port.ts';
import { createMcpServer } from '../mcp/server.ts';

export interface McpSessionOptions {
  /** Sessions one token keeps at once; opening one more ends that token's least recently used. Default 100. */
  maxSessionsPerToken?: number;
  /** A session unused this long has expired. Default 7 days: a client left open overnight keeps its session. */
  idleMs?: number;
  /** The project the tools' reads default to (`serve --project`); default: the server's working directory's. */
  project?: string;
}

/** How stale a session's `seen_at` may get before a request writes it again: most requests write nothing. */
const TOUCH_EVERY_MS = 60_000;
const SESSION_ID = /^[\x21-\x7e]{1,128}$/;
/** Idle servers kept per process, one per session at most, the least recently used dropped first. */
const IDLE_SERVERS = 256;

/** A server between two requests of its session; `identity` is the one the current request's token verified. */
interface Pooled {
  server: Server;
  identity: VerifiedToken;
}

export class McpSessions {
  readonly #ledger: Ledger;
  readonly #perToken: number;
  readonly #idleMs: number;
  readonly #project: string | undefined;
  readonly #idle = new Map<string, Pooled>();

  constructor(ledger: Ledger, options: McpSessionOptions = {}) {
    this.#ledger = ledger;
    this.#perToken = Math.max(1, options.maxSessionsPerToken ?? 100);
    this.#idleMs = options.idleMs ?? 7 * 24 * 60 * 60 * 1000;
    this.#project = options.project;
  }

  /** Answers one HTTP request of `/mcp`: opens a session for an `initialize`, else serves the session it names. */
  async handle(req: Request, identity: VerifiedToken, parsedBody: unknown): Promise<Response> {
    if (req.method === 'GET') {
      return rpcError(405, -32000, 'Method not allowed: this server offers no SSE stream', {
        allow: 'POST, DELETE',
      });
    }
    if (req.method !== 'POST' && req.method !== 'DELETE') {
      return rpcError(405, -32000, 'Method not allowed', { allow: 'POST, DELETE' });
    }
    const messages = req.method === 'POST' ? (Array.isArray(parsedBody) ? parsedBody : [parsedBody]) : [];
    const initializing = messages.filter((m) => isInitializeRequest(m));
    if (initializing.length > 0) {
      if (messages.length > 1) {
        return rpcError(400, -32600, 'Invalid Request: Only one initialization request is allowed');
      }
      return this.#initialize(req, identity, parsedBody, initializing[0]!.params.clientInfo);
    }
    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId === null) {
      return rpcError(400, -32000, 'Bad Request: send initialize first, then the mcp-session-id it returns');
    }
    const session = await this.#find(sessionId, identity);
    if (session === null) return rpcError(404, -32001, 'Session not found: initialize a new session');
    if (req.method === 'DELETE') {
      this.#idle.delete(session.id);
      await this.#ledger.mcpSessions.close(session.id);
      return new Response(null, { status: 200 });
    }
    const now = Date.now();
    if (now - Date.parse(session.seenAt) > TOUCH_EVERY_MS) {
      await this.#ledger.mcpSessions.touch(session.id, new Date(now).toISOString());
    }
    return this.#serve(req, identity, parsedBody, session);
  }

  /** Drops the idle servers: no request outlives its answer, and sessions live in the store. */
  async close(): Promise<void> {
    this.#idle.clear();
  }

  async #initialize(
    req: Request,
    identity: VerifiedToken,
    parsedBody: unknown,
    clientInfo: { name?: unknown; version?: unknown },
  ): Promise<Response> {
    const now = new Date();
    const session: McpSessionRow = {
      id: randomUUID(),
      tokenId: identity.tokenId,
      clientName: plain(clientInfo.name),
      clientVersion: plain(clientInfo.version),
      createdAt: now.toISOString(),
      seenAt: now.toISOString(),
    };
    const dropped = await this.#ledger.mcpSessions.open(session, {
      perToken: this.#perToken,
      staleBefore: new Date(now.getTime() - this.#idleMs).toISOString(),
    });
    for (const id of dropped) this.#idle.delete(id);
    const res = await this.#serve(req, identity, parsedBody, session);
    if (res.status >= 400) {
      await this.#ledger.mcpSessions.close(session.id);
      return res;
    }
    const headers = new Headers(res.headers);
    headers.set('mcp-session-id', session.id);
    return new Response(res.body, { status: res.status, headers });
  }

  /** The session if it exists, is live and is this token's; null alike for every other case, so none is told apart. */
  async #find(id: string, identity: VerifiedToken): Promise<McpSessionRow | null> {
    if (!SESSION_ID.test(id)) return null;
    const session = await this.#ledger.mcpSessions.get(id);
    if (session === null || session.tokenId !== identity.tokenId) return null;
    if (Date.now() - Date.parse(session.seenAt) > this.#idleMs) return null;
    return session;
  }

  /** One request on a stateless transport of its own, served by the session's idle server or a new one. */
  async #serve(
    req: Request,
    identity: VerifiedToken,
    parsedBody: unknown,
    session: McpSessionRow,
  ): Promise<Response> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    // Taken out while in use: a second request of the session at the same time gets a server of its own.
    const pooled = this.#idle.get(session.id) ?? this.#newServer(session, identity);
    this.#idle.delete(session.id);
    pooled.identity = identity;
    await pooled.server.connect(transport);
    try {
      return await transport.handleRequest(req, { parsedBody });
    } finally {
      // The answer is whole (JSON, not a stream): the server is free for the session's next request.
      await pooled.server.close();
      if (!this.#idle.has(session.id)) {
        this.#idle.set(session.id, pooled);
        if (this.#idle.size > IDLE_SERVERS) this.#idle.delete(this.#idle.keys().next().value!);
      }
    }
  }

  #newServer(session: McpSessionRow, identity: VerifiedToken): Pooled {
    const clientInfo =
      session.clientName === null
        ? undefined
        : { name: session.clientName, version: session.clientVersion ?? undefined };
    const pooled: Pooled = { identity, server: undefined as unknown as Server };
    pooled.server = createMcpServer({
      ledger: this.#ledger,
      // Read at each call: the token the current request presented, verified by the app for that request.
      identity: () => pooled.identity,
      connectionId: session.id,
      clientInfo,
      project: this.#project,
    });
    return pooled;
  }
}

/** A client's name or version as stored: printable ASCII, capped, or null. */
function plain(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const clean = v.replace(/[^\x20-\x7e]/g, '').slice(0, 100);
  return clean === '' ? null : clean;
}

function rpcError(status: number, code: number, message: string, headers?: Record<string, string>): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status, headers });
}
