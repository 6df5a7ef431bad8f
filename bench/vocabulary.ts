/**
 * The benchmark vocabulary: English function words at the head of a Zipf distribution (as in real text),
 * then tens of thousands of pronounceable synthetic words, all drawn from a seeded generator.
 */
import { mulberry32, type Rng, pick, Zipf } from './prng.ts';

/**
 * Function words by rough English frequency. They take the top ranks, so bodies read like text and the
 * index carries the huge posting lists real text has; queries never use them (a search drops them).
 */
const FUNCTION_WORDS = (
  'the of and to a in is it that for on was with as be at by this are from or have an they which not but ' +
  'had has were their we will been there can if its would all so what about out them when who more no ' +
  'could into than then these our do any how my may should your did does me i you he she his her us ' +
  'also just some over only such after where why'
).split(' ');

const CONSONANTS = 'bcdfghjklmnprtvwz';
const VOWELS = 'aeiou';
// No `s`, `d` or `g` finals: the porter stemmer would fold `kavos`/`kavod`/`kavong` into other words.
const FINALS = 'nrlmk';

export interface Vocabulary {
  words: readonly string[];
  /** Ranks below this are function words. */
  contentFrom: number;
  zipf: Zipf;
  /** A word by Zipf frequency, function words included (for bodies). */
  word(rng: Rng): string;
  /** A content word by Zipf frequency (for queries, keys and subjects). */
  contentWord(rng: Rng): string;
  isFunctionWord(word: string): boolean;
}

export function buildVocabulary(size: number, s: number, seed: number): Vocabulary {
  const functionWords = [...new Set(FUNCTION_WORDS)];
  const taken = new Set(functionWords);
  const words = [...functionWords];
  const rng = mulberry32(seed);
  while (words.length < size) {
    // Frequent words are short, as in natural language.
    const rank = words.length;
    const syllables = rank < 1_500 ? 2 : rank < 15_000 ? 2 + pick(rng, 2) : 3 + pick(rng, 2);
    const word = syntheticWord(rng, syllables);
    if (taken.has(word)) continue;
    taken.add(word);
    words.push(word);
  }
  const zipf = new Zipf(size, s);
  const contentFrom = functionWords.length;
  const functionSet = new Set(functionWords);
  return {
    words,
    contentFrom,
    zipf,
    word: (r) => words[zipf.sample(r)]!,
    contentWord: (r) => {
      for (;;) {
        const rank = zipf.sample(r);
        if (rank >= contentFrom) return words[rank]!;
      }
    },
    isFunctionWord: (w) => functionSet.has(w),
  };
}

function syntheticWord(rng: Rng, syllables: number): string {
  let word = '';
  for (let i = 0; i < syllables; i++)
    word += CONSONANTS[pick(rng, CONSONANTS.length)]! + VOWELS[pick(rng, 5)]!;
  if (rng() < 0.3) word += FINALS[pick(rng, FINALS.length)]!;
  return word;
}
