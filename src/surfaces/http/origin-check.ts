/**
 * Origin and Host validation (the Streamable HTTP transport's security warning, and DNS rebinding): a page on a
 * foreign site, or one whose name was rebound to this machine's address, must not reach the server through the
 * user's browser. Loopback names are allowed by default, with any port; so is the address the server listens on
 * when it is not loopback (every address of the machine for a wildcard such as 0.0.0.0); anything else only when
 * allow-listed (`serve --allow-host`, `--allow-origin`, MEMLEDGER_ALLOWED_HOSTS, MEMLEDGER_ALLOWED_ORIGINS).
 * A request without an Origin (any client that is not a browser) is judged by its Host alone; a browser's
 * same-origin request (the console) has an Origin naming the Host it was sent to, and passes with it.
 */
import { hostname, networkInterfaces } from 'node:os';
import { MemoryError } from '../../model/errors.ts';

export interface AllowList {
  /** Extra origins, such as `https://console.example.com`. */
  origins?: readonly string[];
  /** Extra hosts: a name (any port) or `name:port`. */
  hosts?: readonly string[];
}

export type OriginRefusal = 'host' | 'origin';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARD = new Set(['0.0.0.0', '::', '[::]']);
const HOST_HEADER = /^[a-z0-9.\-[\]:]{1,300}$/;

/** True for an address only this machine can reach. */
export function isLoopbackAddress(address: string): boolean {
  const a = address.toLowerCase();
  return LOOPBACK.has(a) || a === '::1' || /^127\.\d+\.\d+\.\d+$/.test(a);
}

/**
 * The check for one server, built once.
 * @example
 * const check = originCheck({ listenHost: '127.0.0.1', allow: { origins: ['https://ops.example.com'] } });
 * check(new Headers({ host: 'evil.example.com' }), 'http://evil.example.com/mcp'); // 'host'
 */
export function originCheck(options: {
  listenHost: string;
  allow?: AllowList;
}): (headers: Headers, url: string) => OriginRefusal | null {
  const hosts = new Set([...LOOPBACK, ...listenNames(options.listenHost)]);
  for (const h of options.allow?.hosts ?? []) hosts.add(normaliseHostEntry(h));
  const origins = new Set((options.allow?.origins ?? []).map(normaliseOrigin));
  return (headers, url) => {
    // A request built in-process (app.request in tests) has no Host header; its URL names the host instead.
    const host = (headers.get('host') ?? safeUrl(url)?.host ?? '').trim().toLowerCase();
    const name = hostName(host);
    if (name === null || !(hosts.has(host) || hosts.has(name))) return 'host';
    const origin = headers.get('origin');
    if (origin === null) return null;
    const parsed = safeUrl(origin);
    // `null` (a sandboxed frame, a file) and anything unparsable are foreign.
    if (parsed === null || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) return 'origin';
    if (parsed.host === host || LOOPBACK.has(parsed.hostname) || origins.has(parsed.origin)) return null;
    return 'origin';
  };
}

/** The refusal as the library's error: a permission fault, naming the header and the option, never its value. */
export function originRefusalError(refusal: OriginRefusal): MemoryError {
  return refusal === 'host'
    ? new MemoryError(
        'permission',
        'the Host header names a host this server does not answer for (DNS rebinding protection); allow it with serve --allow-host',
        { details: { header: 'host' } },
      )
    : new MemoryError(
        'permission',
        'the Origin header names a site this server does not allow; allow it with serve --allow-origin',
        { details: { header: 'origin' } },
      );
}

/** `--allow-origin` values and MEMLEDGER_ALLOWED_ORIGINS (comma separated), checked at start-up. */
export function parseAllowList(
  flags: { origins?: readonly string[]; hosts?: readonly string[] },
  env: NodeJS.ProcessEnv = process.env,
): AllowList {
  const split = (v: string | undefined) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
  const origins = [...(flags.origins ?? []), ...split(env.MEMLEDGER_ALLOWED_ORIGINS)];
  const hosts = [...(flags.hosts ?? []), ...split(env.MEMLEDGER_ALLOWED_HOSTS)];
  for (const o of origins) normaliseOrigin(o);
  for (const h of hosts) normaliseHostEntry(h);
  return { origins, hosts };
}

/** The names a client may use for the listening address: none beyond loopback's for a loopback address. */
function listenNames(listenHost: string): string[] {
  const h = listenHost.toLowerCase().trim();
  if (isLoopbackAddress(h)) return [];
  if (!WILDCARD.has(h)) return [h.includes(':') && !h.startsWith('[') ? `[${h}]` : h];
  // Listening on every interface: each of the machine's addresses, and its name, is the host it listens on.
  const names = [hostname().toLowerCase()];
  for (const list of Object.values(networkInterfaces())) {
    for (const i of list ?? []) names.push(i.family === 'IPv6' ? `[${i.address.split('%')[0]}]` : i.address);
  }
  return names;
}

function normaliseOrigin(o: string): string {
  const u = safeUrl(o);
  if (u === null || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.origin === 'null') {
    throw new MemoryError(
      'invalid_input',
      'an allowed origin must be an http or https URL such as https://example.com',
    );
  }
  return u.origin;
}

function normaliseHostEntry(h: string): string {
  const host = h.trim().toLowerCase();
  if (hostName(host) === null) {
    throw new MemoryError(
      'invalid_input',
      'an allowed host must be a host name or address, optionally with :port',
    );
  }
  return host;
}

/** The name part of a Host value (`[::1]` for `[::1]:8787`), or null when it is not a plain host. */
function hostName(host: string): string | null {
  if (!HOST_HEADER.test(host)) return null;
  const u = safeUrl(`http://${host}`);
  return u === null || u.hostname === '' ? null : u.hostname;
}

function safeUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
