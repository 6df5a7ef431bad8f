/**
 * The raw baseline: the least a competent node:sqlite program must do to store and search the same memories.
 * One plain table (all the fields, a unique id) and one FTS5 index configured like memledger's (same
 * tokenizer, same columns with the scope token inside the document, same bm25 weights). No validation,
 * policy, projections, events, second index or audit: that difference is what the ratios measure.
 */
import { createHash } from 'node:crypto';
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import { newId } from '../src/model/ids.ts';
import type { Memory } from '../src/model/memory.ts';
import { openDatabase } from '../src/store/sqlite/database.ts';
import { type Baseline, rawColumnValues } from './baseline.ts';

const SCHEMA = `
CREATE TABLE raw_memories (
  seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, scope TEXT NOT NULL, kind TEXT NOT NULL, key TEXT,
  body TEXT NOT NULL, value TEXT, subjects TEXT NOT NULL, valid_from TEXT, valid_to TEXT, confidence REAL NOT NULL,
  supersedes TEXT, edit_of TEXT, fingerprint TEXT NOT NULL, provenance TEXT NOT NULL, recorded_at TEXT NOT NULL,
  state TEXT NOT NULL, trust TEXT NOT NULL, superseded_by TEXT, active_from TEXT, active_until TEXT,
  confirmed_by TEXT, rule TEXT
);
CREATE VIRTUAL TABLE raw_fts USING fts5(body, meta, scope_tok, content='', contentless_delete=1,
  tokenize='porter unicode61 remove_diacritics 2');
INSERT INTO raw_fts(raw_fts, rank) VALUES ('rank', 'bm25(1.0, 0.5, 0.0)');
`;

/** A plain import line as the bench writes it (`Dataset.rememberInput`). */
interface PlainLine {
  body: string;
  scope: string;
  kind?: Memory['kind'];
  key?: string;
  value?: Memory['value'];
  subjects?: string[];
  validFrom?: string;
  confidence?: number;
}

/** Rows per transaction in the bulk load, as memledger's import batches. */
const BATCH = 1_000;

export class RawStore implements Baseline {
  readonly path: string;
  readonly #db: DatabaseSync;
  readonly #insert: StatementSync;
  readonly #ftsInsert: StatementSync;
  readonly #search: StatementSync;
  readonly #searchTop: StatementSync;
  readonly #tokens = new Map<string, string>();

