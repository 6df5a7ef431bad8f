/**
 * The HTTP API (Hono): bearer tokens, one route per ledger verb from the route table, `/mcp`, `/openapi.json`,
 * `/healthz`, and the web console's files at `/`. Every request to the API or `/mcp`, allowed or refused, leaves
 * an audit record (I8): the ledger writes it for calls that reach a session, `recordSurfaceCall` for those refused
 * before (no token, bad JSON, too large). `/healthz`, `/openapi.json` and the console's files touch no data and
 * are not audited, so a health probe or a page load cannot flood the audit.
 */
import { performance } from 'node:perf_hooks';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { createMiddleware } from 'hono/factory';
import type { TokenStore, VerifiedToken } from '../../auth/token-store.ts';
import type { Ledger } from '../../index.ts';
import { parseInput } from '../../ledger/parse.ts';
import type { Surface } from '../../model/context.ts';
import { asMemoryError, type ErrorClass, MemoryError } from '../../model/errors.ts';
import { parseJsonText } from '../../model/json.ts';
import { refusalResponse } from '../mcp/message-guard.ts';
import { SERVER_VERSION } from '../mcp/server.ts';
import { consoleFiles } from './console.ts';
import { errorBody } from './errors.ts';
import { checkMcpBody } from './mcp-body.ts';
import { type McpSessionOptions, McpSessions } from './mcp-endpoint.ts';
import { buildOpenApi } from './openapi.ts';
import { type AllowList, originCheck, originRefusalError } from './origin-check.ts';
import { readQuery } from './query.ts';
import { bearerSecret, httpCallContext } from './request-context.ts';
import { ROUTES, type Route } from './routes.ts';
import {
  handleSlackInteraction,
  SLACK_INTERACTIONS_PATH,
  type SlackInteractionOptions,
} from '../../notify/slack-interactions.ts';

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;

export interface HttpAppOptions {
  ledger: Ledger;
  tokens: TokenStore;
  /** Larger request bodies are refused with 413 before they are parsed. Default 256 KiB. */
  maxBodyBytes?: number;
  mcp?: McpSessionOptions;
  /** The address the server listens on: names it by are allowed in Host besides loopback's. Default 127.0.0.1. */
  listenHost?: string;
  /** Hosts and origins allowed besides loopback and the listening address. */
  allow?: AllowList;
  /** The built console to serve at `/`; default dist/web of this package. */
  consoleDir?: string;
  /** Slack's interactive requests (src/notify): the environment, clock and response URLs they use. */
  slack?: Omit<SlackInteractionOptions, 'ledger' | 'tokens'>;
}

export interface HttpApp {
  app: Hono<Env>;
  /** The route table the app and its OpenAPI document were built from. */
  routes: readonly Route[];
  /** Closes open MCP sessions; the ledger and token store belong to the caller. */
  close(): Promise<void>;
}

type Env = { Variables: { identity: VerifiedToken; started: number } };

interface Where {
  surface: Surface;
  operation: string;
  tool: string;
}

