/** The MCP server on stdin/stdout, as one configured principal. stdout carries only protocol messages. */
import { randomUUID } from 'node:crypto';
import type { Ledger } from '../../index.ts';
import { MemoryError } from '../../model/errors.ts';
import { mcpCallContext } from './call-context.ts';
import type { Refusal } from './message-guard.ts';
import { createMcpServer, type McpIdentity } from './server.ts';
import { GuardedStdioTransport } from './stdio-transport.ts';

export interface StdioOptions {
  ledger: Ledger;
  /** Resolved on every call (a token is verified again each time), and once before serving. */
  identity: () => McpIdentity | Promise<McpIdentity>;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Diagnostics; never stdout, which belongs to the protocol. */
  log?: (line: string) => void;
  /** Stops the server (SIGINT, SIGTERM). */
  signal?: AbortSignal;
  /** The longest message line read; longer ones are refused unread. Default 4 MiB. */
  maxLineBytes?: number;
  /** The project reads default to (`--project`); default: the working directory's. See `McpServerOptions`. */
  project?: string;
}

/**
 * Serves until the client closes stdin or `signal` aborts. A malformed message is answered with a JSON-RPC
 * error, audited as `mcp.request` (I8, I11) and logged, and the server reads on.
 * @example await serveStdio({ ledger, identity: () => ({ principal: ledger.principal('agent:claude-code') }) });
 */
export async function serveStdio(options: StdioOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const connectionId = randomUUID();
  const opened = await options.identity();
  const server = createMcpServer({
    ledger: options.ledger,
    identity: options.identity,
    opened,
    connectionId,
    project: options.project,
  });
  const refused = async (refusal: Refusal) => {
    log(`memledger mcp: refused a message: ${refusal.message}`);
    let identity: McpIdentity | undefined;
    try {
      identity = await options.identity();
    } catch {
      // a revoked token: the refusal is still recorded, as an anonymous caller's
    }
    const facts = { transportSessionId: connectionId, clientInfo: server.getClientVersion() };
    await options.ledger.recordSurfaceCall({
      principal: identity?.principal,
      context: mcpCallContext(refusal.method ?? 'invalid-request', identity?.tokenId, facts),
      operation: 'mcp.request',
      // Only the method is kept: the rest of a refused message is not ours to store.
      args: refusal.method === undefined ? {} : { method: refusal.method },
      error: new MemoryError('invalid_input', refusal.message, { details: { jsonrpcCode: refusal.code } }),
      durationMs: 0,
    });
  };
  const transport = new GuardedStdioTransport(stdin, stdout, {
    maxLineBytes: options.maxLineBytes,
    onRefused: refused,
  });
  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  server.onerror = (error) => log(`memledger mcp: ${error.message}`);
  await server.connect(transport);
  const stop = () => void server.close();
  stdin.once('end', stop);
  stdin.once('close', stop);
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted === true) stop();
  await closed;
}