  constructor(path: string) {
    this.path = path;
    // memledger's own opener, so both sides run with the same pragmas (WAL, synchronous, page cache, temp
    // store). Only secure_delete stays off: memledger's store adds it for erasure (I9), a cost of its own.
    this.#db = openDatabase(path, [{ version: 1, name: 'raw baseline', sql: SCHEMA }]);
    this.#insert = this.#db.prepare(
      `INSERT INTO raw_memories (id, scope, kind, key, body, value, subjects, valid_from, valid_to, confidence,
         supersedes, edit_of, fingerprint, provenance, recorded_at, state, trust, superseded_by, active_from,
         active_until, confirmed_by, rule)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#ftsInsert = this.#db.prepare(
      'INSERT INTO raw_fts (rowid, body, meta, scope_tok) VALUES (?, ?, ?, ?)',
    );
    // The same shape as memledger's candidate query: rank inside the index, then fetch the rows.
    this.#search = this.#db.prepare(
      `SELECT r.*, f.score FROM (SELECT rowid, rank AS score FROM raw_fts WHERE raw_fts MATCH ? ORDER BY rank LIMIT 10) f
       JOIN raw_memories r ON r.seq = f.rowid ORDER BY f.score`,
    );
    this.#searchTop = this.#db.prepare(
      `SELECT r.*, f.score FROM (SELECT rowid, rank AS score FROM raw_fts WHERE raw_fts MATCH ? ORDER BY rank LIMIT ?) f
       JOIN raw_memories r ON r.seq = f.rowid ORDER BY f.score`,
    );
  }

  /** Loads export lines in transactions of a thousand. Returns how many memories landed. */
  importLines(lines: AsyncIterable<string>): Promise<number> {
    return this.#load(lines, (doc) => {
      const line = doc as { type: string; memory: Memory };
      return line.type === 'memory' ? line.memory : null;
    });
  }

  async #load(lines: AsyncIterable<string>, toMemory: (doc: unknown) => Memory | null): Promise<number> {
    let count = 0;
    let inBatch = 0;
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      for await (const line of lines) {
        const memory = toMemory(JSON.parse(line));
        if (memory === null) continue;
        this.#put(memory);
        count++;
        if (++inBatch === BATCH) {
          this.#db.exec('COMMIT');
          this.#db.exec('BEGIN IMMEDIATE');
          inBatch = 0;
        }
      }
      this.#db.exec('COMMIT');
    } catch (error) {
      if (this.#db.isTransaction) this.#db.exec('ROLLBACK');
      throw error;
    }
    return count;
  }

  /**
   * Loads plain lines (`{body, scope, …}`, no id) in transactions of a thousand, filling in what a bare program
   * must: an id, the time, a fixed provenance, the landed state. Returns how many landed.
   */
  async importPlainLines(lines: AsyncIterable<string>): Promise<number> {
    const at = new Date().toISOString();
    const provenance = { principal: 'human:operator', principalKind: 'human', surface: 'library' } as const;
    const toMemory = (p: PlainLine): Memory => ({
      id: newId('mem'),
      scope: p.scope,
      kind: p.kind ?? 'fact',
      key: p.key ?? null,
      body: p.body,
      value: p.value ?? null,
      subjects: p.subjects ?? [],
      validFrom: p.validFrom ?? null,
      validTo: null,
      validStart: p.validFrom ?? null,
      validEnd: null,
      confidence: p.confidence ?? 1,
      supersedes: null,
      editOf: null,
      fingerprint: '',
      provenance,
      recordedAt: at,
      state: 'active',
      trust: 'confirmed',
      supersededBy: null,
      activeFrom: at,
      activeUntil: null,
      confirmedBy: provenance.principal,
      rule: null,
    });
    return this.#load(lines, (doc) => toMemory(doc as PlainLine));
  }

  /** One durable write: the row and its index entry in their own transaction. */
  insertOne(memory: Memory): void {
    this.#db.exec('BEGIN IMMEDIATE');
    try {
      this.#put(memory);
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Top ten rows for any of `terms`, in `scope` when given (the scope token intersects the posting lists). */
  search(terms: readonly string[], scope: string | null): Record<string, SQLInputValue>[] {
    const any = terms.map((t) => `"${t}"`).join(' OR ');
    const match = scope === null ? any : `scope_tok:${this.scopeToken(scope)} AND (${any})`;
    return this.#search.all(match);
  }

  /**
   * Top `limit` rows for any of `terms` in any of `scopes`, in memledger's match shape
   * (`scope_tok : (A OR B) AND (...)`): the candidates a context block's relevant pool reads.
   */
  searchIn(
    terms: readonly string[],
    scopes: readonly string[],
    limit: number,
  ): Record<string, SQLInputValue>[] {
    return this.#searchTop.all(
      scopedMatch(
        terms,
        scopes.map((s) => this.scopeToken(s)),
      ),
      limit,
    );
  }

  scopeToken(scope: string): string {
    let tok = this.#tokens.get(scope);
    if (tok === undefined) {
      tok = `sc${createHash('sha256').update(scope).digest('hex').slice(0, 16)}`;
      this.#tokens.set(scope, tok);
    }
    return tok;
  }

  count(): number {
    return Number((this.#db.prepare('SELECT count(*) AS n FROM raw_memories').get() as { n: number }).n);
  }

  close(): void {
    this.#db.close();
  }

  #put(m: Memory): void {
    const seq = this.#insert.run(...rawColumnValues(m)).lastInsertRowid;
    this.#ftsInsert.run(seq, m.body, metaText(m), this.scopeToken(m.scope));
  }
}

/** `scope_tok : (A OR B) AND ("a" OR "b" OR "c")`: every term quoted, as memledger builds its match. */
export function scopedMatch(terms: readonly string[], scopeTokens: readonly string[]): string {
  return `scope_tok : (${scopeTokens.join(' OR ')}) AND (${terms.map((t) => `"${t}"`).join(' OR ')})`;
}

/** The key, the subjects and the value's strings: the same searchable text memledger puts beside the body. */
function metaText(m: Pick<Memory, 'key' | 'subjects' | 'value'>): string {
  const parts: string[] = m.key === null ? [...m.subjects] : [m.key, ...m.subjects];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') parts.push(v);
    else if (typeof v === 'number' || typeof v === 'boolean') parts.push(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        parts.push(k);
        walk(x);
      }
    }
  };
  walk(m.value);
  return parts.join(' ');
}
