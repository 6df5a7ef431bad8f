/** The MCP surface's two error forms: a library failure as a tool result, and a protocol fault as a JSON-RPC error. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asMemoryError } from '../../model/errors.ts';

/**
 * A failure the agent should read and correct (bad arguments, a scope it may not touch, a missing id) is a
 * tool result, not a protocol error, so the model sees it: `isError` and "<class>: <message>" as text. No
 * structured content: a client validates structured content against the tool's output schema even on an error
 * (the TypeScript SDK's Client does, 1.x), and an error is not the success shape that schema declares.
 */
export function toolError(error: unknown): CallToolResult {
  const e = asMemoryError(error);
  return { isError: true, content: [{ type: 'text', text: `${e.class}: ${e.message}` }] };
}

/**
 * A JSON-RPC error for the SDK to send as it is. Not an `McpError`: its message already reads
 * "MCP error <code>: …", and a client prefixes that again when it rebuilds the error from the wire.
 */
export function rpcError(code: number, message: string): Error & { code: number } {
  return Object.assign(new Error(message), { code });
}
