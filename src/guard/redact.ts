/** Audit previews built by allow-list: enums, booleans, numbers, ids and times pass; free text is reduced to its size. */
import { ID_PATTERN } from '../model/ids.ts';
import { canonicalJson, sha256Hex } from './canonical.ts';
import { containsSecret } from './secrets.ts';

// Fields whose values are vocabulary or identifiers, never memory content.
const PASS_FIELDS = new Set([
  'kind',
  'kinds',
  'scope',
  'scopes',
  'state',
  'states',
  'limit',
  'offset',
  'asOf',
  'validAt',
  'validFrom',
  'validTo',
  'confidence',
  'includeInactive',
  'format',
  'budget',
  'surface',
  'action',
  'name',
  'role',
  'roles',
  'grants',
]);
const MAX_DEPTH = 4;
const MAX_ITEMS = 20;

/** SHA-256 of the canonicalised arguments: lets an auditor match a call to its inputs without storing them. */
export const argsHash = (args: unknown): string => sha256Hex(canonicalJson(args ?? null));

/**
 * A preview safe to keep forever: the shape of the call, not its content.
 * @example previewArgs({ body: 'Alice is 42', scope: 'shared' }) // { body: '[text:11]', scope: 'shared' }
 */
export function previewArgs(args: unknown): unknown {
  return preview(args, undefined, 0);
}

function preview(value: unknown, field: string | undefined, depth: number): unknown {
  if (value === null || value === undefined || typeof value === 'boolean' || typeof value === 'number')
    return value;
  if (typeof value === 'string') return previewString(value, field);
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => preview(v, field, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `[+${value.length - MAX_ITEMS}]`] : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS)) out[k] = preview(v, k, depth + 1);
    return out;
  }
  return `[${typeof value}]`;
}

function previewString(value: string, field: string | undefined): string {
  if (ID_PATTERN.test(value)) return value;
  // A vocabulary field passes only when it looks like vocabulary: a token in `scope` (which zod refuses, but
  // the refused call is audited with its arguments) is reduced like free text, so audit.db never holds it (I10).
  if (
    field !== undefined &&
    PASS_FIELDS.has(field) &&
    value.length <= 140 &&
    /^[\w.:@*{}+/-]*$/.test(value) &&
    !containsSecret(value)
  )
    return value;
  if (field === 'subject' || field === 'subjects') return `[subject:${sha256Hex(value).slice(0, 12)}]`;
  return `[text:${value.length}]`;
}
