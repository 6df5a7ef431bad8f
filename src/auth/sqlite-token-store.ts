/** API tokens in a data directory's auth.db (SQLite): the embedded backend of the TokenStore contract. */
import { join } from 'node:path';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { ensureHome, resolveHome } from '../store/sqlite/home.ts';
import { newId } from '../model/ids.ts';
import { nowIso } from '../model/time.ts';
import { openDatabase, type Migration, type Sync } from '../store/sqlite/database.ts';
import { newSecret } from './secret.ts';
import {
  assertRowLive,
  type CreatedToken,
  lookupPrefix,
  malformedSecret,
  type TokenInfo,
  type TokenInput,
  type TokenRow,
  type TokenStore,
  tokenInfo,
  tokenNotFound,
  tokenRequest,
  type VerifiedToken,
  verifiedAmong,
} from './token-store.ts';

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

/**
 * Opens the token store of a data directory.
 * @example
 * const tokens = openTokenStore('/tmp/mem');
 * const { secret } = await tokens.create({ name: 'claude-code', kind: 'agent', grants: ['agent:{self}:rw', 'shared:r'] });
 * (await tokens.verify(secret)).principal // { kind: 'agent', id: 'claude-code', ... }
 */
export function openTokenStore(home?: string, options: { sync?: Sync } = {}): SqliteTokenStore {
  const dir = resolveHome(home);
  ensureHome(dir);
  return new SqliteTokenStore(openDatabase(join(dir, AUTH_DB), AUTH_MIGRATIONS, options));
}

/** Every method does its work before returning its (settled) promise: SQLite is synchronous underneath. */
export class SqliteTokenStore implements TokenStore {
  readonly #db: DatabaseSync;
  /**
   * Prepared once: a server verifies a token on every request, and preparing the lookup cost 4x running it
   * (12.5 us against 3 us). Each run reads the newest commit, so a revocation by any process counts at once.
   */
  readonly #byPrefix: StatementSync;
  readonly #byId: StatementSync;

  constructor(db: DatabaseSync) {
    this.#db = db;
    this.#byPrefix = db.prepare('SELECT * FROM tokens WHERE prefix = ?');
    this.#byId = db.prepare('SELECT * FROM tokens WHERE id = ?');
  }

  async create(input: TokenInput, createdBy?: string): Promise<CreatedToken> {
    const { name, kind, roles, grants } = tokenRequest(input);
    const { secret, hash, prefix } = newSecret();
    const id = newId('tok');
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
        nowIso(),
        createdBy ?? null,
      );
    return { ...tokenInfo(this.#get(id)!), secret };
  }

  async list(options: { includeRevoked?: boolean } = {}): Promise<TokenInfo[]> {
    const rows = this.#db
      .prepare(
        `SELECT * FROM tokens ${options.includeRevoked === true ? '' : 'WHERE revoked_at IS NULL'} ORDER BY created_at DESC, id DESC`,
      )
      .all() as unknown as TokenRow[];
    return rows.map(tokenInfo);
  }

  async revoke(id: string): Promise<TokenInfo> {
    const row = this.#get(id);
    if (row === null) throw tokenNotFound(id);
    if (row.revoked_at === null) {
      this.#db
        .prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
        .run(nowIso(), id);
    }
    return tokenInfo(this.#get(id)!);
  }

  async verify(secret: string | undefined | null): Promise<VerifiedToken> {
    return this.verifySync(secret);
  }

  /** `verify` for a caller that cannot wait (the CLI resolves its caller synchronously, see cli/caller.ts). */
  verifySync(secret: string | undefined | null): VerifiedToken {
    const malformed = malformedSecret(secret);
    if (malformed !== undefined) throw malformed;
    const candidates = this.#byPrefix.all(lookupPrefix(secret!)) as unknown as TokenRow[];
    return verifiedAmong(secret!, candidates);
  }

  async assertLive(id: string): Promise<void> {
    assertRowLive(this.#get(id));
  }

  async close(): Promise<void> {
    this.closeSync();
  }

  closeSync(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  #get(id: string): TokenRow | null {
    return (this.#byId.get(id) as unknown as TokenRow) ?? null;
  }
}
