// The console's only way out: the HTTP API under /v1 with the signed-in bearer token, errors as ApiError.

export class ApiError extends Error {
  readonly status: number;
  /** The library's failure class (`permission`, `conflict`, ...), or `network` when no answer came. */
  readonly class: string;
  constructor(status: number, cls: string, message: string) {
    super(message);
    this.status = status;
    this.class = cls;
  }
}

export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

interface Call {
  method?: 'GET' | 'POST';
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

let token: string | null = null;
let onUnauthorized: (error: ApiError) => void = () => {};

/** Set by the sign-in state: the token for every call, and what to do when the API stops accepting it. */
export function setApiToken(value: string | null, unauthorized?: (error: ApiError) => void): void {
  token = value;
  if (unauthorized !== undefined) onUnauthorized = unauthorized;
}

export function authHeaders(secret: string | null = token): Record<string, string> {
  return secret === null ? {} : { authorization: `Bearer ${secret}` };
}

/** `?scopes=a&scopes=b&limit=5`: arrays repeat their name, empty values are left out. */
export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(name, v);
    else params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * Calls the API and returns its JSON. A 401 means the token stopped working (revoked): the console signs out.
 * @example
 * const { memories } = await api<{ memories: Memory[] }>('/v1/review');
 */
export async function api<T>(path: string, call: Call = {}, secret: string | null = token): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${path}${queryString(call.query)}`, {
      method: call.method ?? 'GET',
      headers: {
        ...authHeaders(secret),
        ...(call.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
      signal: call.signal,
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'the server did not answer; is memledger serve running?');
  }
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    throw new ApiError(
      res.status,
      'internal',
      `the server answered ${res.status} with something that is not JSON`,
    );
  }
  if (!res.ok) {
    const e = (data as { error?: { class?: string; message?: string } } | null)?.error;
    const error = new ApiError(res.status, e?.class ?? 'internal', e?.message ?? `HTTP ${res.status}`);
    if (res.status === 401 && secret === token) onUnauthorized(error);
    throw error;
  }
  return data as T;
}

export const post = <T>(path: string, body: unknown = {}): Promise<T> =>
  api<T>(path, { method: 'POST', body });
