/** Audit previews built by allow-list: enums, booleans, numbers, ids and times pass; free text is reduced to its size. */
import { ID_PATTERN } from '../model/ids.ts';
import { createHmac, createSecretKey } from 'node:crypto';
import { canonicalJson } from './canonical.ts';
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
  'mode',
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

/** A keyed hash: the audit's hashes are HMACs under the home's secret, never plain digests of short text. */
export type Hash = (text: string) => string;

/**
 * HMAC-SHA-256 under a home's hash key (I9). A plain digest of a short argument (a subject, a phone number) is
 * reversed by hashing guesses; a keyed one cannot be tested without the key, which never leaves the home and
 * which erasure replaces.
 */
export function keyedHash(key: Uint8Array): Hash {
  // One key object for every hash: importing raw key bytes on each call cost more than the HMAC itself.
  const secret = createSecretKey(key);
  return (text) => createHmac('sha256', secret).update(text).digest('hex');
}

/** The keyed hash of the canonicalised arguments: lets an auditor match calls with equal inputs, storing neither. */
export const argsHash = (args: unknown, hash: Hash): string => hash(canonicalJson(args ?? null));

/**
 * A preview safe to keep forever: the shape of the call, not its content.
 * @example previewArgs({ body: 'Alice is 42', scope: 'shared' }, hash) // { body: '[text:11]', scope: 'shared' }
 */
export function previewArgs(args: unknown, hash: Hash): unknown {
  return preview(args, undefined, 0, hash);
}

function preview(value: unknown, field: string | undefined, depth: number, hash: Hash): unknown {
  if (value === null || value === undefined || typeof value === 'boolean' || typeof value === 'number')
    return value;
  if (typeof value === 'string') return previewString(value, field, hash);
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((v) => preview(v, field, depth + 1, hash));
    return value.length > MAX_ITEMS ? [...items, `[+${value.length - MAX_ITEMS}]`] : items;
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value).slice(0, MAX_ITEMS)) out[k] = preview(v, k, depth + 1, hash);
    return out;
  }
  return `[${typeof value}]`;
}

function previewString(value: string, field: string | undefined, hash: Hash): string {
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
  // Calls about one subject share a tag while the key lasts; erasure replaces the key and the tags go dark.
  if (field === 'subject' || field === 'subjects') return `[subject:${hash(value).slice(0, 12)}]`;
  return `[text:${value.length}]`;
}
