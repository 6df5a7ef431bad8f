/**
 * A new memory on Postgres in one statement: the row, its subjects, its search document and its scope's
 * statistics, as data-modifying CTEs of one INSERT (one round trip where there were six: a savepoint, the row,
 * its release, the subjects, the document, the statistics; measured in bench/pg-profile.ts).
 */
import { MemoryError } from '../../model/errors.ts';
import { type NewMemory, ReplayLineByLine } from '../port.ts';
import { indexOf } from '../text/document.ts';
import type { TxSql } from './database.ts';
import { indexedDocument, insertParams } from './rows.ts';
import { one, type Param, send } from './statements.ts';
import { uniqueWrite } from './unique-writes.ts';
import { INSERT_COLUMNS } from '../memory-columns.ts';

const VALUES = INSERT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ');

/** The plain row insert: a unique index refuses it with its own name (the conflict's diagnosis, tx.ts). */
export const INSERT_MEMORY = `insert into memledger.memories (${INSERT_COLUMNS.join(', ')})
  values (${VALUES}) returning seq::float8 as seq`;

const N = INSERT_COLUMNS.length;

/**
 * The statement's text for a memory with or without a search document (two variants, each prepared once per
 * connection). `on conflict do nothing` on the row: a unique index that refuses it (I2, the
 * key holder, the id) leaves no row and nothing else written, and the transaction usable, without a savepoint;
 * the caller then replays the plain insert in a savepoint to name the rule that refused it.
 */
function insertText(indexed: boolean, strict: boolean): string {
  const ctes = [
    `m as (insert into memledger.memories (${INSERT_COLUMNS.join(', ')}) values (${VALUES})
       ${strict ? '' : 'on conflict do nothing '}returning seq)`,
    // An empty array inserts nothing.
    `s as (insert into memledger.memory_subjects (subject, memory_seq)
       select unnest($${N + 1}::text[]), m.seq from m where true on conflict do nothing)`,
  ];
  if (indexed) {
    const at = N + 2;
    ctes.push(
      `d as (insert into memledger.search_docs (idx, seq, scope, tsv)
         select $${at}::text, m.seq, $2, $${at + 1}::tsvector from m returning 1)`,
      `b as (insert into memledger.scope_stats (scope, idx, docs, tokens)
         select $2, $${at}::text, 1, $${at + 2}::bigint from d where true
         on conflict (tenant, scope, idx) do update
         set docs = scope_stats.docs + excluded.docs, tokens = scope_stats.tokens + excluded.tokens)`,
    );
  }
  return `with ${ctes.join(',\n')} select seq::float8 as seq from m`;
}

const TEXTS = {
  indexed: insertText(true, false),
  plain: insertText(false, false),
  strictIndexed: insertText(true, true),
  strictPlain: insertText(false, true),
};

/**
 * The statement and its parameters for one new memory. `strict`: without `on conflict do nothing`, so a unique
 * index that refuses the row fails the statement and aborts the transaction on the server, and a COMMIT sent
 * behind it without waiting rolls back (tx.ts, sent without waiting).
 */
export function insertMemoryStatement(memory: NewMemory, strict = false): { text: string; params: Param[] } {
  const row = insertParams(memory);
  const params = INSERT_COLUMNS.map((c) => row[c] ?? null) as Param[];
  params.push([...memory.subjects]);
  const index = indexOf(memory.state, memory.activeFrom);
  if (index === null) return { text: strict ? TEXTS.strictPlain : TEXTS.plain, params };
  const doc = indexedDocument(memory);
  params.push(index, doc.vector, doc.length);
  return { text: strict ? TEXTS.strictIndexed : TEXTS.indexed, params };
}

/**
 * An import batch's insert, sent without waiting: a refusal (no row) or a failure rejects with
 * ReplayLineByLine, awaited before COMMIT, and the batch is replayed line by line.
 */
export function sendChecked(q: TxSql, memory: NewMemory): Promise<void> {
  const { text, params } = insertMemoryStatement(memory);
  return send(q, text, params).then(
    (rows) => {
      if ((rows as unknown[]).length === 0) throw new ReplayLineByLine(`memory ${memory.id} was refused`);
    },
    (error: unknown) => {
      throw new ReplayLineByLine(`memory ${memory.id} failed`, { cause: error });
    },
  );
}

/** The insert, waited for; a refusal is a `conflict` naming the winner. */
export async function insertWaiting(q: TxSql, memory: NewMemory): Promise<void> {
  const { text, params } = insertMemoryStatement(memory);
  if ((await one<{ seq: number }>(q, text, params)) !== undefined) return;
  // A unique index refused the row (and so everything else in the statement): the plain insert in a savepoint
  // fails the same way and names the index, which says who won (I2, the key holder).
  const values = INSERT_COLUMNS.map((c) => insertParams(memory)[c] ?? null) as Param[];
  await uniqueWrite(
    q,
    (sp) => one<{ seq: number }>(sp, INSERT_MEMORY, values),
    memory.scope,
    memory.key,
    memory.supersedes,
  );
  throw new MemoryError('internal', `memory ${memory.id} was refused by a unique index, then accepted`);
}
