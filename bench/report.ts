/** The shape of one benchmark's entry in the JSON report, and the target checks that decide pass or fail. */

export interface Check {
  /** What is checked, e.g. `p50Ms <= 1`. */
  name: string;
  value: number;
  limit: number;
  pass: boolean;
}

export interface BenchResult {
  description: string;
  memledger: Record<string, unknown>;
  raw: Record<string, unknown>;
  /** memledger's cost over the raw baseline's (time per operation or bytes): above 1 memledger is slower. */
  ratio: number;
  /** Further ratios (e.g. at p99), same direction. */
  ratios?: Record<string, number>;
  /** The target from ARCHITECTURE.md §6, in words; null when the benchmark is for information only. */
  target: string | null;
  checks: Check[];
  /** All checks passed; null when there is no target. */
  pass: boolean | null;
  /** Anything a reader needs to trust the figures: equivalence checks, counts, caveats. */
  notes?: Record<string, unknown>;
}

export const atMost = (name: string, value: number, limit: number): Check => ({
  name: `${name} <= ${limit}`,
  value,
  limit,
  pass: value <= limit,
});

export const atLeast = (name: string, value: number, limit: number): Check => ({
  name: `${name} >= ${limit}`,
  value,
  limit,
  pass: value >= limit,
});

export function result(entry: Omit<BenchResult, 'pass'>): BenchResult {
  return { ...entry, pass: entry.checks.length === 0 ? null : entry.checks.every((c) => c.pass) };
}
