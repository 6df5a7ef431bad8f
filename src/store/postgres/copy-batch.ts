/**
 * A restore batch's memories and events written by COPY: held in the client while the batch's lines run, then
 * COPY'd into temporary tables of the transaction and moved by one INSERT … SELECT per target table (the rows,
 * subjects, search documents, scope statistics and events the per-line statements of insert-memory.ts and
 * tx.ts write, the same rows in the same order). A row a unique index refuses is skipped by `on conflict do
 * nothing` and counted: the caller then replays the batch line by line, which names the winner.
 */
import { finished } from 'node:stream/promises';
import type { MemoryEvent } from '../../model/event.ts';
import { type NewMemory, ReplayLineByLine } from '../port.ts';
import { indexOf } from '../text/document.ts';
import { EVENT_COLUMNS, eventValues, INSERT_COLUMNS } from '../memory-columns.ts';
import { foldedKey } from './folded-key.ts';
import { indexedDocument, insertParams } from './rows.ts';
import type { Q } from './statements.ts';

type Cell = string | number | null;

const RESERVED = /[\\\t\n\r]/;

/** One COPY text-format field: `\N` for null, backslash escapes for the characters the format reserves. */
function field(v: Cell): string {
  if (v === null) return '\\N';
  const text = typeof v === 'string' ? v : String(v);
  // Most fields have none of them: one test instead of four replacements (28 fields a row).
  if (!RESERVED.test(text)) return text;
  return text.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}

const line = (cells: Cell[]) => `${cells.map(field).join('\t')}\n`;

// The staging tables take the target columns' types (all text but confidence) from the tables themselves.
// They live as long as the connection and are emptied at every COMMIT (and a ROLLBACK takes their rows back),
// so a pooled connection never hands rows on (pg-copy-staging.test.ts): made once per connection instead of
// made and dropped by every batch (two tables' catalog rows each time: 12 ms of a batch's wall under load).
const CREATE = [
  `create temp table if not exists ml_copy_memories on commit delete rows as
    select 0::int as ord, ${INSERT_COLUMNS.join(', ')}, null::text as idx, null::text as tsv, null::bigint as tokens
    from memledger.memories with no data`,
  `create temp table if not exists ml_copy_events on commit delete rows as
    select 0::int as ord, ${EVENT_COLUMNS.join(', ')} from memledger.events with no data`,
];

const MEMORY_STAGE = ['ord', ...INSERT_COLUMNS, 'idx', 'tsv', 'tokens'];

// One statement: the rows (in line order, so their seqs are in the order the per-line path gives them), then
// the subjects, documents and statistics of the rows that landed, as data-modifying CTEs. `c` keeps only the
// columns they read: with every column, 5,000 rows outgrew work_mem and went to a temporary file.
const MOVE_MEMORIES = `with m as (
    insert into memledger.memories (${INSERT_COLUMNS.join(', ')})
    select ${INSERT_COLUMNS.join(', ')} from ml_copy_memories order by ord
    on conflict do nothing returning seq, id),
  c as (select m.seq, t.ord, t.scope, t.subjects, t.idx, t.tsv, t.tokens from m join ml_copy_memories t on t.id = m.id),
  s as (insert into memledger.memory_subjects (subject, memory_seq)
    select e.subject, c.seq from c cross join lateral jsonb_array_elements_text(c.subjects::jsonb) with ordinality e(subject, n)
    order by c.ord, e.n on conflict do nothing),
  d as (insert into memledger.search_docs (idx, seq, scope, tsv)
    select c.idx, c.seq, c.scope, c.tsv::tsvector from c where c.idx is not null order by c.ord returning 1),
  b as (insert into memledger.scope_stats (scope, idx, docs, tokens)
    select c.scope, c.idx, count(*), sum(c.tokens) from c where c.idx is not null
    group by c.scope, c.idx
    on conflict (tenant, scope, idx) do update
    set docs = scope_stats.docs + excluded.docs, tokens = scope_stats.tokens + excluded.tokens)
  select (select count(*) from m)::int as landed`;

const MOVE_EVENTS = `insert into memledger.events (${EVENT_COLUMNS.join(', ')})
  select ${EVENT_COLUMNS.join(', ')} from ml_copy_events order by ord`;

export class CopyBatch {
  #memories: string[] = [];
  #events: string[] = [];
  readonly #ids = new Set<string>();
  readonly #eventIds = new Set<string>();
  /** Buffered active keyed memories, as `scope \0 lower(key)`: what a holder lookup must see first. */
  readonly #keys = new Set<string>();
  #unicodeKey = false;
  #created = false;
  /** A held memory a unique index refused, or a failed write: the batch is replayed line by line (`check`). */
  #replay: ReplayLineByLine | null = null;
  /** The drain in flight, or null. */
  #draining: Promise<void> | null = null;

  get pending(): boolean {
    return this.#memories.length > 0 || this.#events.length > 0;
  }

