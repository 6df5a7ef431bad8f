/** Canonical forms: JSON with sorted keys, and text normalised so that trivially different bodies compare equal. */
import { createHash } from 'node:crypto';
import { skeleton, stripInvisible } from './skeleton.ts';

/**
 * JSON with object keys sorted at every depth, so equal values serialise to equal strings. Iterative, so any
 * depth works: it hashes the audit's arguments before they are validated, and a stack overflow there once
 * left a refused call without its audit record. A cycle throws a TypeError, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const open = new Set<object>();
  // Work is done last-in first-out: values to write, literal text, and the end of a container (to leave `open`).
  const work: Work[] = [{ value }];
  while (work.length > 0) {
    const next = work.pop()!;
    if (typeof next === 'string') out.push(next);
    else if ('leave' in next) open.delete(next.leave);
    else writeValue(next.value, work, out, open);
  }
  return out.join('');
}

type Work = { value: unknown } | string | { leave: object };

/** One step, with the output of `JSON.stringify` on a copy whose keys were inserted in sorted order. */
function writeValue(value: unknown, work: Work[], out: string[], open: Set<object>): void {
  if (value === null || typeof value !== 'object') {
    // undefined, functions and symbols give null (a top-level value or an array slot; object keys skip them).
    // A bigint throws, as in JSON.stringify.
    out.push(JSON.stringify(value) ?? 'null');
    return;
  }
  if (open.has(value)) throw new TypeError('Converting circular structure to JSON');
  open.add(value);
  work.push({ leave: value });
  if (Array.isArray(value)) {
    out.push('[');
    work.push(']');
    for (let i = value.length - 1; i >= 0; i--) {
      const v: unknown = value[i];
      const comma = i > 0 ? ',' : '';
      // A scalar is written as text at once; only containers wait as work (most values are scalars).
      if (v === null || typeof v !== 'object') work.push(`${comma}${JSON.stringify(v) ?? 'null'}`);
      else work.push({ value: v }, comma);
    }
    return;
  }
  out.push('{');
  work.push('}');
  const keys = sortedKeys(value as Record<string, unknown>);
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    const v = (value as Record<string, unknown>)[key];
    const prefix = `${i > 0 ? ',' : ''}${JSON.stringify(key)}:`;
    if (v === null || typeof v !== 'object') work.push(`${prefix}${JSON.stringify(v)}`);
    else work.push({ value: v }, prefix);
  }
}

/**
 * The keys the sorted copy would serialise, in its order: sorted, then integer-like keys first in numeric
 * order (how objects enumerate), without undefined, function and symbol values (JSON.stringify leaves those
 * out) and without `__proto__` (assigning it to a plain object sets the prototype rather than a key).
 * Fingerprints of stored memories depend on this being exactly the earlier recursive form.
 */
function sortedKeys(value: Record<string, unknown>): string[] {
  const ordered: Record<string, true> = {};
  for (const k of Object.keys(value).sort()) {
    const v = value[k];
    if (k === '__proto__' || v === undefined || typeof v === 'function' || typeof v === 'symbol') continue;
    ordered[k] = true;
  }
  return Object.keys(ordered);
}

/** Case-folded, accent-stripped, punctuation-insensitive text: "The plan is  PRO." ≡ "the plan is pro". */
export function normaliseText(text: string): string {
  // Printable ASCII has no marks and decomposes to itself, and its only letters and digits are [a-z0-9] once
  // lower-cased: the same result as below, without the Unicode passes (every write fingerprints its body).
  if (PRINTABLE_ASCII.test(text))
    return text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, ' ')
      .trim();
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * A claim's text as a reader sees it (I5): `normaliseText` of its skeleton, so invisible characters inside a
 * word and look-alike letters from other scripts compare equal to the plain Latin text. Identity only: search
 * keeps `normaliseText`, which leaves other scripts as they are, so a Cyrillic query still matches Cyrillic text.
 */
export function claimText(text: string): string {
  if (PRINTABLE_ASCII.test(text)) return normaliseText(text);
  // Punctuation becomes space before the skeleton, which maps some of it onto letters (an em dash onto a
  // Katakana mark); invisible characters go first, or they would split the word they hide in.
  const plain = stripInvisible(text.normalize('NFKC')).replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ');
  return normaliseText(skeleton(plain));
}

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
