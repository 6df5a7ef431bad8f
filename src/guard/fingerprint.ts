/**
 * Claim identity (I5): what makes two writes "the same claim" across sessions, agents, sources and spellings.
 * A claim is what it says in its scope: its text as a reader sees it (NFKC, invisible characters removed,
 * look-alike letters folded to Latin, case, spacing and punctuation folded). Kind and key do not change what a
 * claim says, so neither is part of it. A keyed claim with a structured value is also identified by
 * (scope, key, value), so rewording the body around a rejected value does not make it new either.
 */
import { canonicalJson, claimText, sha256Hex } from './canonical.ts';

export interface ClaimParts {
  scope: string;
  key: string | null;
  body: string;
  value: unknown;
}

export interface ClaimIdentity {
  /** The text identity: (scope, the body as a reader sees it). Every claim has one. */
  text: string;
  /** The value identity: (scope, key folded, canonical value), for a keyed claim with a value; else null. */
  value: string | null;
}

/** Both identities of a claim. Provenance is left out: the same claim from anyone has the same identity. */
export function claimIdentity(claim: ClaimParts): ClaimIdentity {
  return { text: fingerprint(claim), value: valueFingerprint(claim) };
}

/** The text identity: what `memories.fingerprint` holds, what corroboration and rejections compare. */
export function fingerprint(claim: Pick<ClaimParts, 'scope' | 'body'>): string {
  return sha256Hex(`claim/2\u0000${claim.scope}\u0000${claimText(claim.body)}`);
}

/** The value identity, in its own hash domain so it can never equal a text identity. */
export function valueFingerprint(claim: Pick<ClaimParts, 'scope' | 'key' | 'value'>): string | null {
  if (claim.key === null || claim.value === null || claim.value === undefined) return null;
  return sha256Hex(
    `value/2\u0000${claim.scope}\u0000${foldKey(claim.key)}\u0000${canonicalValue(claim.value)}`,
  );
}

/** Keys are case-insensitive slots: stored as written, compared folded (`ACME.Plan` is `acme.plan`). */
export const foldKey = (key: string): string => key.toLowerCase();

/** A value with sorted object keys and every string leaf in its claim form, so `"Free"` and `"free "` agree. */
export function canonicalValue(value: unknown): string {
  return canonicalJson(foldStrings(value, 0));
}

function foldStrings(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return claimText(value);
  if (depth > 64 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => foldStrings(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = foldStrings(v, depth + 1);
  return out;
}
