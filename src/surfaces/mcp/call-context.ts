/**
 * The call context of one MCP tool call: the MCP session, the client's name and version from `initialize`,
 * and the run and session ids a client passes in the request's `_meta` (I14). Never from tool arguments.
 */
import type { CallContext } from '../../model/context.ts';

/** What the SDK hands a request handler that matters here. */
export interface RequestFacts {
  /** The transport's session id (Streamable HTTP); stdio has none, so the connection's own id stands in. */
  transportSessionId?: string;
  /** `params._meta` of the request, as the client sent it. */
  meta?: Record<string, unknown>;
  clientInfo?: { name?: unknown; version?: unknown };
}

// Ids a client may pass: short and plain, so they are safe in provenance and the audit as they are.
const ID = /^[A-Za-z0-9][A-Za-z0-9._:@+/-]{0,127}$/;

/** Which `_meta` keys carry the run and session ids; the namespaced form wins when both are present. */
const META_KEYS = {
  runId: ['memledger/runId', 'runId'],
  sessionId: ['memledger/sessionId', 'sessionId'],
} as const;

export function mcpCallContext(tool: string, tokenId: string | undefined, facts: RequestFacts): CallContext {
  const ctx: CallContext = { surface: 'mcp', tool };
  const runId = fromMeta(facts.meta, META_KEYS.runId);
  // A session the client names (its conversation) says more than the transport's; the transport's is the fallback.
  const sessionId = fromMeta(facts.meta, META_KEYS.sessionId) ?? facts.transportSessionId;
  const client = clientLabel(facts.clientInfo);
  if (runId !== undefined) ctx.runId = runId;
  if (sessionId !== undefined) ctx.sessionId = sessionId;
  if (client !== undefined) ctx.client = client;
  if (tokenId !== undefined) ctx.tokenId = tokenId;
  return ctx;
}

/** `name/version` from the client's `initialize`, stripped to printable characters and capped. */
export function clientLabel(info: RequestFacts['clientInfo']): string | undefined {
  if (info === undefined || typeof info.name !== 'string') return undefined;
  const clean = (v: string) => v.replace(/[^\x21-\x7e]/g, '').slice(0, 60);
  const name = clean(info.name);
  if (name === '') return undefined;
  const version = typeof info.version === 'string' ? clean(info.version) : '';
  return version === '' ? name : `${name}/${version}`;
}

function fromMeta(meta: Record<string, unknown> | undefined, keys: readonly string[]): string | undefined {
  if (meta === undefined) return undefined;
  for (const key of keys) {
    const value = meta[key];
    if (typeof value === 'string' && ID.test(value)) return value;
  }
  return undefined;
}
