/**
 * JSON-RPC messages from an MCP client, checked before the SDK sees them. The SDK drops a message that fails
 * its schema without a word (the client waits forever) and reports a request whose params fail their method's
 * schema as an internal error; here each is refused with the JSON-RPC code the spec gives it, the request's
 * id when it has one, and a message that names fields but never echoes content. Shared by stdio and /mcp.
 */
import {
  ClientNotificationSchema,
  ClientRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';

export interface Refusal {
  /** The id to answer with: the request's when it has a usable one, else null (the spec's rule for an unreadable id). */
  id: RequestId | null;
  /** False for a notification whose params are wrong and for a malformed response: JSON-RPC answers neither. */
  reply: boolean;
  code: number;
  message: string;
  /** The method, when it is a plain name; the audit keeps it, and nothing else of the message. */
  method?: string;
}

export type Checked = { ok: true; message: JSONRPCMessage } | { ok: false; refusal: Refusal };

/** Each client request and notification the protocol defines, by method, with its params schema. */
const REQUESTS = byMethod(ClientRequestSchema.options);
const NOTIFICATIONS = byMethod(ClientNotificationSchema.options);

/** What the audit may keep of a method or a field name: a plain identifier. */
const PLAIN_NAME = /^[A-Za-z0-9_./$-]{1,100}$/;

/**
 * Checks one parsed message. Requests and notifications of known methods are checked against their method's
 * params schema (unknown methods pass on, to be answered "method not found"); anything else against the
 * JSON-RPC message schema.
 * @example checkMessage({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: 'x' }) // -32600 for id 7
 */
export function checkMessage(raw: unknown): Checked {
  if (Array.isArray(raw)) {
    return refuse(
      null,
      ErrorCode.InvalidRequest,
      'a batch (a JSON array) is not accepted here: send one message at a time',
    );
  }
  if (!isObject(raw)) return refuse(null, ErrorCode.InvalidRequest, 'a JSON-RPC message is a JSON object');
  const hasId = 'id' in raw;
  const id = usableId(raw.id);
  const method = methodOf(raw);
  const no = (code: number, problem: string, reply = true): Checked =>
    refuse(id, code, problem, method, reply);
  if (raw.jsonrpc !== '2.0') return no(ErrorCode.InvalidRequest, 'jsonrpc must be "2.0"');
  if (hasId && id === null) return no(ErrorCode.InvalidRequest, 'id must be a string or an integer');
  if ('method' in raw) {
    if (typeof raw.method !== 'string' || raw.method === '') {
      return no(ErrorCode.InvalidRequest, 'method must be a non-empty string');
    }
    if ('params' in raw) {
      const params = raw.params;
      // JSON-RPC: params is structured (an object or an array); MCP: always an object.
      if (params === null || typeof params !== 'object') {
        return no(ErrorCode.InvalidRequest, 'params must be an object');
      }
      if (Array.isArray(params))
        return no(ErrorCode.InvalidParams, 'params must be an object, not an array', hasId);
      if ('_meta' in params && !isObject((params as Record<string, unknown>)._meta)) {
        return no(ErrorCode.InvalidParams, 'params._meta must be an object', hasId);
      }
    }
    const schema = (hasId ? REQUESTS : NOTIFICATIONS).get(raw.method);
    if (schema !== undefined) {
      const parsed = schema.safeParse({ method: raw.method, params: raw.params });
      if (!parsed.success) {
        const name = method ?? 'this method';
        // One line a person can act on, not the schema's issue list: which field is missing or mistyped.
        const problem =
          raw.params === undefined ? `${name} needs params` : `${name}: ${issues(parsed.error)}`;
        return no(ErrorCode.InvalidParams, problem, hasId);
      }
    }
  } else if (!('result' in raw) && !('error' in raw)) {
    return no(
      ErrorCode.InvalidRequest,
      'a message needs a method (a request or a notification), or a result or an error (a response)',
    );
  }
  const parsed = JSONRPCMessageSchema.safeParse(raw);
  if (!parsed.success) {
    // A response the client sends is not answered, whatever its shape.
    return no(
      ErrorCode.InvalidRequest,
      `not a JSON-RPC 2.0 message: ${issues(parsed.error)}`,
      'method' in raw,
    );
  }
  return { ok: true, message: parsed.data };
}

/** The wire form of a refusal, for transports that write their own answer. */
export function refusalResponse(refusal: Refusal): {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string };
} {
  return { jsonrpc: '2.0', id: refusal.id, error: { code: refusal.code, message: refusal.message } };
}

/** The prefix the JSON-RPC spec names each code by, so a message reads "Invalid params: …". */
const LABELS: Record<number, string> = {
  [ErrorCode.ParseError]: 'Parse error',
  [ErrorCode.InvalidRequest]: 'Invalid Request',
  [ErrorCode.InvalidParams]: 'Invalid params',
};

export function refuse(
  id: RequestId | null,
  code: number,
  problem: string,
  method?: string,
  reply = true,
): { ok: false; refusal: Refusal } {
  const message = `${LABELS[code] ?? 'Error'}: ${problem}`;
  return { ok: false, refusal: { id, reply, code, message, ...(method === undefined ? {} : { method }) } };
}

/** The usable id of a parsed message, if it is an object that has one. */
export const idOf = (raw: unknown): RequestId | null => (isObject(raw) ? usableId(raw.id) : null);

/** The method of a parsed message, if it is a plain name. */
export const methodOf = (raw: unknown): string | undefined =>
  isObject(raw) && typeof raw.method === 'string' && PLAIN_NAME.test(raw.method) ? raw.method : undefined;

function usableId(id: unknown): RequestId | null {
  if (typeof id === 'string') return id.length <= 200 ? id : null;
  return Number.isSafeInteger(id) ? (id as number) : null;
}

/** Up to three issues as `path is required`, `path must be object`, ...; paths keep only plain names. */
function issues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => {
      const path = i.path
        .map((p) => (typeof p === 'number' || PLAIN_NAME.test(String(p)) ? String(p) : '…'))
        .join('.');
      return path === '' ? issueText(i) : `${path} ${issueText(i)}`;
    })
    .join('; ');
}

/** An issue in a few words: an unknown key is counted, never named, since a key can be content. */
function issueText(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys') return `has ${i.keys.length} unknown key(s)`;
  if (i.code === 'invalid_type') {
    return /received undefined$/.test(i.message) ? 'is required' : `must be ${i.expected}`;
  }
  return `is invalid: ${i.message}`;
}

function byMethod(options: readonly z.ZodType[]): Map<string, z.ZodType> {
  const map = new Map<string, z.ZodType>();
  for (const schema of options) {
    const method = (schema as unknown as { shape: { method: { value: unknown } } }).shape.method.value;
    if (typeof method === 'string') map.set(method, schema);
  }
  return map;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
