/** Vectors and the embedding queue on SQLite (migrations 14, 16): an in-process int8 scan of the plan's scopes. */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { cosine, int8View } from '../../embed/int8.ts';
import type { Trust } from '../../model/memory.ts';
import type { ScopeSet, SearchFields } from '../port.ts';
import type {
  PendingText,
  StoredVector,
  VectorCounts,
  VectorMatches,
  VectorPlan,
  VectorStore,
} from '../vectors-port.ts';
import { addFilters, readsHistory, scopeCondition } from './search.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;
/** The store's write transaction (BEGIN IMMEDIATE), shared with every other write of the home. */
type Write = <T>(fn: () => T) => Promise<T>;

/** One scanned vector: the memory's seq, the vector's norm and its int8 bytes. */
type ScanRow = [number, number, Uint8Array];

interface FieldsRow {
  id: string;
  scope: string;
  key: string | null;
  body: string;
  subjects: string;
  trust: string;
  confidence: number;
  active_from: string | null;
  recorded_at: string;
}

export class SqliteVectorStore implements VectorStore {
  readonly #db: DatabaseSync;
  readonly #serial: Serial;
  readonly #write: Write;

  constructor(db: DatabaseSync, serial: Serial, write: Write) {
    this.#db = db;
    this.#serial = serial;
    this.#write = write;
  }

