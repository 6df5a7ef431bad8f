/** The v1 set's builder: a seeded random source, a calendar for the set's year, and label-checked collections. */
import type { EvalMemoryInput, EvalQueryInput } from '../../format.ts';

/** The set's year runs from here; `NOW` is when the queries are asked. */
export const START = Date.parse('2024-10-01T00:00:00Z');
export const NOW = '2025-09-30T17:00:00.000Z';
export const DAYS = 364;

/** mulberry32: small, fast and the same on every machine, so the committed set is reproducible. */
export class Rng {
  #state: number;
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const pool = [...items];
    const out: T[] = [];
    while (out.length < count && pool.length > 0)
      out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }
}

/** A working-hours time on day `d` of the set's year (0 = 2024-10-01). */
export function at(d: number, rng: Rng): string {
  const day = Math.max(0, Math.min(DAYS, Math.round(d)));
  const minutes = rng.int(8 * 60, 18 * 60);
  return new Date(START + day * 86_400_000 + minutes * 60_000).toISOString();
}

/** The calendar date of day `d`, as text a person would write ("March 4, 2025"). */
export function spoken(d: number): string {
  return new Date(START + Math.round(d) * 86_400_000).toLocaleDateString('en-US', {
    month: 'long',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}

/** Midnight UTC of day `d`, for valid times. */
export const dateOf = (d: number): string =>
  new Date(START + Math.round(d) * 86_400_000).toISOString().slice(0, 10);

export class SetBuilder {
  readonly memories: EvalMemoryInput[] = [];
  readonly queries: EvalQueryInput[] = [];
  readonly rng: Rng;
  readonly #labels = new Set<string>();
  readonly #queryIds = new Set<string>();

  constructor(seed: number) {
    this.rng = new Rng(seed);
  }

  /** Adds a memory and returns its label. */
  add(memory: EvalMemoryInput): string {
    if (this.#labels.has(memory.id)) throw new Error(`label ${memory.id} is used twice`);
    this.#labels.add(memory.id);
    this.memories.push(memory);
    return memory.id;
  }

  has(label: string): boolean {
    return this.#labels.has(label);
  }

  query(query: EvalQueryInput): void {
    if (this.#queryIds.has(query.id)) throw new Error(`query ${query.id} is used twice`);
    for (const l of [...query.expect, ...(query.mustNot ?? [])]) {
      if (!this.#labels.has(l)) throw new Error(`query ${query.id} names unknown memory ${l}`);
    }
    this.#queryIds.add(query.id);
    this.queries.push(query);
  }
}
