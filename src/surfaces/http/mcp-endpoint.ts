/**
 * `/mcp`: the MCP server over Streamable HTTP. Each `initialize` opens a session bound to the token that sent
 * it; a request for a session from another token is answered as if the session did not exist.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { VerifiedToken } from '../../auth/token-store.ts';
import type { Ledger } from '../../index.ts';
import { createMcpServer } from '../mcp/server.ts';

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  tokenId: string;
  lastSeen: number;
}

export interface McpSessionOptions {
  /** Sessions kept at once; the least recently used is closed to make room. */
  maxSessions?: number;
  /** A session unused this long is closed when the next one opens. */
  idleMs?: number;
  /** The project the tools' reads default to (`serve --project`); default: the server's working directory's. */
  project?: string;
}

export class McpSessions {
  readonly #ledger: Ledger;
  readonly #sessions = new Map<string, Session>();
  readonly #max: number;
  readonly #idleMs: number;
  readonly #project: string | undefined;

  constructor(ledger: Ledger, options: McpSessionOptions = {}) {
    this.#ledger = ledger;
    this.#max = options.maxSessions ?? 500;
    this.#idleMs = options.idleMs ?? 60 * 60 * 1000;
    this.#project = options.project;
  }

  get size(): number {
    return this.#sessions.size;
  }

  /** Routes one HTTP request to its session's transport, or opens a session for an `initialize`. */
  async handle(req: Request, identity: VerifiedToken, parsedBody: unknown): Promise<Response> {
    const sessionId = req.headers.get('mcp-session-id');
    if (sessionId !== null) {
      const session = this.#sessions.get(sessionId);
      if (session === undefined || session.tokenId !== identity.tokenId) {
        return rpcError(404, -32001, 'Session not found: initialize a new session');
      }
      session.lastSeen = Date.now();
      return session.transport.handleRequest(req, { parsedBody });
    }
    const initializing = Array.isArray(parsedBody)
      ? parsedBody.some((m) => isInitializeRequest(m))
      : isInitializeRequest(parsedBody);
    if (req.method !== 'POST' || !initializing) {
      return rpcError(400, -32000, 'Bad Request: send initialize first, then the mcp-session-id it returns');
    }
    await this.#makeRoom();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        this.#sessions.set(id, { transport, tokenId: identity.tokenId, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => {
        this.#sessions.delete(id);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId !== undefined) this.#sessions.delete(transport.sessionId);
    };
    const server = createMcpServer({
      ledger: this.#ledger,
      identity: () => identity,
      project: this.#project,
    });
    await server.connect(transport);
    return transport.handleRequest(req, { parsedBody });
  }

  async close(): Promise<void> {
    const open = [...this.#sessions.values()];
    this.#sessions.clear();
    await Promise.allSettled(open.map((s) => s.transport.close()));
  }

  async #makeRoom(): Promise<void> {
    const now = Date.now();
    const stale: Session[] = [];
    for (const [id, s] of this.#sessions) {
      if (now - s.lastSeen > this.#idleMs) {
        stale.push(s);
        this.#sessions.delete(id);
      }
    }
    while (this.#sessions.size >= this.#max) {
      const oldest = [...this.#sessions.entries()].sort((a, b) => a[1].lastSeen - b[1].lastSeen)[0]!;
      stale.push(oldest[1]);
      this.#sessions.delete(oldest[0]);
    }
    await Promise.allSettled(stale.map((s) => s.transport.close()));
  }
}

function rpcError(status: number, code: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code, message }, id: null }, { status });
}
