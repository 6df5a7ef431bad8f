/**
 * Rows of the Postgres store: the same memory row shape and mapping as SQLite's (rows.ts there), the search
 * document a memory becomes (its porter tokens as a tsvector literal), and the tsquery of a plan's words.
 */
import { tokenize } from '../text/fts-tokens.ts';
import { metaText } from '../text/document.ts';
import type { IndexedText } from '../text/document.ts';

export { metaText } from '../text/document.ts';
export { insertParams, type MemoryRow, toMemory } from '../sqlite/rows.ts';

/** Every column of a memory row, as `toMemory` reads it; seq as a JS number (bigint comes back as text). */
export const MEMORY_COLUMNS =
  'm.seq::float8 as seq, m.id, m.scope, m.kind, m.key, m.body, m.value, m.subjects, m.valid_from, m.valid_to, m.confidence, m.supersedes, m.edit_of, m.fingerprint, m.provenance, m.recorded_at, m.state, m.trust, m.superseded_by, m.active_from, m.active_until, m.confirmed_by, m.rule, m.valid_start, m.valid_end';

/** tsvector limits: positions stop at 16383, a lexeme keeps at most 256 positions and 2047 bytes. */
const MAX_POSITION = 16383;
const MAX_POSITIONS = 255;
const MAX_LEXEME_BYTES = 2046;

/**
 * The document as a tsvector literal: the body's tokens, then the meta column's after a gap of one position (a
 * phrase never spans the two, as it never spans FTS5 columns). Tokens are the ones FTS5 makes (fts-tokens.ts),
 * quoted, so Postgres's own parser and stemmer never touch them.
 */
export function documentVector(doc: IndexedText): string {
  return indexedDocument(doc).vector;
}

/**
 * The tsvector literal and the document's length in tokens (`documentLength`, which counts them again) from one
 * tokenizing: a bulk import writes both for every memory.
 */
export function indexedDocument(doc: IndexedText): { vector: string; length: number } {
  const positions = new Map<string, number[]>();
  let at = 0;
  const add = (tokens: string[]) => {
    for (const t of tokens) {
      at++;
      // A UTF-16 unit is at most 3 UTF-8 bytes: only a long token needs its bytes counted.
      if (t.length * 3 > MAX_LEXEME_BYTES && Buffer.byteLength(t) > MAX_LEXEME_BYTES) continue;
      let list = positions.get(t);
      if (list === undefined) {
        list = [];
        positions.set(t, list);
      }
      if (list.length < MAX_POSITIONS) list.push(Math.min(at, MAX_POSITION));
    }
  };
  const body = tokenize(doc.body);
  const meta = tokenize(metaText(doc));
  add(body);
  at++;
  add(meta);
  const parts: string[] = [];
  // Positions only repeat once capped at MAX_POSITION (they increase until then).
  for (const [t, list] of positions) {
    const unique = list.at(-1) === MAX_POSITION ? [...new Set(list)] : list;
    parts.push(`${quoteLexeme(t)}:${unique.join(',')}`);
  }
  // As documentLength: the body's tokens, the meta column's and the gap between them.
  return { vector: parts.join(' '), length: body.length + meta.length + 1 };
}

/**
 * A word of the query as a tsquery: its token, or its tokens as a phrase (`<->`), each quoted. Null when the
 * word makes no token. User text never reaches tsquery syntax unquoted (I11).
 */
export function phraseQuery(term: string): string | null {
  const tokens = tokenize(term).filter((t) => Buffer.byteLength(t) <= MAX_LEXEME_BYTES);
  if (tokens.length === 0) return null;
  return tokens.map(quoteLexeme).join(' <-> ');
}

/** The plan's words OR-joined, as guard/fts-query joins them for FTS5. */
export function orQuery(terms: readonly string[]): string | null {
  const phrases = terms.map(phraseQuery).filter((p): p is string => p !== null);
  return phrases.length === 0 ? null : phrases.map((p) => `(${p})`).join(' | ');
}

function quoteLexeme(token: string): string {
  if (!token.includes('\\') && !token.includes("'")) return `'${token}'`;
  return `'${token.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}
