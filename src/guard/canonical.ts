/** Canonical forms: JSON with sorted keys, and text normalised so that trivially different bodies compare equal. */
import { createHash } from 'node:crypto';

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

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');
