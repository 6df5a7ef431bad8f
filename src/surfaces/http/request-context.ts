/**
 * The call context of one HTTP request (I14): the route, the token, the client from User-Agent, and the run
 * and session ids a caller passes in `X-Memledger-Run-Id` / `X-Memledger-Session-Id`. Never from the body.
 */
import type { CallContext } from '../../model/context.ts';

const ID = /^[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,127}$/;

export function httpCallContext(headers: Headers, tool: string, tokenId?: string): CallContext {
  const ctx: CallContext = { surface: 'http', tool };
  if (tokenId !== undefined) ctx.tokenId = tokenId;
  const runId = headers.get('x-memledger-run-id');
  const sessionId = headers.get('x-memledger-session-id');
  if (runId !== null && ID.test(runId)) ctx.runId = runId;
  if (sessionId !== null && ID.test(sessionId)) ctx.sessionId = sessionId;
  const agent = headers
    .get('user-agent')
    ?.replace(/[^\x20-\x7e]/g, '')
    .trim()
    .slice(0, 100);
  if (agent !== undefined && agent !== '') ctx.client = agent;
  return ctx;
}

/** The secret of an `Authorization: Bearer ...` header, or undefined when there is none. */
export function bearerSecret(headers: Headers): string | undefined {
  const value = headers.get('authorization');
  if (value === null) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(value);
  return match?.[1] ?? value;
}