  hasMemory(id: string): boolean {
    return this.#ids.has(id);
  }

  hasEvent(id: string): boolean {
    return this.#eventIds.has(id);
  }

  /** True when a buffered memory could hold (scope, key); any non-ASCII key says yes (JS and SQL lower may differ). */
  mayHold(scope: string, key: string): boolean {
    if (this.#keys.size === 0) return false;
    const folded = foldedKey(scope, key);
    return this.#unicodeKey || folded === null || this.#keys.has(folded);
  }

  addMemory(memory: NewMemory): void {
    const row = insertParams(memory);
    const index = indexOf(memory.state, memory.activeFrom);
    const cells: Cell[] = [this.#memories.length, ...INSERT_COLUMNS.map((c) => row[c] ?? null)];
    if (index === null) cells.push(null, null, null);
    else {
      const doc = indexedDocument(memory);
      cells.push(index, doc.vector, doc.length);
    }
    this.#memories.push(line(cells));
    this.#ids.add(memory.id);
    if (memory.state === 'active' && memory.key !== null) {
      const folded = foldedKey(memory.scope, memory.key);
      if (folded === null) this.#unicodeKey = true;
      else this.#keys.add(folded);
    }
  }

  addEvent(event: MemoryEvent): void {
    this.#events.push(line([this.#events.length, ...eventValues(event)]));
    this.#eventIds.add(event.id);
  }

  /**
   * Writes the held rows (before any statement that could read or depend on them). A refusal is remembered,
   * not thrown, so a line that merely read is never reported failed for a neighbour's conflict: the whole
   * batch is replayed at `check`. A server error is thrown, and found again at COMMIT (the transaction is
   * aborted).
   */
  async drain(q: Q): Promise<void> {
    // One drain at a time: a caller may start several lookups at once (remember does), and a statement sent
    // while a COPY streams would break it, or run before the held rows it should see are in.
    while (this.#draining !== null) await this.#draining;
    if (!this.pending) return;
    const draining = this.#drainNow(q);
    this.#draining = draining;
    try {
      await draining;
    } finally {
      this.#draining = null;
    }
  }

  /** Resolves once no drain is in flight (its failure is the drain's caller's to report). */
  async settled(): Promise<void> {
    while (this.#draining !== null) await this.#draining.catch(() => undefined);
  }

  async #drainNow(q: Q): Promise<void> {
    try {
      const refused = await this.#write(q);
      if (refused > 0) this.#replay ??= new ReplayLineByLine(`${refused} held memories were refused`);
    } catch (error) {
      this.#replay ??= new ReplayLineByLine('a copied batch failed', { cause: error });
      throw error;
    }
  }

  /** Before COMMIT is sent: a refusal found after it would not stop the batch landing (at-once.ts). */
  check(): void {
    if (this.#replay !== null) throw this.#replay;
  }

  /** Writes and empties the buffer; returns how many memories a unique index refused (with their projections). */
  async #write(q: Q): Promise<number> {
    const memories = this.#memories;
    const events = this.#events;
    this.#memories = [];
    this.#events = [];
    this.#ids.clear();
    this.#eventIds.clear();
    this.#keys.clear();
    this.#unicodeKey = false;
    if (memories.length === 0 && events.length === 0) return 0;
    if (!this.#created) {
      // One round trip (a simple query may hold several statements). JIT off for the batch's transaction: the
      // staging tables have no statistics, so the planner guesses their rows from their size and each subject
      // array at 100 elements; a batch of long lines crosses jit_above_cost, and compiling the move cost
      // 685 ms of a 5,000-line batch's 910 (auto_explain), server CPU 0.19 ms per line where 0.055 without.
      await q.unsafe(`${CREATE.join(';\n')};\nset local jit = off`).simple();
      this.#created = true;
    } else {
      // Not TRUNCATE: on a table made before this transaction it would make new files and catalog rows.
      await q.unsafe('delete from ml_copy_memories');
      await q.unsafe('delete from ml_copy_events');
    }
    let refused = 0;
    if (memories.length > 0) {
      await copyIn(q, `copy ml_copy_memories (${MEMORY_STAGE.join(', ')}) from stdin`, memories);
      const [{ landed }] = (await q.unsafe(MOVE_MEMORIES)) as unknown as [{ landed: number }];
      refused = memories.length - landed;
    }
    if (events.length > 0) {
      await copyIn(q, `copy ml_copy_events (ord, ${EVENT_COLUMNS.join(', ')}) from stdin`, events);
      await q.unsafe(MOVE_EVENTS);
    }
    return refused;
  }
}

async function copyIn(q: Q, text: string, lines: string[]): Promise<void> {
  const stream = await q.unsafe(text).writable();
  // One write per 256 lines: a chunk per line would be a socket write each.
  for (let i = 0; i < lines.length; i += 256) stream.write(lines.slice(i, i + 256).join(''));
  stream.end();
  await finished(stream);
}
