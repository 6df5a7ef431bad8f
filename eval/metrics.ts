/** Retrieval metrics: recall@k, reciprocal rank and percentiles, with must-not-find ids counted as failures. */

/** One query's outcome, in the set's labels: what came back, in rank order, and what was expected. */
export interface Judged {
  ranked: readonly string[];
  expect: readonly string[];
  mustNot: readonly string[];
}

/**
 * A forbidden id anywhere in the returned list: a superseded version, another scope's memory or a retracted
 * one is a wrong answer an agent would act on, so the whole query fails however well the right ids ranked.
 */
export function leaked(j: Judged): string[] {
  const forbidden = new Set(j.mustNot);
  return j.ranked.filter((id) => forbidden.has(id));
}

/**
 * Share of the expected ids among the first k results; 0 when anything forbidden came back.
 * @example recallAt({ ranked: ['a', 'x', 'b'], expect: ['a', 'b'], mustNot: [] }, 2) // 0.5
 */
export function recallAt(j: Judged, k: number): number {
  if (j.expect.length === 0 || leaked(j).length > 0) return 0;
  const top = new Set(j.ranked.slice(0, k));
  return j.expect.filter((id) => top.has(id)).length / j.expect.length;
}

/**
 * 1 / rank of the first expected id in the returned list (0 if none came back, or anything forbidden did).
 * @example reciprocalRank({ ranked: ['x', 'a'], expect: ['a'], mustNot: [] }) // 0.5
 */
export function reciprocalRank(j: Judged): number {
  if (leaked(j).length > 0) return 0;
  const wanted = new Set(j.expect);
  const at = j.ranked.findIndex((id) => wanted.has(id));
  return at < 0 ? 0 : 1 / (at + 1);
}

/** Share of the expected ids present in a set of ids (the context block); 0 when anything forbidden is there. */
export function coverage(
  present: readonly string[],
  expect: readonly string[],
  mustNot: readonly string[],
): number {
  if (expect.length === 0) return 0;
  const have = new Set(present);
  if (mustNot.some((id) => have.has(id))) return 0;
  return expect.filter((id) => have.has(id)).length / expect.length;
}

/** Nearest-rank percentile (p in 0..100) of a list of numbers; NaN for an empty list. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/** Rounds for printing: figures are compared across runs, and noise past four places only hides the signal. */
export const round = (value: number, places = 4): number =>
  Number.isFinite(value) ? Math.round(value * 10 ** places) / 10 ** places : value;

/**
 * 1 when every expected id is among the first k results, else 0: a multi-hop question is answered only when
 * all the memories it needs are in front of the reader, so half of them scores nothing. 0 on a leak.
 * @example completeAt({ ranked: ['a', 'x', 'b'], expect: ['a', 'b'], mustNot: [] }, 2) // 0
 */
export function completeAt(j: Judged, k: number): number {
  if (j.expect.length === 0) return Number.NaN;
  return recallAt(j, k) === 1 ? 1 : 0;
}

/**
 * A search result is *confident* when its top hit holds every word the query was reduced to (stopwords and
 * time expressions dropped, inflections allowed: search's `why.matched` against its `terms`). A caller that
 * acts only on confident results then acts on nothing for a question whose premise is wrong, and on the
 * answer for one that is right; the harness reports both rates, so neither can be bought with the other.
 */
export function isConfident(result: {
  terms: readonly string[];
  hits: readonly { why: { matched: readonly string[] } }[];
}): boolean {
  const top = result.hits[0];
  return top !== undefined && result.terms.length > 0 && top.why.matched.length === result.terms.length;
}
