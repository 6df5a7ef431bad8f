/** Turns user query text into a safe FTS5 MATCH expression (I11): every term quoted, stopwords dropped, OR-joined. */
import { MemoryError } from '../model/errors.ts';
import { LIMITS } from '../model/memory.ts';

const MAX_TERMS = 32;
/** Longer letter or digit runs (a hash, a pasted blob) are not searched. */
const MAX_WORD = 64;

/**
 * Query stopwords: words so common they only add noise to an OR query. Short on purpose: function words,
 * pronouns, and what an apostrophe leaves of a contraction or a possessive ("Emma's" is `emma` and `s`,
 * "didn't" is `didn` and `t`), each of which otherwise matched half of a chat's turns. Quantifiers, time words
 * ("before", "now") and particles ("log out") stay: they carry meaning often enough. Measured with the local
 * embedder (tuning halves of v1 and v2, and v4): every recall@5 as it was in all three modes except BM25's on
 * v4 (0.604 → 0.611, knowledge-update 0.842 → 0.895); MRR hybrid v1 0.791 → 0.796, v2 0.718 → 0.720, v4 0.588
 * → 0.600. A longer list (also, just, only, some, more, most, before, after, until, ...) lost three paraphrase
 * answers on v1 and v2 that a common word had found ("some invoices were off by one cent").
 */
const STOPWORDS = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its ' +
    'me my no not of on or our so than that the their them then there these they this to was we were what ' +
    'when where which who why will with would you your about should any all ' +
    'am been being he him his himself she her hers herself myself ours ourselves yours yourself yourselves ' +
    'theirs themselves itself whom us ' +
    's t d ll m re ve don didn doesn isn wasn weren aren hasn haven hadn couldn wouldn shouldn'
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
  const terms = searchTerms(text);
  if (terms.length === 0) {
    throw new MemoryError(
      'invalid_input',
      wordsOf(text).some((w) => w.length > MAX_WORD)
        ? `query words longer than ${MAX_WORD} characters are not searched, and no other word is left`
        : 'query has no searchable words (letters or digits)',
    );
  }
  return { match: terms.map((t) => `"${t}"`).join(' OR '), terms };
}

/** The words of a text that are searched (none when nothing is): what `buildFtsQuery` quotes. */
export function searchTerms(text: string): string[] {
  const all = wordsOf(text);
  const unique = [...new Set(all.filter((w) => w.length <= MAX_WORD))];
  const content = unique.filter((w) => !STOPWORDS.has(w));
  // Stopwords are searched only when the text holds no other word ("who are you"): a query whose other words
  // are all too long to search is not a query for its "the" (which matches nearly every memory).
  const onlyStopwords = all.every((w) => STOPWORDS.has(w));
  return (content.length > 0 ? content : onlyStopwords ? unique : []).slice(0, MAX_TERMS);
}

const wordsOf = (text: string): string[] =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu) ?? [];

export const isStopword = (word: string): boolean => STOPWORDS.has(word);
