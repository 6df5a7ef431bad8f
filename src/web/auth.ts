// Sign-in: the token lives in sessionStorage (this tab only, gone when it closes), never in a URL or a cookie.
import { ApiError, api, setApiToken } from './api.ts';
import { SIGN_IN_TOKEN_COMMAND } from './sign-in-hint.ts';
import type { WhoAmI } from './types.ts';

const KEY = 'memledger.token';

export interface SignedIn {
  token: string;
  me: WhoAmI;
}

/**
 * Checks a token with the API and refuses any principal that is not a person: agents and services act
 * through MCP and the API, and their writes are what this console reviews.
 */
export async function signIn(token: string): Promise<SignedIn> {
  const secret = token.trim();
  if (secret === '') throw new ApiError(0, 'invalid_input', 'paste a token to sign in');
  const me = await api<WhoAmI>('/v1/whoami', {}, secret);
  if (me.kind !== 'human') {
    throw new ApiError(
      403,
      'permission',
      `${me.principal} is ${me.kind === 'agent' ? 'an agent' : 'a service'}: the console is for people. ` +
        `Sign in with a human token (${SIGN_IN_TOKEN_COMMAND}).`,
    );
  }
  sessionStorage.setItem(KEY, secret);
  setApiToken(secret);
  return { token: secret, me };
}

/** The token this tab signed in with, checked again (it may have been revoked since). */
export async function resume(): Promise<SignedIn | null> {
  const saved = sessionStorage.getItem(KEY);
  if (saved === null) return null;
  try {
    return await signIn(saved);
  } catch (error) {
    if (error instanceof ApiError && error.class !== 'network') sessionStorage.removeItem(KEY);
    throw error;
  }
}

export function signOut(): void {
  sessionStorage.removeItem(KEY);
  setApiToken(null);
}