  nearest(plan: VectorPlan): Promise<VectorMatches> {
    return this.#serial(async () => {
      const where: string[] = ['v.model = :model'];
      const params: Record<string, SQLInputValue> = { model: plan.model };
      // The scope restriction is in the scan itself: a memory the caller cannot read is never scored (I4).
      const scopes = plan.scopes.all
        ? { toks: null, exact: [], prefixes: [] }
        : { toks: [], exact: plan.scopes.exact, prefixes: plan.scopes.prefixes };
      addFilters(where, params, plan, scopes, true);
      if (!readsHistory(plan)) where.push("m.state = 'active'");
      // By seq, not id: with no other filter the active-scope index (scope, seq) covers the memories side, so a
      // scope's vectors, contiguous under their (scope, seq, model) key, are read without any memories row.
      const select = `SELECT m.seq, v.norm, v.vec FROM memories m
             JOIN memory_vectors v ON v.scope = m.scope AND v.memory_seq = m.seq WHERE ${where.join(' AND ')}`;
      const wanted = this.#idsBySeq('id', plan.ids);
      let rows: ScanRow[];
      if (plan.scan === undefined) rows = this.#scan(select, params);
      else {
        // The newest `scan` memories, then the text candidates' own vectors (the same filters), each once.
        const newest = this.#scan(`${select} ORDER BY m.seq DESC LIMIT :scan`, {
          ...params,
          scan: plan.scan,
        });
        const seen = new Set(newest.map((r) => r[0]));
        const own = this.#scan(`${select} AND m.seq IN (SELECT value FROM json_each(:seqs))`, {
          ...params,
          seqs: JSON.stringify([...wanted.keys()].filter((seq) => !seen.has(seq))),
        });
        rows = newest.concat(own);
      }
      const sims = new Float64Array(rows.length);
      const similarities = new Map<string, number>();
      for (let i = 0; i < rows.length; i++) {
        const r = rows[i]!;
        const similarity = cosine(plan.query, int8View(r[2]), r[1]);
        sims[i] = similarity;
        const id = wanted.get(r[0]);
        if (id !== undefined) similarities.set(id, similarity);
      }
      const { above, tied, need } = bestIndices(sims, plan.k);
      let chosen = above.map((i) => rows[i]![0]);
      if (tied.length <= need) chosen = chosen.concat(tied.map((i) => rows[i]![0]));
      else {
        // More memories share the k-th similarity than places remain: the smaller ids win, as keepTop's tie order.
        const ids = this.#idsBySeq(
          'seq',
          tied.map((i) => rows[i]![0]),
        );
        const byId = tied.map((i) => rows[i]![0]).sort((a, b) => (ids.get(a)! < ids.get(b)! ? -1 : 1));
        chosen = chosen.concat(byId.slice(0, need));
      }
      const simOf = new Map(rows.map((r, i) => [r[0], sims[i]!]));
      const fields = this.#fields(chosen);
      const nearest = chosen
        .flatMap((seq) => {
          const memory = fields.get(seq);
          return memory === undefined ? [] : [{ memory, similarity: simOf.get(seq)! }];
        })
        .sort(
          (a, b) =>
            b.similarity - a.similarity ||
            (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0),
        );
      return { nearest, similarities };
    });
  }

  /** A scan's rows as arrays (seq, norm, vec): no object per row. */
  #scan(sql: string, params: Record<string, SQLInputValue>): ScanRow[] {
    const statement = this.#db.prepare(sql);
    statement.setReturnArrays(true);
    return statement.all(params) as unknown as ScanRow[];
  }

  /** seq → id of the memories named by id (`by: 'id'`) or by seq. */
  #idsBySeq(by: 'id' | 'seq', keys: readonly (string | number)[]): Map<number, string> {
    if (keys.length === 0) return new Map();
    const rows = this.#db
      .prepare(`SELECT seq, id FROM memories WHERE ${by} IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(keys)) as { seq: number; id: string }[];
    return new Map(rows.map((r) => [r.seq, r.id]));
  }

  pending(limit: number, scopes?: ScopeSet): Promise<PendingText[]> {
    return this.#serial(async () => {
      const params: Record<string, SQLInputValue> = { limit };
      const rows = this.#db
        .prepare(
          `SELECT q.memory_id AS id, m.body AS body, m.state AS state FROM embed_queue q
             LEFT JOIN memories m ON m.id = q.memory_id${inScopes(scopes, params)} ORDER BY q.seq LIMIT :limit`,
        )
        .all(params) as { id: string; body: string | null; state: string | null }[];
      return rows
        .filter((r) => r.state !== null && r.state !== 'erased')
        .map((r) => ({ id: r.id, text: r.body ?? '' }));
    });
  }

  put(model: string, vectors: readonly StoredVector[]): Promise<number> {
    return this.#serial(() =>
      this.#write(() => {
        // The home keeps this model's vectors from now on: its writes are queued (migration 16).
        this.#db.prepare('INSERT OR IGNORE INTO embed_models (model) VALUES (?)').run(model);
        // INSERT … SELECT from the memory row: one erased since it was read from the queue gets no vector.
        const insert = this.#db.prepare(
          `INSERT OR REPLACE INTO memory_vectors (scope, memory_seq, model, dims, norm, vec)
             SELECT scope, seq, ?, ?, ?, ? FROM memories WHERE id = ? AND state <> 'erased'`,
        );
        const dequeue = this.#db.prepare('DELETE FROM embed_queue WHERE memory_id = ?');
        let landed = 0;
        for (const v of vectors) {
          const bytes = new Uint8Array(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength);
          landed += Number(insert.run(model, v.bytes.length, v.norm, bytes, v.memoryId).changes);
          dequeue.run(v.memoryId);
        }
        return landed;
      }),
    );
  }

  enqueueMissing(model: string): Promise<number> {
    return this.#serial(() =>
      this.#write(() => {
        // Recorded first, in the same transaction: a memory written after it commits is queued by the trigger.
        this.#db.prepare('INSERT OR IGNORE INTO embed_models (model) VALUES (?)').run(model);
        const { changes } = this.#db
          .prepare(
            `INSERT OR IGNORE INTO embed_queue (memory_id, scope)
               SELECT m.id, m.scope FROM memories m WHERE m.state <> 'erased' AND NOT EXISTS
                 (SELECT 1 FROM memory_vectors v WHERE v.scope = m.scope AND v.memory_seq = m.seq AND v.model = ?)
               ORDER BY m.seq`,
          )
          .run(model);
        return Number(changes);
      }),
    );
  }

  async watch(model: string): Promise<number> {
    const known = await this.#serial(
      async () =>
        this.#db.prepare('SELECT 1 AS x FROM embed_models WHERE model = ?').get(model) !== undefined,
    );
    return known ? 0 : this.enqueueMissing(model);
  }

  counts(model: string): Promise<VectorCounts> {
    return this.#serial(async () => {
      const vectors = this.#db
        .prepare('SELECT count(*) AS n FROM memory_vectors WHERE model = ?')
        .get(model) as { n: number };
      const pending = this.#db.prepare('SELECT count(*) AS n FROM embed_queue').get() as { n: number };
      return { vectors: Number(vectors.n), pending: Number(pending.n) };
    });
  }

  queued(scopes?: ScopeSet): Promise<number> {
    return this.#serial(async () => {
      const params: Record<string, SQLInputValue> = {};
      const where = inScopes(scopes, params);
      // In scopes, the memories a search can find (active): a held or rejected one waits too, unseen.
      const sql =
        where === ''
          ? 'SELECT count(*) AS n FROM embed_queue q'
          : `SELECT count(*) AS n FROM embed_queue q JOIN memories m ON m.id = q.memory_id${where}
               AND m.state = 'active'`;
      const r = this.#db.prepare(sql).get(params) as { n: number };
      return Number(r.n);
    });
  }

  #fields(seqs: number[]): Map<number, SearchFields> {
    if (seqs.length === 0) return new Map();
    const rows = this.#db
      .prepare(
        `SELECT seq, id, scope, key, body, subjects, trust, confidence, active_from, recorded_at FROM memories
           WHERE seq IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(seqs)) as unknown as (FieldsRow & { seq: number })[];
    return new Map(rows.map((r) => [r.seq, toFields(r)]));
  }
}

