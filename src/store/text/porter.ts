/**
 * The Porter stemmer as SQLite's FTS5 `porter` tokenizer applies it, so term frequencies and lengths computed
 * here agree with what the index matched. It follows FTS5's reading of the algorithm, which differs from the
 * paper in small ways (`*v*` counts a `y` anywhere but first as a vowel; `logi`→`log` and `bli`→`ble` in
 * step 2), and works on UTF-8 bytes as FTS5 does: a byte outside ASCII is a consonant that no suffix names.
 * test/store/fts-tokens.test.ts checks it against FTS5 itself.
 */

/** FTS5 passes tokens shorter than this or longer than MAX_BYTES (in UTF-8 bytes) through unstemmed. */
const MIN_BYTES = 3;
const MAX_BYTES = 64;

type Condition = (stem: string) => boolean;
/** A suffix, what replaces it, and the condition on the stem before it. */
type Rule = readonly [suffix: string, replacement: string, condition: Condition];

/**
 * Stems one lower-cased token given as a byte string (one character per UTF-8 byte, see `byteString`).
 * @example stem('running') // 'run'
 */
export function stem(word: string): string {
  if (word.length < MIN_BYTES || word.length > MAX_BYTES) return word;
  let w = step1a(word);
  w = step1b(w);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = applyFirst(w, STEP2);
  w = applyFirst(w, STEP3);
  w = applyFirst(w, STEP4);
  if (w.endsWith('e')) {
    const s = w.slice(0, -1);
    if (measureAbove1(s) || (measureIs1(s) && !endsCvc(s))) w = s;
  }
  if (w.length > 1 && w.endsWith('ll') && measureAbove1(w.slice(0, -1))) w = w.slice(0, -1);
  return w;
}

/** A token as FTS5's porter step sees it: its UTF-8 bytes, one character each (ASCII is unchanged). */
export function byteString(token: string): string {
  return /^[\x00-\x7f]*$/.test(token) ? token : Buffer.from(token, 'utf8').toString('latin1');
}

function step1a(w: string): string {
  if (!w.endsWith('s')) return w;
  if (w.endsWith('es')) {
    const drop2 = (w.length > 4 && w.endsWith('sses')) || (w.length > 3 && w.endsWith('ies'));
    return w.slice(0, drop2 ? -2 : -1);
  }
  return w.endsWith('ss') ? w : w.slice(0, -1);
}

function step1b(w: string): string {
  let s: string;
  if (w.length > 3 && w.endsWith('eed')) return measureAbove0(w.slice(0, -3)) ? w.slice(0, -1) : w;
  if (w.length > 2 && w.endsWith('ed') && hasVowel(w.slice(0, -2))) s = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('ing') && hasVowel(w.slice(0, -3))) s = w.slice(0, -3);
  else return w;
  for (const [from, to] of [
    ['at', 'ate'],
    ['bl', 'ble'],
    ['iz', 'ize'],
  ] as const) {
    if (s.length > 2 && s.endsWith(from)) return s.slice(0, -2) + to;
  }
  const last = s.at(-1)!;
  if (!isVowel(last, false) && last !== 'l' && last !== 's' && last !== 'z' && last === s.at(-2)) {
    return s.slice(0, -1);
  }
  return measureIs1(s) && endsCvc(s) ? `${s}e` : s;
}

/**
 * The first rule whose suffix ends the word (and is shorter than it) decides: applied when its condition
 * holds, and no other rule of the step is tried when it does not. Suffixes that end another's are listed
 * after it (`ational` before `tional`), as FTS5 tries them.
 */
function applyFirst(w: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (w.length > suffix.length && w.endsWith(suffix)) {
      const s = w.slice(0, -suffix.length);
      return condition(s) ? s + replacement : w;
    }
  }
  return w;
}

const isVowel = (c: string, yIsVowel: boolean): boolean =>
  c === 'a' || c === 'e' || c === 'i' || c === 'o' || c === 'u' || (yIsVowel && c === 'y');

/**
 * Past the first vowel-consonant sequence of `s` (from `start`), the index just after it, or 0 when there is
 * none. A `y` is a vowel after a consonant; `prevConsonant` says what came before `start`.
 */
function afterVc(s: string, start: number, prevConsonant: boolean): number {
  let consonant = prevConsonant;
  let i = start;
  for (; i < s.length; i++) {
    consonant = !isVowel(s[i]!, consonant);
    if (!consonant) break;
  }
  for (i++; i < s.length; i++) {
    consonant = !isVowel(s[i]!, consonant);
    if (consonant) return i + 1;
  }
  return 0;
}

/** m > 0: at least one vowel-consonant sequence. */
const measureAbove0: Condition = (s) => afterVc(s, 0, false) !== 0;

const measureAbove1: Condition = (s) => {
  const n = afterVc(s, 0, false);
  return n !== 0 && afterVc(s, n, true) !== 0;
};

const measureIs1: Condition = (s) => {
  const n = afterVc(s, 0, false);
  return n !== 0 && afterVc(s, n, true) === 0;
};

/** *o: ends consonant-vowel-consonant, the last not w, x or y. */
function endsCvc(s: string): boolean {
  const last = s.at(-1);
  if (last === undefined || last === 'w' || last === 'x' || last === 'y') return false;
  let mask = 0;
  let consonant = false;
  for (const c of s) {
    consonant = !isVowel(c, consonant);
    mask = ((mask << 1) | (consonant ? 1 : 0)) & 7;
  }
  return s.length >= 3 && mask === 5;
}

/** *v*: a vowel anywhere, where FTS5 takes any `y` but the first letter for one. */
function hasVowel(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (isVowel(s[i]!, i > 0)) return true;
  return false;
}

const measureAbove1SorT: Condition = (s) => (s.endsWith('s') || s.endsWith('t')) && measureAbove1(s);

const STEP2: readonly Rule[] = (
  [
    ['ational', 'ate'],
    ['tional', 'tion'],
    ['enci', 'ence'],
    ['anci', 'ance'],
    ['izer', 'ize'],
    ['logi', 'log'],
    ['bli', 'ble'],
    ['alli', 'al'],
    ['entli', 'ent'],
    ['eli', 'e'],
    ['ousli', 'ous'],
    ['ization', 'ize'],
    ['ation', 'ate'],
    ['ator', 'ate'],
    ['alism', 'al'],
    ['iveness', 'ive'],
    ['fulness', 'ful'],
    ['ousness', 'ous'],
    ['aliti', 'al'],
    ['iviti', 'ive'],
    ['biliti', 'ble'],
  ] as const
).map(([suffix, to]) => [suffix, to, measureAbove0] as const);

const STEP3: readonly Rule[] = (
  [
    ['icate', 'ic'],
    ['ative', ''],
    ['alize', 'al'],
    ['iciti', 'ic'],
    ['ical', 'ic'],
    ['ful', ''],
    ['ness', ''],
  ] as const
).map(([suffix, to]) => [suffix, to, measureAbove0] as const);

const STEP4: readonly Rule[] = [
  ...['al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent'].map(
    (suffix) => [suffix, '', measureAbove1] as const,
  ),
  ['ion', '', measureAbove1SorT],
  ...['ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize'].map((suffix) => [suffix, '', measureAbove1] as const),
];
