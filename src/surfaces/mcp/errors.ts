/** The one mapping from a library failure to an MCP tool result: `isError` and "<class>: <message>". */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { asMemoryError } from '../../model/errors.ts';

/**
 * A failure the agent should read and correct (bad arguments, a scope it may not touch, a missing id) is a
 * tool result, not a protocol error, so the model sees it. Protocol problems stay JSON-RPC errors in the SDK.
 */
export function toolError(error: unknown): CallToolResult {
  const e = asMemoryError(error);
  return {
    isError: true,
    content: [{ type: 'text', text: `${e.class}: ${e.message}` }],
    structuredContent: { error: { class: e.class, message: e.message } },
  };
}
