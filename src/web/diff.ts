// A word diff (longest common subsequence) between the current value and a proposal, for the review queue.

export interface DiffPart {
  kind: 'same' | 'added' | 'removed';
  text: string;
}

/** Beyond this many word pairs the diff is not computed; the two texts are shown whole instead. */
const MAX_CELLS = 2_000_000;

/** Words and the whitespace after them, so the parts join back into the original texts. */
const tokens = (text: string): string[] => text.match(/\S+\s*|\s+/g) ?? [];

/**
 * @example
 * diffWords('Acme is on Pro', 'Acme is on Enterprise')
 * // [{same:'Acme is on '}, {removed:'Pro'}, {added:'Enterprise'}]
 */
export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  if (a.length * b.length > MAX_CELLS) {
    return [
      { kind: 'removed', text: before },
      { kind: 'added', text: after },
    ];
  }
  // lcs[i][j]: the common subsequence length of a[i..] and b[j..], in one flat array.
  const w = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * w);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const parts: DiffPart[] = [];
  const push = (kind: DiffPart['kind'], text: string) => {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  };
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      push('same', a[i++]!);
      j++;
    } else if (lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!) push('removed', a[i++]!);
    else push('added', b[j++]!);
  }
  while (i < a.length) push('removed', a[i++]!);
  while (j < b.length) push('added', b[j++]!);
  return parts;
}
