/**
 * A run's token: it names exactly the ids the window showed and carries the run's secret, so `complete` links
 * what was shown, no more and no less, and only for whoever holds the window.
 */
import { timingSafeEqual } from 'node:crypto';
import { MemoryError } from '../model/errors.ts';
import type { RunRow } from '../store/behaviors-port.ts';

export function encodeToken(run: Pick<RunRow, 'id' | 'shown' | 'nonce'>): string {
  const body = Buffer.from(JSON.stringify({ run: run.id, ids: run.shown })).toString('base64url');
  return `${body}.${run.nonce}`;
}

/** The run and ids a token names; `invalid_input` for anything that is not one. */
export function decodeToken(token: string): { run: string; ids: string[]; nonce: string } {
  const bad = () => new MemoryError('invalid_input', 'token is not a behavior window token');
  const dot = token.lastIndexOf('.');
  if (dot <= 0 || token.length > 200_000) throw bad();
  try {
    const parsed = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8')) as unknown;
    const p = parsed as { run?: unknown; ids?: unknown };
    if (typeof p.run !== 'string' || !Array.isArray(p.ids) || !p.ids.every((i) => typeof i === 'string')) {
      throw bad();
    }
    return { run: p.run, ids: p.ids as string[], nonce: token.slice(dot + 1) };
  } catch {
    throw bad();
  }
}

/** Whether a decoded token is exactly this run's: its secret, and the very ids it was shown, in order. */
export function tokenFits(decoded: { ids: string[]; nonce: string }, run: RunRow): boolean {
  const a = Buffer.from(decoded.nonce);
  const b = Buffer.from(run.nonce);
  const secret = a.length === b.length && timingSafeEqual(a, b);
  return (
    secret && decoded.ids.length === run.shown.length && decoded.ids.every((id, i) => id === run.shown[i])
  );
}
