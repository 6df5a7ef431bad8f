/**
 * Near-duplicate detection for context assembly: two memories whose normalised words overlap by a Jaccard
 * index of at least 0.8 say the same thing, and the block shows only the first (the better-ranked one).
 */
import { normaliseText } from '../../guard/canonical.ts';

export const NEAR_DUPLICATE = 0.8;

/** The set of normalised words a text holds (case, accents and punctuation ignored). */
export function wordSet(text: string): Set<string> {
  const normal = normaliseText(text);
  return new Set(normal === '' ? [] : normal.split(' '));
}

/** |A ∩ B| / |A ∪ B|; two empty sets are identical. */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 && b.size === 0) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

/** Remembers what was kept and answers whether a new text nearly repeats any of it. */
export class NearDuplicates {
  readonly #kept: Set<string>[] = [];

  isDuplicate(words: ReadonlySet<string>): boolean {
    return this.#kept.some((k) => jaccard(k, words) >= NEAR_DUPLICATE);
  }

  keep(words: Set<string>): void {
    this.#kept.push(words);
  }
}
