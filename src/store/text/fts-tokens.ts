/**
 * The index's tokenizer (`porter unicode61 remove_diacritics 2`) re-done in TypeScript, so that search can
 * count term frequencies and document lengths itself, from the rows a caller may read, instead of taking
 * FTS5's index-wide bm25 (I4). ASCII text, nearly all of what memories hold, and Latin, Greek and Cyrillic
 * letters are tokenized exactly as FTS5 does. Elsewhere it approximates FTS5's Unicode 6.1 tables with the
 * engine's newer Unicode properties (letters, digits, private-use and unassigned code points make tokens; a
 * few combining marks continue one); 668 of the Basic Multilingual Plane's 63,360 code points come out
 * differently, characters and case pairs added since 6.1. test/store/fts-tokens.test.ts measures all of it
 * against FTS5. A mismatch only shifts a score: which documents match is still decided by the index.
 */
import { byteString, stem } from './porter.ts';

/** A text's tokens, in order, as FTS5 emits them: lower-cased, diacritics removed, stemmed. */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (ASCII.test(text)) {
    for (const m of text.matchAll(ASCII_TOKEN)) out.push(stemmed(m[0].toLowerCase()));
    return out;
  }
  for (const m of text.matchAll(UNICODE_TOKEN)) {
    const folded = fold(m[0]);
    if (folded.length > 0) out.push(stemmed(folded));
  }
  return out;
}

/** How many tokens FTS5 makes of `text`: the document length bm25 uses. Cheaper than tokenize: no stemming. */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (ASCII.test(text)) {
    let n = 0;
    for (const _ of text.matchAll(ASCII_TOKEN)) n++;
    return n;
  }
  let n = 0;
  for (const m of text.matchAll(UNICODE_TOKEN)) if (fold(m[0]).length > 0) n++;
  return n;
}

const ASCII = /^[\x00-\x7f]*$/;
const ASCII_TOKEN = /[A-Za-z0-9]+/g;
/**
 * The combining marks FTS5 lets continue a token (and then drops): measured against FTS5, one by one. Any
 * other mark ends the token, as do punctuation, symbols and spaces.
 */
const DIACRITICS = '\u0300-\u0304\u0306-\u030c\u030f\u0311\u031b\u0323-\u0328\u032d\u032e\u0330\u0331';
/** A token starts with a letter, digit or private-use character; those diacritics may continue it. */
const UNICODE_TOKEN = new RegExp(
  `[\\p{L}\\p{N}\\p{Co}\\p{Cn}][\\p{L}\\p{N}\\p{Co}\\p{Cn}${DIACRITICS}]*`,
  'gu',
);
const COMBINING = /[\u0300-\u036f]/;
const COMBINING_ALL = /[\u0300-\u036f]/g;
/**
 * Latin letters whose diacritics FTS5 removes (Latin-1 Supplement to Latin Extended-B, Latin Extended
 * Additional), less the few with two marks on a ligature or a non-ASCII base that it keeps (ǡ, ǣ, ǯ, ǽ, ǿ).
 */
const LATIN_ACCENTED = /[\u00c0-\u01df\u01e4-\u01ed\u01f0-\u01fb\u0200-\u024f\u1e00-\u1eff]/u;
/** Where FTS5 folds case and JavaScript's toLowerCase does not agree: FTS5 folds, as Unicode's CaseFolding. */
const FOLDS: Record<string, string> = {
  '\u00b5': '\u03bc', // micro sign → mu
  '\u017f': 's', // long s
  '\u1e9b': 's', // long s with dot above (its dot goes with the diacritics)
  '\u1fbe': '\u03b9', // prosgegrammeni → iota
  '\u03c2': '\u03c3', // final sigma
  '\u03d0': '\u03b2', // beta symbol
  '\u03d1': '\u03b8', // theta symbol
  '\u03d5': '\u03c6', // phi symbol
  '\u03d6': '\u03c0', // pi symbol
  '\u03f0': '\u03ba', // kappa symbol
  '\u03f1': '\u03c1', // rho symbol
  '\u03f5': '\u03b5', // lunate epsilon
};
const FOLDED = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'gu');

function fold(token: string): string {
  let lower = token.toLowerCase();
  lower = lower.replace(FOLDED, (c) => FOLDS[c]!);
  if (!LATIN_ACCENTED.test(lower) && !COMBINING.test(lower)) return lower;
  let out = '';
  for (const ch of lower) {
    if (COMBINING.test(ch)) continue;
    out += LATIN_ACCENTED.test(ch) ? ch.normalize('NFD').replace(COMBINING_ALL, '') : ch;
  }
  return out;
}

/**
 * Stemming is the costly part of tokenizing a candidate, and real text repeats its words (Zipf), so stems
 * are kept; the cache starts again when full.
 */
const STEM_CACHE = 50_000;
const stems = new Map<string, string>();

function stemmed(token: string): string {
  let s = stems.get(token);
  if (s === undefined) {
    const bytes = byteString(token);
    // Stemming changes ASCII suffixes only, so the bytes stay valid UTF-8.
    s = bytes === token ? stem(token) : Buffer.from(stem(bytes), 'latin1').toString('utf8');
    if (stems.size >= STEM_CACHE) stems.clear();
    stems.set(token, s);
  }
  return s;
}

/**
 * The query words' stems and a test that rejects most tokens before they are stemmed: a token's stem keeps the
 * token's first letter, and all but the last four letters of the stem are the token's own (each Porter step
 * replaces a suffix with at most four letters), so a token can stem to `s` only if it starts with
 * `s.slice(0, s.length - 4)` and with `s[0]`.
 */
export class StemMatcher {
  readonly #index = new Map<string, number[]>();
  readonly #prefixes: string[] = [];
  readonly #firsts = new Set<number>();

  /** `stems[i]` is the stem that counts for word i (or null for a word the index makes no single token of). */
  constructor(stems: readonly (string | null)[]) {
    stems.forEach((s, i) => {
      if (s === null || s.length === 0) return;
      const at = this.#index.get(s);
      if (at === undefined) this.#index.set(s, [i]);
      else at.push(i);
      this.#firsts.add(s.charCodeAt(0));
      this.#prefixes.push(s.slice(0, Math.max(1, s.length - 4)));
    });
  }

  /**
   * Adds `weight` to `tf[i]` for each token of `text` whose stem is word i's, and returns how many tokens
   * `text` has. ASCII text is scanned in place; other text goes through `tokenize`.
   */
  count(text: string, weight: number, tf: number[]): number {
    if (!ASCII.test(text)) {
      const tokens = tokenize(text);
      for (const t of tokens) this.#add(t, weight, tf);
      return tokens.length;
    }
    let n = 0;
    let i = 0;
    const end = text.length;
    while (i < end) {
      if (!isAlnum(text.charCodeAt(i))) {
        i++;
        continue;
      }
      const start = i;
      while (i < end && isAlnum(text.charCodeAt(i))) i++;
      n++;
      if (!this.#firsts.has(text.charCodeAt(start) | 32)) continue;
      const token = text.slice(start, i).toLowerCase();
      if (this.#prefixes.some((p) => token.startsWith(p))) this.#add(stemmed(token), weight, tf);
    }
    return n;
  }

  #add(stemmedToken: string, weight: number, tf: number[]): void {
    const at = this.#index.get(stemmedToken);
    if (at !== undefined) for (const i of at) tf[i]! += weight;
  }
}

/** [0-9A-Za-z]: FTS5's token characters in ASCII. */
function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
