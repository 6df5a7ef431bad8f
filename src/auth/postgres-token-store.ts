/**
 * API tokens on PostgreSQL (`memledger_auth.tokens`, migration part `tokens`), one tenant per store: the same
 * contract as auth.db (hashes only, display prefixes, revocation at once for every replica, a token's identity
 * immutable and a revocation final, by trigger).
 *
 * The tenant is part of how the store is opened (the URL's `?tenant=` or the `tenant` option), never read from
 * a request: a server serves one tenant, and verifying a bearer runs in that tenant, so another tenant's token
 * is unknown there. Row-level security holds the same line below the code.
 */
import {
  inTenant,
  type PgMigration,
  pgError,
  type Sql,
  TENANT_SETTING,
  type TxSql,
} from '../store/postgres/database.ts';
import { newId } from '../model/ids.ts';
import { nowIso } from '../model/time.ts';
import { openPart, type PartOptions } from '../audit/postgres-target.ts';
import { APP_ROLE, ensureRoles } from '../audit/postgres-roles.ts';
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

const TENANT = `current_setting('${TENANT_SETTING}', true)`;

export const TOKEN_MIGRATIONS: readonly PgMigration[] = [
  {
    version: 1,
    name: 'api tokens per tenant',
    async up(tx) {
      await ensureRoles(tx);
      await tx.unsafe(`
CREATE SCHEMA IF NOT EXISTS memledger_auth;
REVOKE ALL ON SCHEMA memledger_auth FROM PUBLIC;
CREATE TABLE memledger_auth.tokens (
  tenant      text NOT NULL,
  id          text NOT NULL,
  name        text NOT NULL,
  kind        text NOT NULL CHECK (kind IN ('human', 'agent', 'service')),
  roles       text NOT NULL,
  grants      text NOT NULL,
  prefix      text NOT NULL,
  hash        text NOT NULL UNIQUE,
  created_at  text NOT NULL,
  created_by  text,
  revoked_at  text,
  PRIMARY KEY (tenant, id)
);
CREATE INDEX tokens_prefix ON memledger_auth.tokens (tenant, prefix);

CREATE FUNCTION memledger_auth.guard_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.tenant, NEW.id, NEW.name, NEW.kind, NEW.roles, NEW.grants, NEW.prefix, NEW.hash, NEW.created_at)
     IS DISTINCT FROM
     (OLD.tenant, OLD.id, OLD.name, OLD.kind, OLD.roles, OLD.grants, OLD.prefix, OLD.hash, OLD.created_at) THEN
    RAISE EXCEPTION 'a token''s identity never changes; revoke it and create another';
  END IF;
  IF OLD.revoked_at IS NOT NULL THEN
    RAISE EXCEPTION 'a revoked token stays revoked';
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER tokens_guard BEFORE UPDATE ON memledger_auth.tokens
  FOR EACH ROW EXECUTE FUNCTION memledger_auth.guard_token();

ALTER TABLE memledger_auth.tokens ENABLE ROW LEVEL SECURITY;
ALTER TABLE memledger_auth.tokens FORCE ROW LEVEL SECURITY;
CREATE POLICY tokens_tenant ON memledger_auth.tokens
  USING (tenant = ${TENANT}) WITH CHECK (tenant = ${TENANT});

REVOKE ALL ON memledger_auth.tokens FROM PUBLIC;
GRANT USAGE ON SCHEMA memledger_auth TO ${APP_ROLE};
GRANT SELECT, INSERT ON memledger_auth.tokens TO ${APP_ROLE};
GRANT UPDATE (revoked_at) ON memledger_auth.tokens TO ${APP_ROLE};
`);
    },
  },
];

/** The tokens' tenant, whether to migrate first, the pool size: as the audit's (`openPart`). */
export type PostgresTokenOptions = PartOptions;

/**
 * Opens the token store of one tenant in a Postgres database.
 * @example
 * const tokens = await openPostgresTokens('postgres://memledger_server@db/memledger', { tenant: 'acme', migrate: false });
 * const { secret } = await tokens.create({ name: 'claude-code', kind: 'agent' });
 */
export async function openPostgresTokens(
  url: string,
  options: PostgresTokenOptions = {},
): Promise<TokenStore> {
  const { sql, tenant } = await openPart(url, options, 'tokens', TOKEN_MIGRATIONS);
  return new PostgresTokenStore(sql, tenant);
}

class PostgresTokenStore implements TokenStore {
  readonly #sql: Sql;
  readonly #tenant: string;

  constructor(sql: Sql, tenant: string) {
    this.#sql = sql;
    this.#tenant = tenant;
  }

  async create(input: TokenInput, createdBy?: string): Promise<CreatedToken> {
    const { name, kind, roles, grants } = tokenRequest(input);
    const { secret, hash, prefix } = newSecret();
    const id = newId('tok');
    const row = await this.#in('create a token', async (tx) => {
      await tx`
        INSERT INTO memledger_auth.tokens (tenant, id, name, kind, roles, grants, prefix, hash, created_at, created_by)
        VALUES (${this.#tenant}, ${id}, ${name}, ${kind}, ${JSON.stringify(roles)}, ${JSON.stringify(grants)},
          ${prefix}, ${hash}, ${nowIso()}, ${createdBy ?? null})`;
      return this.#get(tx, id);
    });
    return { ...tokenInfo(row!), secret };
  }

  async list(options: { includeRevoked?: boolean } = {}): Promise<TokenInfo[]> {
    const all = options.includeRevoked === true;
    const rows = await this.#in(
      'list tokens',
      (tx) => tx<TokenRow[]>`
        SELECT * FROM memledger_auth.tokens
        WHERE tenant = ${this.#tenant} AND (${all}::boolean OR revoked_at IS NULL)
        ORDER BY created_at DESC, id DESC`,
    );
    return rows.map(tokenInfo);
  }

  async revoke(id: string): Promise<TokenInfo> {
    const row = await this.#in('revoke a token', async (tx) => {
      await tx`
        UPDATE memledger_auth.tokens SET revoked_at = ${nowIso()}
        WHERE tenant = ${this.#tenant} AND id = ${id} AND revoked_at IS NULL`;
      return this.#get(tx, id);
    });
    if (row === null) throw tokenNotFound(id);
    return tokenInfo(row);
  }

  async verify(secret: string | undefined | null): Promise<VerifiedToken> {
    const malformed = malformedSecret(secret);
    if (malformed !== undefined) throw malformed;
    const candidates = await this.#in(
      'verify a token',
      (tx) => tx<TokenRow[]>`
        SELECT * FROM memledger_auth.tokens WHERE tenant = ${this.#tenant} AND prefix = ${lookupPrefix(secret!)}`,
    );
    return verifiedAmong(secret!, candidates);
  }

  async assertLive(id: string): Promise<void> {
    assertRowLive(await this.#in('check a token', (tx) => this.#get(tx, id)));
  }

  async close(): Promise<void> {
    await this.#sql.end();
  }

  /** One tenant-bound transaction; a database failure becomes a typed error naming what failed. */
  async #in<T>(what: string, fn: (tx: TxSql) => Promise<T>): Promise<T> {
    try {
      return await inTenant(this.#sql, this.#tenant, fn);
    } catch (error) {
      throw pgError(error, what);
    }
  }

  async #get(tx: TxSql, id: string): Promise<TokenRow | null> {
    const [row] = await tx<TokenRow[]>`
      SELECT * FROM memledger_auth.tokens WHERE tenant = ${this.#tenant} AND id = ${id}`;
    return row ?? null;
  }
}
