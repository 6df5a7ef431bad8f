/**
 * The search documents and their per-scope statistics on Postgres (search_docs, scope_stats), changed together
 * in the transaction that changes a memory's state, as SQLite's scope-stats.ts keeps FTS5 and scope_stats.
 */
import type { ScopeSet } from '../port.ts';
import { documentLength, type FtsIndex, type IndexedText } from '../text/document.ts';
import { documentVector } from './rows.ts';
import { one, type Param, type Q, run } from './statements.ts';

export { documentLength, type FtsIndex, type IndexedText, indexOf } from '../text/document.ts';

const BUMP = `insert into memledger.scope_stats (scope, idx, docs, tokens) values ($1, $2, $3, $4)
  on conflict (tenant, scope, idx) do update
  set docs = scope_stats.docs + excluded.docs, tokens = scope_stats.tokens + excluded.tokens`;

/** Indexes a document and counts it in its scope's statistics. */
export async function insertDoc(q: Q, index: FtsIndex, seq: number, doc: IndexedText): Promise<void> {
  await run(
    q,
    `insert into memledger.search_docs (idx, seq, scope, tsv) values ($1, $2, $3, $4::tsvector)
     on conflict do nothing`,
    [index, seq, doc.scope, documentVector(doc)],
  );
  await run(q, BUMP, [doc.scope, index, 1, documentLength(doc)]);
}

/** Removes a document if it is there; the statistics change only when it was. */
export async function removeDoc(q: Q, index: FtsIndex, seq: number, doc: IndexedText): Promise<void> {
  const gone = await run(q, `delete from memledger.search_docs where idx = $1 and seq = $2 returning 1`, [
    index,
    seq,
  ]);
  if (gone.length > 0) await run(q, BUMP, [doc.scope, index, -1, -documentLength(doc)]);
}

/** Documents and tokens in a set of scopes over the given indexes: N and N × average length for bm25. */
export async function readCollection(
  q: Q,
  scopes: ScopeSet,
  indexes: readonly FtsIndex[],
): Promise<{ docs: number; tokens: number }> {
  const params: Param[] = [indexes as unknown as string[]];
  let where = '';
  if (!scopes.all) {
    if (scopes.exact.length === 0 && scopes.prefixes.length === 0) return { docs: 0, tokens: 0 };
    params.push(scopes.exact, scopes.prefixes);
    where = ' and (scope = any($2::text[]) or scope ^@ any($3::text[]))';
  }
  const row = await one<{ docs: number; tokens: number }>(
    q,
    `select coalesce(sum(docs), 0)::float8 as docs, coalesce(sum(tokens), 0)::float8 as tokens
     from memledger.scope_stats where idx = any($1::text[])${where}`,
    params,
  );
  return { docs: Number(row?.docs ?? 0), tokens: Number(row?.tokens ?? 0) };
}
