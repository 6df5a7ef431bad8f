/** Fingerprints: what makes two writes "the same claim" across sessions, agents and sources (I5). */
import { canonicalJson, normaliseText, sha256Hex } from './canonical.ts';

export interface ClaimParts {
  scope: string;
  key: string | null;
  kind: string;
  body: string;
  value: unknown;
}

/**
 * A hash of (scope, key or kind, normalised body, canonical value). Provenance is deliberately left out:
 * the same claim from another session, agent or connector has the same fingerprint, so a rejection stands.
 */
export function fingerprint(claim: ClaimParts): string {
  const slot = claim.key === null ? `kind:${claim.kind}` : `key:${claim.key.toLowerCase()}`;
  const value = claim.value === undefined || claim.value === null ? '' : canonicalJson(claim.value);
  return sha256Hex(`${claim.scope}\u0000${slot}\u0000${normaliseText(claim.body)}\u0000${value}`);
}
