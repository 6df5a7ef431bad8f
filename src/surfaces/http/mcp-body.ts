/**
 * An MCP POST body checked before the SDK's Streamable HTTP transport sees it: parsed, refused past the
 * request nesting limit, and each message (a batch is an array of them) put through the same message guard
 * as stdio, so a malformed message is answered with its JSON-RPC error and audited rather than called internal.
 */
import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { requestShapeProblem } from '../../model/json.ts';
import { checkMessage, idOf, methodOf, type Refusal, refuse } from '../mcp/message-guard.ts';

/** @example checkMcpBody('{"jsonrpc":"2.0","id":1,"method":"ping","params":[]}') // refused: -32602 for id 1 */
export function checkMcpBody(text: string): { ok: true; body: unknown } | { ok: false; refusal: Refusal } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // The parser's message quotes the input; the answer and the audit keep none of it.
    return refuse(null, ErrorCode.ParseError, 'the request body is not valid JSON');
  }
  const tooDeep = requestShapeProblem(body);
  if (tooDeep !== null) {
    return refuse(idOf(body), ErrorCode.InvalidRequest, `the message ${tooDeep}`, methodOf(body));
  }
  const messages = Array.isArray(body) ? body : [body];
  if (messages.length === 0) return refuse(null, ErrorCode.InvalidRequest, 'an empty batch');
  for (const message of messages) {
    const checked = checkMessage(message);
    if (!checked.ok) return checked;
  }
  return { ok: true, body };
}
