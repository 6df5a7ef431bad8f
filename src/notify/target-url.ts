/**
 * Where a target's URL comes from and how it may be shown. A URL that is itself a credential (a Slack incoming
 * webhook) is kept as `env:NAME` and read from the environment when used, like the signing secrets (I10); a
 * listing, an audit record or an error shows only a URL's origin, never its path.
 */
import { MemoryError } from '../model/errors.ts';

export const URL_ENV_PREFIX = 'env:';
export const ENV_NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;

/** `https://hooks.slack.com/…` for a literal URL, `env:NAME` as it is. */
export function shownUrl(url: string): string {
  if (url.startsWith(URL_ENV_PREFIX)) return url;
  try {
    const u = new URL(url);
    return u.pathname === '/' && u.search === '' ? u.origin : `${u.origin}/…`;
  } catch {
    return '(not a URL)';
  }
}

/** The URL to send to, from the environment where the target names a variable; `upstream` when it is unset. */
export function resolveUrl(url: string, env: NodeJS.ProcessEnv): string {
  if (!url.startsWith(URL_ENV_PREFIX)) return url;
  const name = url.slice(URL_ENV_PREFIX.length);
  const value = env[name];
  if (value === undefined || value === '') {
    throw new MemoryError(
      'upstream',
      `the environment variable ${name} holding the target's URL is not set`,
      {
        details: { errorClass: 'secret_missing' },
      },
    );
  }
  return value;
}

/** The secret a target names by variable; `upstream` (never the value) when it is unset. */
export function resolveSecret(name: string, env: NodeJS.ProcessEnv): string {
  const value = env[name];
  if (value === undefined || value === '') {
    throw new MemoryError(
      'upstream',
      `the environment variable ${name} holding the target's secret is not set`,
      {
        details: { errorClass: 'secret_missing' },
      },
    );
  }
  return value;
}

export function isLoopbackUrl(u: URL): boolean {
  const h = u.hostname.replace(/^\[|\]$/g, '');
  return h === 'localhost' || h === '::1' || /^127\./.test(h);
}

/** What the audit keeps of a notify call's arguments: a URL's origin, never its path (it may be the credential). */
export function maskedArgs(input: unknown): unknown {
  if (input === null || typeof input !== 'object') return input;
  const { url, ...rest } = input as Record<string, unknown>;
  return typeof url === 'string' ? { ...rest, url: shownUrl(url) } : rest;
}
