/**
 * The search documents and their per-scope statistics on Postgres (search_docs, scope_stats), changed together
 * in the transaction that changes a memory's state, as SQLite's scope-stats.ts keeps FTS5 and scope_stats.
 */
import { documentLength, type FtsIndex, type IndexedText } from '../text/document.ts';
import { documentVector } from './rows.ts';
import { type Q, send } from './statements.ts';

export { documentLength, type FtsIndex, type IndexedText, indexOf } from '../text/document.ts';

const BUMP = `insert into memledger.scope_stats (scope, idx, docs, tokens)
  select $3::text, $1::text, $4::bigint, $5::bigint from changed where true
  on conflict (tenant, scope, idx) do update
  set docs = scope_stats.docs + excluded.docs, tokens = scope_stats.tokens + excluded.tokens`;

// One statement each (a CTE), so the document and its statistics change in one round trip, and only together
// (`where true` keeps `from changed on conflict` from parsing as a join's ON). search_docs' RLS is not forced on
// its owner (migration 11), so the delete names the tenant itself; the insert's tenant is the column default.
const INSERT_DOC = `with changed as (
    insert into memledger.search_docs (idx, seq, scope, tsv) values ($1, $2, $3, $6::tsvector)
    on conflict do nothing returning 1)
  ${BUMP}`;
const REMOVE_DOC = `with changed as (
    delete from memledger.search_docs
    where tenant = current_setting('memledger.tenant', true) and idx = $1 and seq = $2 returning 1)
  ${BUMP}`;

/**
 * Indexes a document and counts it in its scope's statistics. The statement is sent at once; the promise is its
 * completion (a transaction may go on without waiting: see `send`).
 */
export function insertDoc(q: Q, index: FtsIndex, seq: number, doc: IndexedText): Promise<unknown> {
  return send(q, INSERT_DOC, [index, seq, doc.scope, 1, documentLength(doc), documentVector(doc)]);
}

/** Removes a document if it is there; the statistics change only when it was. Sent as insertDoc is. */
export function removeDoc(q: Q, index: FtsIndex, seq: number, doc: IndexedText): Promise<unknown> {
  return send(q, REMOVE_DOC, [index, seq, doc.scope, -1, -documentLength(doc)]);
}

/** Every document of the transaction's tenant (reindex), named by tenant as REMOVE_DOC is. */
export function removeAllDocs(q: Q): Promise<unknown> {
  return send(
    q,
    `delete from memledger.search_docs where tenant = current_setting('memledger.tenant', true)`,
  );
}
