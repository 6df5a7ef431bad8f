/** Where a Postgres part (audit, tokens) is opened: the server URL, and the tenant named by `?tenant=` or an option. */
import { MemoryError } from '../model/errors.ts';
import { checkTenant } from '../store/postgres/database.ts';

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
