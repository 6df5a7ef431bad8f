/** Canonical forms: JSON with sorted keys, and text normalised so that trivially different bodies compare equal. */
import { createHash } from 'node:crypto';
import { skeleton, stripInvisible } from './skeleton.ts';

/** JSON with object keys sorted at every depth, so equal values serialise to equal strings. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
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
