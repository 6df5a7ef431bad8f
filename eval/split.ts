/**
 * A deterministic split of a set's queries into a tuning half and a held-out half, by a hash of each query's
 * id: constants are tuned on one half and judged on the other, so a change cannot be fitted to the whole set.
 */
import { createHash } from 'node:crypto';

export const HALVES = ['tuning', 'held-out'] as const;
export type Half = (typeof HALVES)[number];

/** The first byte of SHA-256(id): even is tuning, odd is held out. Stable across runs, machines and set edits. */
export function halfOf(queryId: string): Half {
  return createHash('sha256').update(queryId).digest()[0]! % 2 === 0 ? 'tuning' : 'held-out';
}
