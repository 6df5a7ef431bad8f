/**
 * What a memory contributes to full-text search, whatever the engine: the columns it is indexed under (body,
 * meta text, scope token), its length as bm25 counts it, and which index holds it. SQLite's FTS5 and Postgres's
 * tsvector index the same documents, so their matches and scores agree.
 */
import type { Memory } from '../../model/memory.ts';
import { countTokens } from './fts-tokens.ts';

export type FtsIndex = 'current' | 'history';

/** What a memory puts into the index: its body, the meta column (key, subjects, value) and its scope token. */
export type IndexedText = Pick<Memory, 'scope' | 'body' | 'key' | 'subjects' | 'value'>;

/**
 * Which index holds a memory: the current one every active memory, the history one every version that was
 * current once (it landed) and is not now, unless erased. The store keeps the indexes to this rule.
 */
export function indexOf(state: string, activeFrom: string | null): FtsIndex | null {
  if (state === 'active') return 'current';
  return activeFrom !== null && state !== 'erased' ? 'history' : null;
}

/** A document's length as FTS5's bm25 counts it: the tokens of every column, the scope token's one included. */
export function documentLength(doc: IndexedText): number {
  return countTokens(doc.body) + countTokens(metaText(doc)) + 1;
}

/** Searchable text besides the body: the key's words, the subjects and the string leaves of the value. */
export function metaText(m: Pick<Memory, 'key' | 'subjects' | 'value'>): string {
  const parts: string[] = [];
  if (m.key !== null) parts.push(m.key);
  parts.push(...m.subjects);
  collectStrings(m.value, parts, 0);
  return parts.join(' ').slice(0, 20_000);
}

function collectStrings(value: unknown, out: string[], depth: number): void {
  if (depth > 6 || value === null || value === undefined) return;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out, depth + 1);
  else if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      collectStrings(v, out, depth + 1);
    }
  }
}
