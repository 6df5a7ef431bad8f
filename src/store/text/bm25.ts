/**
 * BM25 as FTS5's bm25() computes it (k1 = 1.2, b = 0.75, the column weights of migration 1's `rank`: body 1,
 * meta 0.5, scope token 0), but over statistics the search passes in: the caller's readable scopes rather than
 * the whole index, so no unreadable row moves a score (I4). Term frequencies and lengths come from
 * fts-tokens.ts, FTS5's tokenizer re-done, so on the same statistics the two give the same number.
 */
import { StemMatcher, tokenize } from './fts-tokens.ts';
import { type IndexedText, metaText } from './document.ts';

const K1 = 1.2;
const B = 0.75;
const BODY_WEIGHT = 1;
const META_WEIGHT = 0.5;

/** A query word as the index sees it: the tokens its quoted phrase becomes (one, nearly always). */
export type Phrase = string[];

/** Per query word, its column-weighted frequency in one document; and that document's length in tokens. */
export interface TermCounts {
  tf: number[];
  length: number;
}

/** Counts a query's words in documents: by stem alone when every word is one token, by phrase otherwise. */
export class QueryTerms {
  readonly #phrases: Phrase[];
  readonly #matcher: StemMatcher | null;

  constructor(terms: readonly string[]) {
    this.#phrases = terms.map((t) => tokenize(t));
    this.#matcher = this.#phrases.every((p) => p.length <= 1)
      ? new StemMatcher(this.#phrases.map((p) => p[0] ?? null))
      : null;
  }

  counts(doc: IndexedText): TermCounts {
    const tf = this.#phrases.map(() => 0);
    const meta = metaText(doc);
    // The scope token is the third column's one token: FTS5 counts it in the length, and weighs it 0.
    if (this.#matcher !== null) {
      const length =
        this.#matcher.count(doc.body, BODY_WEIGHT, tf) + this.#matcher.count(meta, META_WEIGHT, tf) + 1;
      return { tf, length };
    }
    const body = tokenize(doc.body);
    const metaTokens = tokenize(meta);
    this.#phrases.forEach((p, i) => {
      tf[i] = BODY_WEIGHT * occurrences(body, p) + META_WEIGHT * occurrences(metaTokens, p);
    });
    return { tf, length: body.length + metaTokens.length + 1 };
  }
}

/** FTS5's idf: never zero or negative, so a word in most documents still counts a little. */
export function idf(docs: number, withTerm: number): number {
  const v = Math.log((docs - withTerm + 0.5) / (withTerm + 0.5));
  return v > 0 ? v : 1e-6;
}

/** The score, positive (FTS5 reports its negation, so that ascending order is best first). */
export function bm25(counts: TermCounts, idfs: readonly number[], averageLength: number): number {
  const norm = K1 * (1 - B + (B * counts.length) / averageLength);
  let score = 0;
  for (let i = 0; i < idfs.length; i++) {
    const f = counts.tf[i]!;
    if (f > 0) score += (idfs[i]! * (f * (K1 + 1))) / (f + norm);
  }
  return score;
}

/** Where the phrase starts in the token list, overlaps included, as FTS5 counts phrase instances. */
function occurrences(tokens: readonly string[], phrase: Phrase): number {
  if (phrase.length === 0) return 0;
  const first = phrase[0]!;
  let n = 0;
  for (let i = 0; i + phrase.length <= tokens.length; i++) {
    if (tokens[i] !== first) continue;
    let j = 1;
    while (j < phrase.length && tokens[i + j] === phrase[j]) j++;
    if (j === phrase.length) n++;
  }
  return n;
}
