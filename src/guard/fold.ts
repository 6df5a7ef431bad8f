/** Folding text for pattern matching: what a reader (or a model) sees, without the disguises that hide it from a regex. */
import { toLatin } from './skeleton.ts';

/**
 * Characters that look like `<`, `>` and `/` to a reader but are not them once NFKC is done: NFKC already maps
 * full-width `＜／＞` and small `﹤﹥`, so these are the angle quotes, brackets, modifier letters and syllabics
 * that survive it. The context renderer defuses a frame tag built from any of them.
 */
export const LT_LOOKALIKES = '‹〈⟨❮❬❰˂ᐸ⧼〈';
export const GT_LOOKALIKES = '›〉⟩❯❭❱˃ᐳ⧽〉';
export const SLASH_LOOKALIKES = '∕⁄⧸╱⟋⼃';

/**
 * Quotes and the bracket look-alikes above, which Unicode's confusables table (skeleton.ts, for letters) leaves
 * out or maps elsewhere: a frame tag built from them must read as the tag it imitates.
 */
const CONFUSABLE: Record<string, string> = {
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '«': '"',
  '»': '"',
};
for (const c of LT_LOOKALIKES) CONFUSABLE[c] = '<';
for (const c of GT_LOOKALIKES) CONFUSABLE[c] = '>';
for (const c of SLASH_LOOKALIKES) CONFUSABLE[c] = '/';

const CONFUSABLE_CLASS = new RegExp(`[${Object.keys(CONFUSABLE).join('')}]`, 'gu');

/**
 * Invisible characters a word can be split with: format characters (zero-width space and joiners, bidi
 * controls, soft hyphen, word joiner, BOM), combining marks (so `ïgnore` and stacked diacritics read as the
 * base letter), the Hangul and braille fillers that render as blanks, and the C0 and C1 controls that are
 * not line breaks (a tokenizer drops or splits on them; a reader does not see them).
 */
const INVISIBLE = /[\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u2800\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]/gu;

/** Everything that starts a new line on some reader: CR, LF, NEL, VT, FF, LINE and PARAGRAPH SEPARATOR. */
export const LINE_BREAKS = /[\r\n\u0085\u000b\u000c\u2028\u2029]/;
const LINE_BREAK_RUNS = /[^\S\r\n\u000b\u000c\u2028\u2029]*[\r\n\u0085\u000b\u000c\u2028\u2029][\s\u0085]*/g;

/** Plain printable ASCII with ordinary spaces and newlines: most memories, and nothing there to unfold. */
const PLAIN = /^[\x20-\x7e\n]*$/;

/**
 * Text as the detector matches it: NFKC's compatibility forms folded (full-width, ligatures, math letters;
 * done as NFKD so marks can then be dropped), invisible characters removed, look-alike letters and brackets
 * mapped to ASCII, lower case, every line break a single `\n` and every other run of white space one space.
 *
 * @example foldForMatching('Ign\u200bore ＡＬＬ previous') === 'ignore all previous'
 */
export function foldForMatching(text: string): string {
  let t = text;
  if (!PLAIN.test(t)) {
    t = t.normalize('NFKD').toLowerCase().replace(INVISIBLE, '');
    t = t.replace(CONFUSABLE_CLASS, (c) => CONFUSABLE[c] ?? c).replace(LINE_BREAK_RUNS, '\n');
    // Letters from other scripts that look Latin (Cyrillic і in `іgnore`) read as the letter they imitate: real
    // Russian or Greek text becomes Latin nonsense that matches nothing, which is all a detector needs. After the
    // line breaks, which the table would map to spaces.
    t = toLatin(t).toLowerCase();
    return t.replace(/[^\S\n]{2,}|[^\S\n ]/g, ' ');
  }
  // Plain ASCII: its only white space is spaces and newlines.
  t = t.toLowerCase();
  if (t.includes('\n')) t = t.replace(/ *\n[\n ]*/g, '\n');
  return t.includes('  ') ? t.replace(/ {2,}/g, ' ') : t;
}
