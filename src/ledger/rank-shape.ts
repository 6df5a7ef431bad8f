/**
 * What a memory's text is shaped like, for ranking: a question ("are we going with MySQL?") repeats the words of
 * the question a caller asks and answers nothing, and a content-free turn ("Bye!", "ok", "thanks") matches on a
 * name alone. Both are kept and found, only weighed down, so memories that answer rank above them.
 */
import { normaliseText } from '../guard/canonical.ts';
import { isStopword } from '../guard/fts-query.ts';

export type Shape = 'question' | 'content-free';

/**
 * Tuning half of memledger-v2, question weight: 0.8, 0.6 and 0.4 score alike; 0.3 lifts MRR a little (overall
 * 0.670 → 0.671, knowledge-update 0.927 → 0.930); 0.15 drops next-turn context recall 0.929 → 0.571, because a
 * found question is what brings its answer in as a neighbour, so it must stay near the head. A content-free
 * turn weighs less than a question (which at least names its topic); 0.3 and 0.15 score alike on the set.
 */
export const SHAPE_WEIGHT: Readonly<Record<Shape, number>> = { question: 0.3, 'content-free': 0.15 };

/** Words that carry no content in a chat turn, beyond the stopwords the index drops. */
const PLEASANTRIES = new Set(
  'ok okay k kk thanks thank thx ty cheers bye goodbye hi hello hey yes yeah yep yup no nope sure great cool nice perfect deal noted done works lol haha sounds good fine right agreed morning night welcome np'.split(
    ' ',
  ),
);
/** "Omar: " at the start of a transcript turn: who spoke, not what was said. */
const SPEAKER = /^\s*[\p{Lu}][\p{L}.' -]{0,40}:\s+/u;

/**
 * A turn of this many words or more holds two content words in any text a person writes, so it is not tested
 * word by word: shapeOf runs on every search candidate (up to the candidate cap), and a statement, the common
 * case, then costs a scan for a question mark and for six spaces.
 */
const CONTENT_FREE_MAX_WORDS = 6;

/** The shape that weighs a memory down, or null for an ordinary statement. */
export function shapeOf(body: string): Shape | null {
  const asks = body.includes('?');
  if (!asks && hasWords(body, CONTENT_FREE_MAX_WORDS + 1)) return null;
  const said = body.replace(SPEAKER, '');
  if (hasWords(said, CONTENT_FREE_MAX_WORDS + 1)) return asks && isQuestion(said) ? 'question' : null;
  const words = normaliseText(said)
    .split(' ')
    .filter((w) => w !== '');
  if (words.filter((w) => !isStopword(w) && !PLEASANTRIES.has(w)).length < 2) return 'content-free';
  return asks && isQuestion(said) ? 'question' : null;
}

/** Does the text hold at least `n` space-separated words? Stops at the n-th. */
function hasWords(text: string, n: number): boolean {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) === 32;
    if (!space && !inWord && ++words >= n) return true;
    inWord = !space;
  }
  return false;
}

/**
 * A question: its sentences that end in a question mark hold more than half its words, so "where do the keys
 * live now? the old file is gone" is one, and "Fixed the deploy script. Any questions?" is not.
 */
function isQuestion(text: string): boolean {
  if (!text.includes('?')) return false;
  const count = (s: string) => (s.match(/[\p{L}\p{N}]+/gu) ?? []).length;
  let asked = 0;
  let all = 0;
  for (const sentence of text.split(/(?<=[.!?])\s+/)) {
    const n = count(sentence);
    all += n;
    if (sentence.trimEnd().endsWith('?')) asked += n;
  }
  return asked * 2 > all;
}
