/** Text that must say something: a body that is only whitespace or invisible characters is no memory. */

/**
 * Characters that render as nothing: white space (Zs, line and paragraph separators, tabs), controls (Cc),
 * format characters (Cf: U+200B–U+200D, U+2060, U+FEFF, U+00AD, the bidi controls) and the rest of Unicode's
 * default-ignorable code points (variation selectors, Hangul fillers, the combining grapheme joiner).
 */
const INVISIBLE = /[\p{White_Space}\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/gu;
const VISIBLE_ASCII = /[\x21-\x7e]/;

/**
 * True when the text has at least one character a reader would see.
 * @example hasVisibleText('\u200b \ufeff') // false
 */
export function hasVisibleText(text: string): boolean {
  // Nearly every body has a printable ASCII character early on: answer without the Unicode pass.
  if (VISIBLE_ASCII.test(text)) return true;
  return text.replace(INVISIBLE, '') !== '';
}

export const INVISIBLE_BODY_MESSAGE =
  'body must contain visible text: it is empty once white space and invisible characters (zero-width, bidi controls, BOM, soft hyphen) are removed';
