/** The longest-common-subsequence walk behind both diffs: the console's word diff and install's line diff. */

export type Step = 'same' | 'removed' | 'added';

/**
 * Each item of `a` and `b` in order, marked kept, removed or added; a removal comes before the addition at the
 * same place, as diff(1) prints them. Past `maxCells` pairs nothing is matched (all removed, then all added), so
 * a huge input costs linear time and memory instead of a quadratic table.
 * @example diffSteps(['a', 'b'], ['a', 'c'], 100) // [['same','a'], ['removed','b'], ['added','c']]
 */
export function diffSteps<T>(a: readonly T[], b: readonly T[], maxCells: number): [Step, T][] {
  if (a.length * b.length > maxCells) {
    return [...a.map((x): [Step, T] => ['removed', x]), ...b.map((x): [Step, T] => ['added', x])];
  }
  // lcs[i * w + j]: the common subsequence length of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const out: [Step, T][] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(['same', a[i++]!]);
      j++;
    } else if (i < a.length && (j === b.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      out.push(['removed', a[i++]!]);
    } else {
      out.push(['added', b[j++]!]);
    }
  }
  return out;
}
