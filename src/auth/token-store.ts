/**
 * API tokens: who a bearer is, as which kind, with which roles and grants. The principal comes from the token,
 * never from a request's arguments (I4, I14). This file is the contract and the rules every backend shares
 * (validation, defaults, what a listing shows, the failures verification reports); `sqlite-token-store.ts`
 * keeps tokens in a data directory's auth.db, `postgres-token-store.ts` in a Postgres database per tenant.
 */
import { z } from 'zod';
import { assertNoSecrets } from '../guard/limits.ts';
import { MemoryError } from '../model/errors.ts';
import {
  formatGrant,
  type Grant,
  parseGrant,
  PRINCIPAL_ID_PATTERN,
  PRINCIPAL_KINDS,
  type Principal,
  type PrincipalKind,
  principalLabel,
  ROLES,
  type Role,
} from '../model/principal.ts';
import { displayPrefix, hashSecret, sameHash, TOKEN_PATTERN } from './secret.ts';

/** Where tokens live. Asynchronous, so the store may be a database server. */
export interface TokenStore {
  /** Creates a token and returns its secret, the only time the secret exists outside the caller. */
  create(input: TokenInput, createdBy?: string): Promise<CreatedToken>;
  /** Every token, newest first; revoked ones only when asked. */
  list(options?: { includeRevoked?: boolean }): Promise<TokenInfo[]>;
  /** Revokes a token at once, for every process using the store. Revoking twice is harmless. */
  revoke(id: string): Promise<TokenInfo>;
  /**
   * The principal a bearer secret stands for. A missing, malformed, unknown or revoked secret is a
   * `permission` failure whose `details.authentication` says which, so HTTP can answer 401 rather than 403.
   */
  verify(secret: string | undefined | null): Promise<VerifiedToken>;
  /**
   * Whether a token verified earlier still holds: throws the same `permission` failure `verify` would once it
   * was revoked (by any process on the store). Long-lived calls, such as an open event stream, ask it as they
   * go, so revoking ends them rather than only the next request.
   */
  assertLive(id: string): Promise<void>;
  close(): Promise<void>;
}

/** Roles and grants a token gets when `create` names none: an agent writes its own scope, others only read. */
const DEFAULT_ROLES: Record<PrincipalKind, Role[]> = {
  agent: ['reader', 'writer'],
  human: ['reader'],
  service: ['reader'],
};
const DEFAULT_GRANTS: Record<PrincipalKind, string[]> = {
  agent: ['agent:{self}:rw'],
  human: [],
  service: [],
};

export const tokenInputSchema = z
  .object({
    name: z
      .string()
      .regex(
        PRINCIPAL_ID_PATTERN,
        'name must start with a letter or digit and hold only letters, digits and . _ @ + -',
      ),
    kind: z.enum(PRINCIPAL_KINDS),
    roles: z.array(z.enum(ROLES)).max(ROLES.length).optional(),
    grants: z.array(z.string().max(200)).max(64).optional(),
  })
  .strict();
export type TokenInput = z.input<typeof tokenInputSchema>;

/** What `list` shows about a token: never the secret or its hash. */
export interface TokenInfo {
  id: string;
  name: string;
  kind: PrincipalKind;
  principal: string;
  roles: Role[];
  grants: string[];
  /** The first characters of the secret, to tell tokens apart. */
  prefix: string;
  createdAt: string;
  createdBy: string | null;
  revokedAt: string | null;
}

export interface CreatedToken extends TokenInfo {
  /** Shown once, at creation; only its hash is stored. */
  secret: string;
}

export interface VerifiedToken {
  principal: Principal;
  tokenId: string;
}

/** A stored token as every backend keeps it: roles and grants as JSON text. */
export interface TokenRow {
  id: string;
  name: string;
  kind: PrincipalKind;
  roles: string;
  grants: string;
  prefix: string;
  hash: string;
  created_at: string;
  created_by: string | null;
  revoked_at: string | null;
}

/** A token request checked and completed with the defaults: what a backend stores, before the secret. */
export interface TokenRequest {
  name: string;
  kind: PrincipalKind;
  roles: Role[];
  grants: string[];
}

/** Checks a `create` input and fills in the defaults; bad input is `invalid_input` and nothing is written. */
export function tokenRequest(input: TokenInput): TokenRequest {
  const parsed = tokenInputSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'token'}: ${i.message}`);
    throw new MemoryError('invalid_input', `invalid token: ${problems.join('; ')}`);
  }
  const { name, kind } = parsed.data;
  // The name becomes the principal id, stamped into provenance; grants name scopes (I10, I14).
  assertNoSecrets({ name, grants: parsed.data.grants });
  const roles = [...new Set(parsed.data.roles ?? DEFAULT_ROLES[kind])];
  const grants = (parsed.data.grants ?? DEFAULT_GRANTS[kind]).map((g) => formatGrant(parseGrant(g)));
  return { name, kind, roles, grants };
}

/** The failure for a secret that cannot be a token at all, before any lookup; undefined if it may be one. */
export function malformedSecret(secret: string | undefined | null): MemoryError | undefined {
  if (secret === undefined || secret === null || secret === '') {
    return authFailure('missing', 'a bearer token is required (Authorization: Bearer mlk_...)');
  }
  if (!TOKEN_PATTERN.test(secret)) return authFailure('unknown', 'the bearer token is not a memledger token');
  return undefined;
}

/** The prefix a backend looks candidates up by; `verifiedAmong` then compares hashes in constant time. */
export const lookupPrefix = displayPrefix;

/** The principal of the candidate whose hash matches `secret`, or the failure to report. */
export function verifiedAmong(secret: string, candidates: readonly TokenRow[]): VerifiedToken {
  const hash = hashSecret(secret);
  const row = candidates.find((c) => sameHash(c.hash, hash));
  if (row === undefined) throw authFailure('unknown', 'the bearer token is unknown');
  assertRowLive(row);
  const t = tokenInfo(row);
  const grants: Grant[] = t.grants.map(parseGrant);
  return { tokenId: row.id, principal: { kind: row.kind, id: row.name, roles: t.roles, grants } };
}

/** Throws what `verify` would for a token that is gone or revoked. */
export function assertRowLive(row: TokenRow | null): void {
  if (row === null) throw authFailure('unknown', 'the bearer token is unknown');
  if (row.revoked_at !== null) {
    throw authFailure('revoked', `token ${row.id} was revoked on ${row.revoked_at.slice(0, 10)}`);
  }
}

export function tokenNotFound(id: string): MemoryError {
  return new MemoryError('not_found', `no token ${String(id).slice(0, 40)}`);
}

export function tokenInfo(row: TokenRow): TokenInfo {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    principal: principalLabel({ kind: row.kind, id: row.name }),
    roles: JSON.parse(row.roles) as Role[],
    grants: JSON.parse(row.grants) as string[],
    prefix: row.prefix,
    createdAt: row.created_at,
    createdBy: row.created_by,
    revokedAt: row.revoked_at,
  };
}

function authFailure(reason: 'missing' | 'unknown' | 'revoked', message: string): MemoryError {
  return new MemoryError('permission', message, { details: { authentication: reason } });
}
