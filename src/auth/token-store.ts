/**
 * API tokens (auth.db in the data directory): who a bearer is, as which kind, with which roles and grants.
 * The principal comes from the token, never from a request's arguments (I4, I14).
 */
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { assertNoSecrets } from '../guard/limits.ts';
import { ensureHome, resolveHome } from '../store/sqlite/home.ts';
import { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
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
import { nowIso } from '../model/time.ts';
import { openDatabase, type Migration, type Sync } from '../store/sqlite/database.ts';
import { displayPrefix, hashSecret, newSecret, sameHash, TOKEN_PATTERN } from './secret.ts';

export const AUTH_DB = 'auth.db';

const AUTH_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'api tokens',
    sql: `
CREATE TABLE tokens (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL,
  kind        TEXT NOT NULL CHECK (kind IN ('human','agent','service')),
  roles       TEXT NOT NULL,
  grants      TEXT NOT NULL,
  prefix      TEXT NOT NULL,
  hash        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  created_by  TEXT,
  revoked_at  TEXT
);
CREATE INDEX tokens_prefix ON tokens(prefix);
CREATE TRIGGER tokens_identity_immutable BEFORE UPDATE OF id, name, kind, roles, grants, prefix, hash, created_at ON tokens
BEGIN SELECT RAISE(ABORT, 'a token''s identity never changes; revoke it and create another'); END;
CREATE TRIGGER tokens_no_unrevoke BEFORE UPDATE OF revoked_at ON tokens WHEN OLD.revoked_at IS NOT NULL
BEGIN SELECT RAISE(ABORT, 'a revoked token stays revoked'); END;
`,
  },
];

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

interface TokenRow {
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

/**
 * Opens the token store of a data directory.
 * @example
 * const tokens = openTokenStore('/tmp/mem');
 * const { secret } = tokens.create({ name: 'claude-code', kind: 'agent', grants: ['agent:{self}:rw', 'shared:r'] });
 * tokens.verify(secret).principal // { kind: 'agent', id: 'claude-code', ... }
 */
export function openTokenStore(home?: string, options: { sync?: Sync } = {}): TokenStore {
  const dir = resolveHome(home);
  ensureHome(dir);
  return new TokenStore(openDatabase(join(dir, AUTH_DB), AUTH_MIGRATIONS, options));
}

export class TokenStore {
  readonly #db: DatabaseSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
  }

  /** Creates a token and returns its secret, the only time the secret exists outside the caller. */
  create(input: TokenInput, createdBy?: string): CreatedToken {
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
    const { secret, hash, prefix } = newSecret();
    const id = newId('tok');
    const createdAt = nowIso();
    this.#db
      .prepare(
        `INSERT INTO tokens (id, name, kind, roles, grants, prefix, hash, created_at, created_by)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        id,
        name,
        kind,
        JSON.stringify(roles),
        JSON.stringify(grants),
        prefix,
        hash,
        createdAt,
        createdBy ?? null,
      );
    return { ...info(this.#get(id)!), secret };
  }

  /** Every token, newest first; revoked ones only when asked. */
  list(options: { includeRevoked?: boolean } = {}): TokenInfo[] {
    const rows = this.#db
      .prepare(
        `SELECT * FROM tokens ${options.includeRevoked === true ? '' : 'WHERE revoked_at IS NULL'} ORDER BY created_at DESC, id DESC`,
      )
      .all() as unknown as TokenRow[];
    return rows.map(info);
  }

  /** Revokes a token at once, for every process using this data directory. Revoking twice is harmless. */
  revoke(id: string): TokenInfo {
    const row = this.#get(id);
    if (row === null) throw new MemoryError('not_found', `no token ${String(id).slice(0, 40)}`);
    if (row.revoked_at === null) {
      this.#db
        .prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
        .run(nowIso(), id);
    }
    return info(this.#get(id)!);
  }

  /**
   * The principal a bearer secret stands for. A missing, malformed, unknown or revoked secret is a
   * `permission` failure whose `details.authentication` says which, so HTTP can answer 401 rather than 403.
   */
  verify(secret: string | undefined | null): VerifiedToken {
    if (secret === undefined || secret === null || secret === '') {
      throw authFailure('missing', 'a bearer token is required (Authorization: Bearer mlk_...)');
    }
    if (!TOKEN_PATTERN.test(secret))
      throw authFailure('unknown', 'the bearer token is not a memledger token');
    const hash = hashSecret(secret);
    const candidates = this.#db
      .prepare('SELECT * FROM tokens WHERE prefix = ?')
      .all(displayPrefix(secret)) as unknown as TokenRow[];
    const row = candidates.find((c) => sameHash(c.hash, hash));
    if (row === undefined) throw authFailure('unknown', 'the bearer token is unknown');
    if (row.revoked_at !== null) {
      throw authFailure('revoked', `token ${row.id} was revoked on ${row.revoked_at.slice(0, 10)}`);
    }
    const t = info(row);
    const grants: Grant[] = t.grants.map(parseGrant);
    return { tokenId: row.id, principal: { kind: row.kind, id: row.name, roles: t.roles, grants } };
  }

  /**
   * Whether a token verified earlier still holds: throws the same `permission` failure `verify` would once it
   * was revoked (by any process on this data directory). Long-lived calls, such as an open event stream, ask
   * it as they go, so revoking ends them rather than only the next request.
   */
  assertLive(id: string): void {
    const row = this.#get(id);
    if (row === null) throw authFailure('unknown', 'the bearer token is unknown');
    if (row.revoked_at !== null) {
      throw authFailure('revoked', `token ${row.id} was revoked on ${row.revoked_at.slice(0, 10)}`);
    }
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #get(id: string): TokenRow | null {
    return (this.#db.prepare('SELECT * FROM tokens WHERE id = ?').get(id) as unknown as TokenRow) ?? null;
  }
}

function info(row: TokenRow): TokenInfo {
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
