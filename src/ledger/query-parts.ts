/**
 * A question that asks two things ("who signs off the runbook, and who owns deploys since March") split into
 * its parts, so each part is ranked on its own and the answer to one is not crowded out by memories that are
 * near the whole question's mixed meaning (one vector for two topics sits between both).
 */
import { searchTerms } from '../guard/fts-query.ts';

/** Where a second question starts: ", and who…", "and when…", "; ", or a new sentence after a question mark. */
const JOINT =
  /\s*(?:,\s*and\s+|\s+and\s+(?=(?:who|whom|whose|what|which|when|where|why|how)\b)|;\s*|\?\s+(?=\p{L}))/giu;

/** A part is searched on its own only with this many words left after stopwords: "and where are they based" is not. */
const MIN_PART_TERMS = 2;

/**
 * The parts of a query that asks more than one thing, each holding at least MIN_PART_TERMS searchable words;
 * empty when it asks one thing (or only one part can stand alone: "what does X do and where are they based"
 * needs the first part's subject, so the whole query is searched as it is).
 * @example queryParts('which release is ingest waiting for, and which queue does ingest run on')
 * // ['which release is ingest waiting for', 'which queue does ingest run on']
 */
export function queryParts(text: string): string[] {
  const parts = text
    .split(JOINT)
    .map((p) => p.trim())
    .filter((p) => /[\p{L}\p{N}]/u.test(p));
  if (parts.length < 2) return [];
  const standing = parts.filter((p) => searchTerms(p).length >= MIN_PART_TERMS);
  return standing.length >= 2 ? standing : [];
}
