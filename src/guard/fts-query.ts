/** Turns user query text into a safe FTS5 MATCH expression (I11): every term quoted, stopwords dropped, OR-joined. */
import { MemoryError } from '../model/errors.ts';
import { LIMITS } from '../model/memory.ts';

const MAX_TERMS = 32;

// Query stopwords: words so common they only add noise to an OR query. Short on purpose.
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what ' +
    'when where which who why will with would you your about should any all'
  ).split(' '),
);

export interface FtsQuery {
  /** A MATCH expression: each term a double-quoted string, joined by OR. */
  match: string;
  terms: string[];
}

/**
 * Any string in, a MATCH expression out, or `invalid_input` when nothing searchable is left.
 * Terms are Unicode letter/digit runs, so FTS operators (`NEAR`, `*`, `"`, `-`, `:`, parentheses) in user
 * text are only ever words inside quotes.
 * @example buildFtsQuery('what is "acme" plan?') // { match: '"acme" OR "plan"', terms: ['acme', 'plan'] }
 */
export function buildFtsQuery(text: string): FtsQuery {
  if (text.length > LIMITS.query) {
    throw new MemoryError('invalid_input', `query is longer than ${LIMITS.query} characters`);
  }
  const words = (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).filter((w) => w.length <= 64);
  const unique = [...new Set(words)];
  const content = unique.filter((w) => !STOPWORDS.has(w));
  const terms = (content.length > 0 ? content : unique).slice(0, MAX_TERMS);
  if (terms.length === 0) {
    throw new MemoryError('invalid_input', 'query has no searchable words (letters or digits)');
  }
  return { match: terms.map((t) => `"${t}"`).join(' OR '), terms };
}

export const isStopword = (word: string): boolean => STOPWORDS.has(word);
