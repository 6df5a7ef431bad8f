// A word diff (longest common subsequence) between the current value and a proposal, for the review queue.
import { diffSteps } from '../model/lcs.ts';

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
  const parts: DiffPart[] = [];
  for (const [kind, text] of diffSteps(a, b, MAX_CELLS)) {
    const last = parts.at(-1);
    if (last?.kind === kind) last.text += text;
    else parts.push({ kind, text });
  }
  return parts;
}
