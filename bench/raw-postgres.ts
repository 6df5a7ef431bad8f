/**
 * The raw Postgres baseline: the least a competent postgres.js program must do to store and search the same
 * memories. One plain table (every field, a unique id, the search document as a `tsvector` column) with a GIN
 * index on the document and a btree on the scope, in its own schema of the bench's database. The documents
 * hold the same tokens memledger's store indexes (src/store/postgres/rows.ts), so both sides match the same
 * rows. No validation, policy, tenancy, projections, events, statistics or audit: the ratios measure those.
 */
import type { Memory } from '../src/model/memory.ts';
import { connect, type Sql } from '../src/store/postgres/database.ts';
import { documentVector, orQuery } from '../src/store/postgres/rows.ts';
import { type Baseline, type BaselineRow, rawColumnValues } from './baseline.ts';

const COLUMNS = [
  'id',
  'scope',
  'kind',
  'key',
  'body',
  'value',
  'subjects',
  'valid_from',
  'valid_to',
  'confidence',
  'supersedes',
  'edit_of',
  'fingerprint',
  'provenance',
  'recorded_at',
  'state',
  'trust',
  'superseded_by',
  'active_from',
  'active_until',
  'confirmed_by',
  'rule',
  'tsv',
] as const;

const SCHEMA = `
create schema bench_raw;
create table bench_raw.memories (
  seq bigint generated always as identity primary key, id text not null unique, scope text not null,
  kind text not null, key text, body text not null, value text, subjects text not null, valid_from text,
  valid_to text, confidence float8 not null, supersedes text, edit_of text, fingerprint text not null,
  provenance text not null, recorded_at text not null, state text not null, trust text not null,
  superseded_by text, active_from text, active_until text, confirmed_by text, rule text, tsv tsvector not null
);
create index memories_tsv on bench_raw.memories using gin (tsv);
create index memories_scope on bench_raw.memories (scope, seq);
`;

/** Rows per COPY, so progress and memory stay bounded; each COPY is its own transaction. */
const COPY_BATCH = 10_000;

export class RawPostgres implements Baseline {
  readonly #sql: Sql;

  private constructor(sql: Sql) {
    this.#sql = sql;
  }

  /** Creates the baseline's schema in the (fresh) database at `url`; `create` false: a template's clone has it. */
  static async open(url: string, create = true): Promise<RawPostgres> {
    const sql = connect(url, { max: 2 });
    try {
      if (create) await sql.unsafe(SCHEMA);
    } catch (error) {
      await sql.end({ timeout: 5 });
      throw error;
    }
    return new RawPostgres(sql);
  }

  /** COPY of the export lines' memories (document vectors built here, as memledger builds its own). */
  async importLines(lines: AsyncIterable<string>): Promise<number> {
    let count = 0;
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const writable = await this.#sql
        .unsafe(`copy bench_raw.memories (${COLUMNS.join(', ')}) from stdin`)
        .writable();
      const done = new Promise<void>((resolve, reject) => {
        writable.on('finish', resolve);
        writable.on('error', reject);
      });
      writable.end(batch.join(''));
      await done;
      batch = [];
    };
    for await (const line of lines) {
      const doc = JSON.parse(line) as { type: string; memory: Memory };
      if (doc.type !== 'memory') continue;
      batch.push(`${values(doc.memory).map(copyField).join('\t')}\n`);
      count++;
      if (batch.length === COPY_BATCH) await flush();
    }
    await flush();
    await this.#sql`analyze bench_raw.memories`;
    return count;
  }

  /** One durable write: the row with its document in its own transaction (synchronous_commit as the server's). */
  async insertOne(memory: Memory): Promise<void> {
    const v = values(memory);
    await this.#sql.begin(async (tx) => {
      await tx.unsafe(
        `insert into bench_raw.memories (${COLUMNS.join(', ')})
         values (${COLUMNS.map((c, i) => `$${i + 1}${c === 'tsv' ? '::tsvector' : ''}`).join(', ')})`,
        v,
      );
    });
  }

  /** Top ten rows matching any of `terms` in `scope` (every scope when null), by ts_rank. */
  search(terms: readonly string[], scope: string | null): Promise<BaselineRow[]> {
    return this.#top(terms, scope === null ? null : [scope], 10);
  }

  searchIn(terms: readonly string[], scopes: readonly string[], limit: number): Promise<BaselineRow[]> {
    return this.#top(terms, scopes, limit);
  }

  async close(): Promise<void> {
    await this.#sql.end({ timeout: 5 });
  }

  async #top(
    terms: readonly string[],
    scopes: readonly string[] | null,
    limit: number,
  ): Promise<BaselineRow[]> {
    const query = orQuery(terms);
    if (query === null) return [];
    const columns = COLUMNS.filter((c) => c !== 'tsv').join(', ');
    if (scopes === null) {
      return this.#sql.unsafe(
        `select seq, ${columns}, ts_rank(tsv, q) as score from bench_raw.memories, cast($1 as tsquery) q
         where tsv @@ q order by score desc limit $2`,
        [query, limit],
      );
    }
    return this.#sql.unsafe(
      `select seq, ${columns}, ts_rank(tsv, q) as score from bench_raw.memories, cast($1 as tsquery) q
       where scope = any($2::text[]) and tsv @@ q order by score desc limit $3`,
      [query, scopes as string[], limit],
    );
  }
}

/** A memory's column values in COLUMNS order, the document last. */
function values(m: Memory): (string | number | null)[] {
  return [...rawColumnValues(m), documentVector(m)];
}

/** One field of COPY's text format: `\N` for null, backslash, tab, newline and carriage return escaped. */
function copyField(v: string | number | null): string {
  if (v === null) return '\\N';
  return String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}
