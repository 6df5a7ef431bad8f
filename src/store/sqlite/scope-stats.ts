/**
 * Per-scope statistics of the two full-text indexes (migration 6): documents and tokens per (scope, index),
 * changed in the statement sequence that changes the index, so search can weigh words by what the caller may
 * read instead of by the whole home (I4). Token counts come from fts-tokens.ts, FTS5's tokenizer re-done.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { documentLength, type FtsIndex, type IndexedText, metaText } from '../text/document.ts';
import { scopeToken } from './rows.ts';

export { documentLength, type FtsIndex, type IndexedText, indexOf } from '../text/document.ts';

/** Both indexes with their statistics: every insert and delete goes through here, so the two cannot drift. */
export class FtsIndexes {
  readonly #insert: Record<FtsIndex, StatementSync>;
  readonly #delete: Record<FtsIndex, StatementSync>;
  readonly #bump: StatementSync;

  constructor(db: DatabaseSync) {
    const p = (sql: string) => db.prepare(sql);
    this.#insert = {
      current: p(`INSERT INTO fts_current (rowid, body, meta, scope_tok) VALUES (?, ?, ?, ?)`),
      history: p(`INSERT INTO fts_history (rowid, body, meta, scope_tok) VALUES (?, ?, ?, ?)`),
    };
    this.#delete = {
      current: p(`DELETE FROM fts_current WHERE rowid = ?`),
      history: p(`DELETE FROM fts_history WHERE rowid = ?`),
    };
    this.#bump = p(BUMP);
  }

  /** Indexes a document; its statistics go to the table, or into `totals` when a rebuild writes them at the end. */
  insert(index: FtsIndex, seq: number, doc: IndexedText, totals?: StatTotals): void {
    this.#insert[index].run(seq, doc.body, metaText(doc), scopeToken(doc.scope));
    if (totals === undefined) this.#bump.run(doc.scope, index, 1, documentLength(doc));
    else totals.add(index, doc);
  }

  /** Adds counted totals to the table: a transaction's inserts, bumped once per scope just before its COMMIT. */
  bump(totals: StatTotals): void {
    for (const t of totals.entries()) this.#bump.run(t.scope, t.index, t.docs, t.tokens);
  }

  /** Removes a document from an index if it is there; the statistics change only when it was. */
  remove(index: FtsIndex, seq: number, doc: IndexedText): void {
    if (Number(this.#delete[index].run(seq).changes) > 0) {
      this.#bump.run(doc.scope, index, -1, -documentLength(doc));
    }
  }
}

const BUMP = `INSERT INTO scope_stats (scope, idx, docs, tokens) VALUES (?, ?, ?, ?)
  ON CONFLICT (scope, idx) DO UPDATE SET docs = docs + excluded.docs, tokens = tokens + excluded.tokens`;

/** Statistics counted in memory and written at once, replacing the table: a reindex and migration 6's backfill. */
export class StatTotals {
  readonly #totals = new Map<string, { scope: string; index: FtsIndex; docs: number; tokens: number }>();

  add(index: FtsIndex, doc: IndexedText): void {
    const k = `${index} ${doc.scope}`;
    let t = this.#totals.get(k);
    if (t === undefined) {
      t = { scope: doc.scope, index, docs: 0, tokens: 0 };
      this.#totals.set(k, t);
    }
    t.docs += 1;
    t.tokens += documentLength(doc);
  }

  entries(): IterableIterator<{ scope: string; index: FtsIndex; docs: number; tokens: number }> {
    return this.#totals.values();
  }

  write(db: DatabaseSync): void {
    db.exec('DELETE FROM scope_stats');
    const insert = db.prepare(BUMP);
    for (const t of this.#totals.values()) insert.run(t.scope, t.index, t.docs, t.tokens);
  }
}

/** Documents and tokens in a set of scopes, over the given indexes: N and N × average length for bm25. */
export interface Collection {
  docs: number;
  tokens: number;
}

export function readCollection(
  prepare: (sql: string) => StatementSync,
  scopes: { exact: string[]; prefixes: string[] },
  indexes: readonly FtsIndex[],
): Collection {
  const params: Record<string, SQLInputValue> = {};
  const parts: string[] = [];
  if (scopes.exact.length > 0) {
    parts.push(`scope IN (${scopes.exact.map((_, i) => `:x${i}`).join(', ')})`);
    scopes.exact.forEach((s, i) => {
      params[`x${i}`] = s;
    });
  }
  scopes.prefixes.forEach((s, i) => {
    parts.push(`substr(scope, 1, length(:p${i})) = :p${i}`);
    params[`p${i}`] = s;
  });
  if (parts.length === 0) return { docs: 0, tokens: 0 };
  const row = prepare(
    `SELECT coalesce(sum(docs), 0) AS docs, coalesce(sum(tokens), 0) AS tokens FROM scope_stats
     WHERE idx IN (${indexes.map((i) => `'${i}'`).join(', ')}) AND (${parts.join(' OR ')})`,
  ).get(params) as { docs: number; tokens: number };
  return { docs: Number(row.docs), tokens: Number(row.tokens) };
}