/**
 * @example
 * const { app } = createHttpApp({ ledger: openLedger({ home }), tokens: openTokenStore(home) });
 * const res = await app.request('/v1/search', { method: 'POST', headers: { authorization: `Bearer ${secret}` }, body: '{"query":"acme"}' });
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const { ledger, tokens } = options;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const sessions = new McpSessions(ledger, options.mcp);
  const document = buildOpenApi(ROUTES, { version: SERVER_VERSION, maxBodyBytes });
  const app = new Hono<Env>();
  const checkOrigin = originCheck({ listenHost: options.listenHost ?? '127.0.0.1', allow: options.allow });

  /** Audits a request refused before it reached a session (I8); the ledger audits everything after. */
  const record = (c: Context<Env>, where: Where, args: unknown, error: unknown, identity?: VerifiedToken) =>
    ledger.recordSurfaceCall({
      principal: identity?.principal,
      context: {
        ...httpCallContext(c.req.raw.headers, where.tool, identity?.tokenId),
        surface: where.surface,
      },
      operation: where.operation,
      args,
      error,
      durationMs: performance.now() - (c.get('started') ?? performance.now()),
    });

  const refuse = async (
    c: Context<Env>,
    where: Where,
    args: unknown,
    error: unknown,
    identity?: VerifiedToken,
  ) => {
    // The record is written before the answer goes out (I8).
    await record(c, where, args, error, identity);
    const { status, body } = errorBody(error);
    if (status === 401) c.header('WWW-Authenticate', 'Bearer realm="memledger"');
    return c.json(body, status);
  };

  const mcpWhere = (c: Context<Env>): Where => ({
    surface: 'mcp',
    operation: 'mcp.request',
    tool: `${c.req.method} /mcp`,
  });

  const authenticate = (where: Where) =>
    createMiddleware<Env>(async (c, next) => {
      c.set('started', performance.now());
      let identity: VerifiedToken;
      try {
        identity = await tokens.verify(bearerSecret(c.req.raw.headers));
      } catch (error) {
        return refuse(c, where, c.req.param(), error);
      }
      c.set('identity', identity);
      await next();
    });

  const limit = (where: Where) => {
    const tooLarge = (c: Context) => {
      // The unread rest of the body makes the connection unusable; tell the client not to reuse it.
      c.header('Connection', 'close');
      return refuse(
        c as Context<Env>,
        where,
        c.req.param(),
        new MemoryError('invalid_input', `the request body is larger than ${maxBodyBytes} bytes`, {
          details: { tooLarge: true, limit: maxBodyBytes },
        }),
        (c as Context<Env>).get('identity'),
      );
    };
    const counting = bodyLimit({ maxSize: maxBodyBytes, onError: tooLarge });
    return createMiddleware<Env>((c, next) => {
      // Hono's bodyLimit asks `c.req.raw.body` first, which makes the node adapter build a whole web Request
      // with a stream over the socket, and the body is then read through that stream: a tenth of the server's
      // CPU per search in a profile under load. A sized body is judged by its Content-Length exactly as
      // bodyLimit judges it (Node's parser reads no more than that), and read directly; a body without one
      // (chunked) is still counted as it streams in. GET and HEAD carry no body.
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
      const length = c.req.header('content-length');
      if (length !== undefined && c.req.header('transfer-encoding') === undefined) {
        return Number.parseInt(length || '0', 10) > maxBodyBytes ? tooLarge(c) : next();
      }
      return counting(c, next);
    });
  };

  // First, for every path: a rebound or foreign-site request is refused before a token check, a route or a
  // console file. /v1 and the console get the check /mcp needs. The console must: served under a rebound name,
  // it would share its origin with the attacker's script, which could read the token a person signs in with.
  // On /v1 a rebound page has no token to send, so there it is defence in depth, and one rule is simpler to
  // state. The console is same-origin, so its own requests pass.
  app.use(async (c, next) => {
    const refusal = checkOrigin(c.req.raw.headers, c.req.url);
    if (refusal === null) return next();
    c.set('started', performance.now());
    let identity: VerifiedToken | undefined;
    try {
      identity = await tokens.verify(bearerSecret(c.req.raw.headers));
    } catch {
      // refused the same way with or without a token
    }
    const error = originRefusalError(refusal);
    if (c.req.path === '/mcp') {
      await record(c, mcpWhere(c), {}, error, identity);
      return c.json({ jsonrpc: '2.0', error: { code: -32000, message: error.message }, id: null }, 403);
    }
    return refuse(
      c,
      { surface: 'http', operation: 'http.request', tool: `${c.req.method} (${refusal} refused)` },
      {},
      error,
      identity,
    );
  });

  app.get('/healthz', (c) => c.json({ ok: true, version: SERVER_VERSION }));
  app.get('/openapi.json', (c) => c.json(document));

  // Slack's button presses: signed by Slack's signing secret, not a bearer token (src/notify/slack-interactions.ts).
  const slackWhere: Where = {
    surface: 'http',
    operation: 'slack.interaction',
    tool: `POST ${SLACK_INTERACTIONS_PATH}`,
  };
  app.post(SLACK_INTERACTIONS_PATH, limit(slackWhere), (c) =>
    handleSlackInteraction(c.req.raw, { ...options.slack, ledger, tokens }),
  );

  for (const r of ROUTES) {
    const where: Where = { surface: 'http', operation: r.operation, tool: `${r.method} ${r.path}` };
    app.on(r.method, r.path, authenticate(where), limit(where), async (c) => {
      const identity = c.get('identity');
      const id = c.req.param('id') ?? '';
      let args: Record<string, unknown> = id === '' ? {} : { id };
      let input: unknown;
      try {
        if (r.body !== undefined) {
          const raw = await readJson(c);
          args = { ...args, ...(isObject(raw) ? raw : { body: raw }) };
          input = parseInput(r.body, raw, `${r.operation} request body`);
        } else if (r.query !== undefined) {
          const query = readQuery(new URL(c.req.url), r.query);
          args = { ...args, ...query };
          input = parseInput(r.query, query, `${r.operation} query`);
        }
      } catch (error) {
        return refuse(c, where, args, error, identity);
      }
      // From here the ledger writes the audit record of the call, allowed or refused.
      const session = ledger.as(
        identity.principal,
        httpCallContext(c.req.raw.headers, where.tool, identity.tokenId),
      );
      try {
        const credential = () => tokens.assertLive(identity.tokenId);
        const result = r.call(session, { id, input, credential });
        if (r.produces === 'sqlite') return download(await (result as Promise<SqliteFile>));
        if (r.produces !== 'json') return await streamLines(result as AsyncIterable<string>, r.produces);
        return c.json(await (result as Promise<unknown>), r.status);
      } catch (error) {
        // The ledger audits every call and hands back every failure as a MemoryError. Anything else got out
        // before its record was written (once: a stack overflow while hashing the arguments), so it is
        // recorded here, as internal.
        if (!(error instanceof MemoryError)) await record(c, where, args, error, identity);
        const { status, body } = errorBody(error);
        return c.json(body, status);
      }
    });
  }

  app.all(
    '/mcp',
    (c, next) => authenticate(mcpWhere(c))(c, next),
    (c, next) => limit(mcpWhere(c))(c, next),
    async (c) => {
      const identity = c.get('identity');
      let body: unknown;
      if (c.req.method === 'POST') {
        const checked = checkMcpBody(await c.req.text());
        if (!checked.ok) {
          const { refusal } = checked;
          const error = new MemoryError('invalid_input', refusal.message, {
            details: { jsonrpcCode: refusal.code },
          });
          await record(
            c,
            mcpWhere(c),
            refusal.method === undefined ? {} : { method: refusal.method },
            error,
            identity,
          );
          return c.json(refusalResponse(refusal), 400);
        }
        body = checked.body;
      }
      const res = await sessions.handle(c.req.raw, identity, body);
      if (res.status >= 400) {
        const error = new MemoryError(classForStatus(res.status), `the MCP transport answered ${res.status}`);
        // Only the JSON-RPC method is kept: the rest of a refused message is not ours to store.
        const method =
          isObject(body) && typeof body.method === 'string' ? body.method.slice(0, 100) : undefined;
        await record(c, mcpWhere(c), method === undefined ? {} : { method }, error, identity);
      }
      return res;
    },
  );

  // Last, so API routes never pass through it: it answers only for console files and client routes.
  app.use(consoleFiles(options.consoleDir));

  app.notFound(async (c) => {
    c.set('started', performance.now());
    let identity: VerifiedToken | undefined;
    try {
      identity = await tokens.verify(bearerSecret(c.req.raw.headers));
    } catch {
      // an unknown route is refused the same way with or without a token
    }
    const where: Where = {
      surface: 'http',
      operation: 'http.unknown_route',
      tool: `${c.req.method} (no route)`,
    };
    return refuse(
      c,
      where,
      { path: c.req.path },
      new MemoryError('not_found', 'no such route; see /openapi.json'),
      identity,
    );
  });

  // A failure no handler caught is ours; it is audited like every request (I8), then answered 500.
  app.onError(async (error, c) => {
    const failure = asMemoryError(error);
    const where: Where = {
      surface: 'http',
      operation: 'http.request',
      tool: `${c.req.method} ${c.req.routePath}`,
    };
    try {
      await record(c, where, {}, failure, c.get('identity'));
    } catch {
      // the audit writer warns on its own failures; the answer still goes out
    }
    const { status, body } = errorBody(failure);
    return c.json(body, status);
  });

  return { app, routes: ROUTES, close: () => sessions.close() };
}

