/**
 * The OpenAPI 3.1 document, generated from the route table and the same zod schemas that validate each
 * request (zod's own JSON Schema output; 3.1 schemas are JSON Schema 2020-12).
 */
import { z } from 'zod';
import { ERROR_CLASSES, STATES } from '../../index.ts';
import type { Route } from './routes.ts';

type JsonSchema = Record<string, unknown>;

const errorSchema = z
  .object({ error: z.object({ class: z.enum(ERROR_CLASSES), message: z.string() }) })
  .describe('Every failure: a class from the library and a message for people.');
const writeResultSchema = z
  .object({
    id: z.string(),
    state: z.enum(STATES),
    reason: z.string().optional().describe('Why a write was held or rejected, in words an agent can act on.'),
    supersedes: z.string().nullable().optional(),
    unchanged: z
      .boolean()
      .optional()
      .describe('True when nothing changed: a retract of a memory already retracted.'),
  })
  .describe('The outcome of a write.');

const ERROR_STATUSES: Record<string, string> = {
  '400': 'invalid_input: the request does not validate',
  '401': 'permission: no token, or an unknown or revoked one',
  '403': 'permission: the token is valid but may not do this',
  '404': 'not_found: no such memory, or one outside the read grants',
  '409': 'conflict: the memory is not in a state that allows this, or a race was lost',
  '413': 'invalid_input: the body is larger than the limit',
  '500': 'internal: our fault',
  '502': 'upstream: the storage was busy or unavailable; retry',
};

const WRITE_OPERATIONS = new Set(['remember', 'retract', 'confirm', 'review.approve', 'review.reject']);

export function buildOpenApi(
  routes: readonly Route[],
  info: { version: string; maxBodyBytes: number },
): JsonSchema {
  const schemas: Record<string, JsonSchema> = {
    Error: toSchema(errorSchema, 'Error', {}),
    WriteResult: toSchema(writeResultSchema, 'WriteResult', {}),
  };
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const name = pascal(r.operation);
    const parameters: JsonSchema[] = [];
    if (r.path.includes(':id')) {
      parameters.push({
        name: 'id',
        in: 'path',
        required: true,
        schema: { type: 'string', pattern: '^mem_[0-9a-hjkmnp-tv-z]{22}$' },
      });
    }
    if (r.query !== undefined) {
      const q = toSchema(r.query, `${name}Query`, schemas);
      const required = new Set((q.required as string[] | undefined) ?? []);
      for (const [param, schema] of Object.entries((q.properties ?? {}) as Record<string, JsonSchema>)) {
        parameters.push({ name: param, in: 'query', required: required.has(param), schema, explode: true });
      }
    }
    const op: Record<string, unknown> = {
      operationId: r.operation.replace('.', '_'),
      summary: r.summary,
      description: `Access: ${r.access}. Audited as \`${r.operation}\`.`,
      security: [{ bearer: [] }],
      parameters,
      responses: {
        [String(r.status)]: success(r, name),
        ...Object.fromEntries(
          Object.keys(ERROR_STATUSES).map((s) => [s, { $ref: `#/components/responses/E${s}` }]),
        ),
      },
    };
    if (r.body !== undefined) {
      schemas[`${name}Body`] = toSchema(r.body, `${name}Body`, schemas);
      op.requestBody = {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}Body` } } },
      };
    }
    paths[openApiPath(r.path)] = { ...paths[openApiPath(r.path)], [r.method.toLowerCase()]: op };
  }
  Object.assign(paths, fixedPaths());
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'memledger HTTP API',
      version: info.version,
      description: `A memory ledger for AI agents. Every request needs a bearer token (\`memledger token create\`) and is audited. Request bodies are limited to ${info.maxBodyBytes} bytes.`,
    },
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'An mlk_ token from `memledger token create`.',
        },
      },
      responses: Object.fromEntries(
        Object.entries(ERROR_STATUSES).map(([s, description]) => [
          `E${s}`,
          {
            description,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
    },
  };
}

/** Hono's `/v1/memories/:id` is OpenAPI's `/v1/memories/{id}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

function success(r: Route, name: string): JsonSchema {
  if (r.produces === 'sse') {
    return {
      description:
        'text/event-stream: `event: pulse` with `{"pending","more","newest"}` at once and on each change; comment lines keep the connection alive.',
      content: { 'text/event-stream': { schema: { type: 'string' } } },
    };
  }
  if (r.produces === 'sqlite') {
    return {
      description: 'A SQLite database file (attachment).',
      content: { 'application/vnd.sqlite3': { schema: { type: 'string', format: 'binary' } } },
    };
  }
  if (r.produces === 'jsonl') {
    return {
      description: 'One JSON document per line: a header, then memories with their events, then rejections.',
      content: { 'application/x-ndjson': { schema: { type: 'string' } } },
    };
  }
  const schema = WRITE_OPERATIONS.has(r.operation)
    ? { $ref: '#/components/schemas/WriteResult' }
    : { type: 'object', description: `The result of ${r.operation}.` };
  return { description: `${name}: ok`, content: { 'application/json': { schema } } };
}

/**
 * zod's JSON Schema for one component. Recursive parts (a JSON `value`) come out as `$defs` with refs relative
 * to the schema; they move to `components/schemas` under the component's name so refs resolve in the document.
 */
function toSchema(schema: z.ZodType, name: string, into: Record<string, JsonSchema>): JsonSchema {
  const {
    $schema: _,
    $defs,
    ...rest
  } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  const rename = (ref: string) =>
    ref.replace(/^#\/\$defs\/(.+)$/, (_m, d: string) => `#/components/schemas/${name}_${d}`);
  const rewrite = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(rewrite);
    if (node !== null && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([k, v]) => [
          k,
          k === '$ref' && typeof v === 'string' ? rename(v) : rewrite(v),
        ]),
      );
    }
    return node;
  };
  for (const [d, def] of Object.entries(($defs ?? {}) as Record<string, unknown>)) {
    into[`${name}_${d}`] = rewrite(def) as JsonSchema;
  }
  return rewrite(rest) as JsonSchema;
}

const pascal = (operation: string): string =>
  operation
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

function fixedPaths(): Record<string, Record<string, unknown>> {
  const mcp = (summary: string) => ({
    summary,
    description:
      'MCP Streamable HTTP transport (JSON-RPC). Sessions are bound to the token that opened them.',
    security: [{ bearer: [] }],
    responses: {
      '200': { description: 'A JSON-RPC response (or an SSE stream for GET).' },
      '401': { $ref: '#/components/responses/E401' },
    },
  });
  return {
    '/mcp': {
      post: mcp('Send MCP JSON-RPC messages (initialize opens a session)'),
      get: mcp('Open the server-to-client stream of a session'),
      delete: mcp('Close a session'),
    },
    '/v1/slack/interactions': {
      post: {
        summary: "Slack's Approve / Reject button presses, judged through the review verdicts (src/notify)",
        description:
          "Signed by Slack's signing secret (X-Slack-Signature, X-Slack-Request-Timestamp), not a bearer token; form-encoded `payload`.",
        security: [],
        responses: {
          '200': { description: 'Judged; the card is replaced through its response_url.' },
          '401': { $ref: '#/components/responses/E401' },
        },
      },
    },
    '/healthz': {
      get: {
        summary: 'Liveness: the server is up and its stores are open',
        security: [],
        responses: {
          '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } },
        },
      },
    },
    '/openapi.json': {
      get: {
        summary: 'This document',
        security: [],
        responses: {
          '200': {
            description: 'OpenAPI 3.1',
            content: { 'application/json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  };
}
