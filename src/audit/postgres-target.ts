/** Where a Postgres part (audit, tokens) is opened: the server URL, and the tenant named by `?tenant=` or an option. */
import { MemoryError } from '../model/errors.ts';
import {
  checkTenant,
  connect,
  migrate,
  type PgMigration,
  pgError,
  type Sql,
} from '../store/postgres/database.ts';

/** The tenant a Postgres URL or an opener names when neither says (context: one database, many tenants). */
export const DEFAULT_TENANT = 'default';

export interface PostgresTarget {
  /** The URL without `tenant`: postgres.js would send an unknown parameter to the server as a setting. */
  url: string;
  tenant: string;
}

/**
 * The tenant comes from the option, else `?tenant=` in the URL, else `default`; a URL and an option that
 * disagree are refused rather than one silently winning.
 * @example postgresTarget('postgres://app@db/memledger?tenant=acme') // { url: 'postgres://app@db/memledger', tenant: 'acme' }
 */
export function postgresTarget(url: string, tenant?: string): PostgresTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // connect() names the accepted forms; a URL it cannot parse reaches it as it is.
    return { url, tenant: checked(tenant ?? DEFAULT_TENANT) };
  }
  const named = parsed.searchParams.get('tenant');
  parsed.searchParams.delete('tenant');
  if (named !== null && tenant !== undefined && named !== tenant) {
    throw new MemoryError('invalid_input', 'the URL names one tenant and the tenant option another');
  }
  return { url: parsed.toString(), tenant: checked(tenant ?? named ?? DEFAULT_TENANT) };
}

function checked(tenant: string): string {
  checkTenant(tenant);
  return tenant;
}

/** How a part of the database beside the store (audit, tokens) is opened: its tenant, migrations, pool size. */
export interface PartOptions {
  tenant?: string;
  /** Apply the part's migrations first (default true); a server whose role may not migrate passes false. */
  migrate?: boolean;
  /** Connections in the pool. Default 4. */
  max?: number;
}

/**
 * Connects to the database for one part and applies its forward-only migrations unless told not to; a failed
 * migration closes the pool before the error (named after the part) reaches the caller.
 */
export async function openPart(
  url: string,
  options: PartOptions,
  part: string,
  migrations: readonly PgMigration[],
): Promise<{ sql: Sql; tenant: string }> {
  const target = postgresTarget(url, options.tenant);
  const sql = connect(target.url, { max: options.max ?? 4 });
  try {
    if (options.migrate !== false) await migrate(sql, part, migrations);
  } catch (error) {
    await sql.end();
    throw pgError(error, `migrate the ${part} schema`);
  }
  return { sql, tenant: target.tenant };
}