/** The queue's rows of these scopes (its own scope column, migration 19), or of every scope. */
function inScopes(scopes: ScopeSet | undefined, params: Record<string, SQLInputValue>): string {
  return scopes === undefined || scopes.all ? '' : ` WHERE ${scopeCondition(scopes, params, 'q.scope')}`;
}

export function toFields(r: FieldsRow): SearchFields {
  return {
    id: r.id,
    scope: r.scope,
    key: r.key,
    body: r.body,
    subjects: JSON.parse(r.subjects) as string[],
    trust: r.trust as Trust,
    confidence: r.confidence,
    activeFrom: r.active_from,
    recordedAt: r.recorded_at,
  };
}

/**
 * The indices of the k best similarities: every one above the k-th best, and those equal to it (`need` of them
 * are to be chosen). Sorting a copy costs well under a millisecond for the largest scope (16,000 at 1M).
 */
function bestIndices(sims: Float64Array, k: number): { above: number[]; tied: number[]; need: number } {
  const above: number[] = [];
  const tied: number[] = [];
  if (k <= 0 || sims.length === 0) return { above, tied, need: 0 };
  const kth = sims.length <= k ? Number.NEGATIVE_INFINITY : Float64Array.from(sims).sort()[sims.length - k]!;
  for (let i = 0; i < sims.length; i++) {
    if (sims[i]! > kth) above.push(i);
    else if (sims[i] === kth) tied.push(i);
  }
  return { above, tied, need: k - above.length };
}

/** Keeps `top` the k best by similarity (ties: the id, so the order never depends on the scan's order). */
export function keepTop(
  top: { id: string; similarity: number }[],
  hit: { id: string; similarity: number },
  k: number,
): void {
  const worse = (a: typeof hit, b: typeof hit) =>
    a.similarity < b.similarity || (a.similarity === b.similarity && a.id > b.id);
  if (top.length === k && !worse(top[top.length - 1]!, hit)) return;
  let i = top.length;
  while (i > 0 && worse(top[i - 1]!, hit)) i--;
  top.splice(i, 0, hit);
  if (top.length > k) top.pop();
}
