/**
 * When a mined candidate counts as a labelled keep: the same kind (fact and note count as one: both are a
 * plain claim, and which of the two a rule picks is not what a reviewer judges) and a normalised word overlap
 * at or above the threshold. Overlap is the Dice coefficient of the two bodies' word sets (lower case, letters
 * and digits, NFKC), 2·|A∩B| / (|A|+|B|): word order, punctuation and markdown do not count, a claim cut in half
 * or glued to its neighbour does. Pairs are matched one to one, best overlap first.
 */

export const DEFAULT_THRESHOLD = 0.6;

export interface Labelled {
  body: string;
  kind: string;
}

export function words(body: string): Set<string> {
  return new Set(
    body
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [],
  );
}

/** @example overlap('Use pnpm, never npm.', 'We use pnpm and never npm') // 2·4 / (4+6) = 0.8 */
export function overlap(a: string, b: string): number {
  const x = words(a);
  const y = words(b);
  if (x.size === 0 || y.size === 0) return 0;
  let shared = 0;
  for (const w of x) if (y.has(w)) shared++;
  return (2 * shared) / (x.size + y.size);
}

const kindClass = (kind: string): string => (kind === 'fact' ? 'note' : kind);
export const sameKind = (a: string, b: string): boolean => kindClass(a) === kindClass(b);

/** One-to-one pairs (candidate index, keep index, overlap), best first. */
export function matchPairs(
  candidates: readonly Labelled[],
  keeps: readonly Labelled[],
  threshold = DEFAULT_THRESHOLD,
): { candidate: number; keep: number; overlap: number }[] {
  const pairs: { candidate: number; keep: number; overlap: number }[] = [];
  candidates.forEach((c, i) => {
    keeps.forEach((k, j) => {
      if (!sameKind(c.kind, k.kind)) return;
      const o = overlap(c.body, k.body);
      if (o >= threshold) pairs.push({ candidate: i, keep: j, overlap: o });
    });
  });
  pairs.sort((a, b) => b.overlap - a.overlap || a.candidate - b.candidate || a.keep - b.keep);
  const usedC = new Set<number>();
  const usedK = new Set<number>();
  const out: typeof pairs = [];
  for (const p of pairs) {
    if (usedC.has(p.candidate) || usedK.has(p.keep)) continue;
    usedC.add(p.candidate);
    usedK.add(p.keep);
    out.push(p);
  }
  return out;
}
