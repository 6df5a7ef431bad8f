/** "did you mean …?" for a mistyped command: the nearest command name by edit distance, if one is near enough. */

/**
 * The candidate nearest to `typed`, or undefined when none is close: at most two edits (a swap of neighbours is
 * one), and fewer than half the typed word's letters, so `x` suggests nothing and `serach` suggests `search`.
 */
export function nearest(typed: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(typed, name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined || best.distance === 0) return undefined;
  return best.distance <= 2 && best.distance * 2 < typed.length ? best.name : undefined;
}

/** `search` for `serach`, `review approve` for `review aprove`, `review list` for `reveiw list`, or undefined. */
export function didYouMean(words: string[], names: readonly string[]): string | undefined {
  const membersOf = (first: string) =>
    names.filter((n) => n.startsWith(`${first} `)).map((n) => n.split(' ')[1]!);
  if (membersOf(words[0]!).length > 0) {
    const second = words[1] === undefined ? undefined : nearest(words[1], membersOf(words[0]!));
    return second === undefined ? undefined : `${words[0]} ${second}`;
  }
  // A one-word command, or the first word of a two-word one (`reveiw list` → review list).
  const first = nearest(words[0]!, [...new Set(names.map((n) => n.split(' ')[0]!))]);
  if (first === undefined) return undefined;
  const members = membersOf(first);
  if (members.length === 0) return first;
  const second =
    words[1] === undefined ? undefined : (members.find((m) => m === words[1]) ?? nearest(words[1], members));
  return second === undefined ? first : `${first} ${second}`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
export function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  // One flat row-major table: d[i * width + j] is the distance between a's first i and b's first j characters.
  const d = new Array<number>((a.length + 1) * width).fill(0);
  const at = (i: number, j: number) => d[i * width + j] as number;
  for (let i = 0; i <= a.length; i++) d[i * width] = i;
  for (let j = 0; j <= b.length; j++) d[j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * width + j] = v;
    }
  }
  return at(a.length, b.length);
}
