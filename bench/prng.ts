/** Seeded randomness for the benchmark data: same seed, same data, on every machine (no Math.random). */

export type Rng = () => number;

/** mulberry32: a small, fast 32-bit generator; plenty for synthetic text, never for anything secret. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A well-mixed seed for item `index` of stream `seed`, so item i can be regenerated alone (queries pick
 * memory i without keeping a million of them in memory).
 */
export function seedFor(seed: number, index: number): number {
  let h = (seed ^ Math.imul(index + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** An integer in [0, n). */
export const pick = (rng: Rng, n: number): number => Math.floor(rng() * n);

/**
 * A Zipf sampler over ranks 0..n-1: P(rank k) ∝ 1/(k+1)^s. Inverse-CDF by binary search, so a draw costs
 * log2(n) comparisons.
 */
export class Zipf {
  readonly #cdf: Float64Array;

  constructor(n: number, s: number) {
    this.#cdf = new Float64Array(n);
    let total = 0;
    for (let k = 0; k < n; k++) {
      total += 1 / (k + 1) ** s;
      this.#cdf[k] = total;
    }
    for (let k = 0; k < n; k++) this.#cdf[k]! /= total;
  }

  get size(): number {
    return this.#cdf.length;
  }

  /** Probability mass of ranks below `rank`. */
  massBelow(rank: number): number {
    return rank <= 0 ? 0 : this.#cdf[Math.min(rank, this.#cdf.length) - 1]!;
  }

  sample(rng: Rng): number {
    const u = rng();
    let lo = 0;
    let hi = this.#cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
