/** API token secrets: generated once, shown once, kept only as a SHA-256 hash with a short display prefix. */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** `mlk_` and 32 random bytes in base64url (43 characters). The guard's `memledger-token` detector knows this shape. */
export const TOKEN_PATTERN = /^mlk_[A-Za-z0-9_-]{43}$/;
const PREFIX_LENGTH = 12; // `mlk_` and 8 characters: enough to tell tokens apart in a list, far too few to guess from

export interface NewSecret {
  secret: string;
  hash: string;
  prefix: string;
}

export function newSecret(): NewSecret {
  const secret = `mlk_${randomBytes(32).toString('base64url')}`;
  return { secret, hash: hashSecret(secret), prefix: displayPrefix(secret) };
}

export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const displayPrefix = (secret: string): string => secret.slice(0, PREFIX_LENGTH);

/** Compares two hex digests in constant time, so a near miss takes as long as a far one. */
export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && x.length > 0 && timingSafeEqual(x, y);
}