/** The body as JSON, refused as `invalid_input` if it is not JSON or nests deeper than any request may. */
async function readJson(c: Context<Env>): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  return parseJsonText(text, 'the request body');
}

const STREAM_HEADERS: Record<'jsonl' | 'sse', Record<string, string>> = {
  jsonl: { 'content-type': 'application/x-ndjson; charset=utf-8' },
  // no-transform and X-Accel-Buffering: a proxy must pass each event on as it comes, not buffer the stream.
  sse: {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    'x-accel-buffering': 'no',
  },
};

interface SqliteFile {
  name: string;
  bytes: Uint8Array;
}

/** A file the caller asked to download (a workspace export): never cached on the way. */
function download(file: SqliteFile): Response {
  return new Response(file.bytes, {
    status: 200,
    headers: {
      'content-type': 'application/vnd.sqlite3',
      'content-disposition': `attachment; filename="${file.name}"`,
      'cache-control': 'no-store',
    },
  });
}

/** Pulls the first line before answering, so a refusal is a proper status rather than a broken stream. */
async function streamLines(lines: AsyncIterable<string>, produces: 'jsonl' | 'sse'): Promise<Response> {
  const iterator = lines[Symbol.asyncIterator]();
  const first = await iterator.next();
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      if (first.done === true) controller.close();
      else controller.enqueue(encoder.encode(`${first.value}\n`));
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done === true) controller.close();
        else controller.enqueue(encoder.encode(`${next.value}\n`));
      } catch (error) {
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  return new Response(stream, { status: 200, headers: STREAM_HEADERS[produces] });
}

function classForStatus(status: number): ErrorClass {
  if (status === 401 || status === 403) return 'permission';
  if (status === 404) return 'not_found';
  if (status === 409) return 'conflict';
  if (status >= 500) return 'internal';
  return 'invalid_input';
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
