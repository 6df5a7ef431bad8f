/**
 * A floor under a text's cl100k_base count that costs one pass over its characters. Context assembly tests an
 * item against its pool's allowance with it first, so the many candidates of a full pool that cannot fit are
 * skipped without being counted: exactly those the count would skip, since the count is never lower.
 *
 * Why it is a floor. cl100k's pre-tokenizer (cl100k.ts SPLIT) cuts text into pieces and each piece is at least
 * one token. Its alternatives: letters with at most one non-letter, non-digit character before them; a
 * contraction (`'s`, `'ll`, …); one to three digits; punctuation (no letter or digit) with at most one space
 * before it and line breaks after it; white space alone. So, taking the text's maximal runs of letters
 * (`\p{L}`), of digits (`\p{N}`) and of other non-space characters:
 * - every letter run needs a piece of its own (no piece holds letters of two runs);
 * - a digit run of n needs ⌈n/3⌉ pieces holding nothing else;
 * - an other run needs a piece of its own, except a single character just before a letter (it may lead the
 *   letters' piece, `(word`, or open a contraction, `'s`).
 * test/ledger/token-floor.test.ts checks floor ≤ count on the eval set and on random text.
 */

const SPACE = 0;
const LETTER = 1;
const DIGIT = 2;
const OTHER = 3;

/** The fewest tokens cl100k_base can count for `text`. */
export function tokenFloor(text: string): number {
  let floor = 0;
  let run = SPACE;
  let length = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.codePointAt(i)!;
    const kind = classOf(code);
    i += code > 0xffff ? 2 : 1;
    if (kind === run) {
      length++;
      continue;
    }
    floor += closed(run, length, kind);
    run = kind;
    length = 1;
  }
  return floor + closed(run, length, SPACE);
}

/** Pieces a finished run needs, given the class of the character after it. */
function closed(run: number, length: number, next: number): number {
  if (run === LETTER) return 1;
  if (run === DIGIT) return Math.ceil(length / 3);
  if (run === OTHER) return length === 1 && next === LETTER ? 0 : 1;
  return 0;
}

function classOf(code: number): number {
  if (code < 128) {
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90)) return LETTER;
    if (code >= 48 && code <= 57) return DIGIT;
    return code === 32 || (code >= 9 && code <= 13) ? SPACE : OTHER;
  }
  const c = String.fromCodePoint(code);
  if (IS_LETTER.test(c)) return LETTER;
  if (IS_DIGIT.test(c)) return DIGIT;
  return IS_SPACE.test(c) ? SPACE : OTHER;
}

const IS_LETTER = /^\p{L}$/u;
const IS_DIGIT = /^\p{N}$/u;
const IS_SPACE = /^\s$/u;
