/** The MCP server on stdin/stdout, as one configured principal. stdout carries only protocol messages. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Ledger } from '../../index.ts';
import { createMcpServer, type McpIdentity } from './server.ts';

export interface StdioOptions {
  ledger: Ledger;
  identity: () => McpIdentity;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  /** Diagnostics; never stdout, which belongs to the protocol. */
  log?: (line: string) => void;
  /** Stops the server (SIGINT, SIGTERM). */
  signal?: AbortSignal;
}

/**
 * Serves until the client closes stdin or `signal` aborts.
 * @example await serveStdio({ ledger, identity: () => ({ principal: ledger.principal('agent:claude-code') }) });
 */
export async function serveStdio(options: StdioOptions): Promise<void> {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const server = createMcpServer({ ledger: options.ledger, identity: options.identity });
  const transport = new StdioServerTransport(stdin as never, stdout as never);
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
