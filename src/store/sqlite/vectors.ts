/** Vectors and the embedding queue on SQLite (migrations 14, 16): an in-process int8 scan of the plan's scopes. */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import { cosine, int8View } from '../../embed/int8.ts';
import type { Trust } from '../../model/memory.ts';
import type { SearchFields } from '../port.ts';
import type {
  PendingText,
  StoredVector,
  VectorCounts,
  VectorMatches,
  VectorPlan,
  VectorStore,
} from '../vectors-port.ts';
import { addFilters, readsHistory } from './search.ts';

type Serial = <T>(fn: () => Promise<T>) => Promise<T>;
/** The store's write transaction (BEGIN IMMEDIATE), shared with every other write of the home. */
type Write = <T>(fn: () => T) => Promise<T>;

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
      const select = `SELECT m.id AS id, v.norm AS norm, v.vec AS vec FROM memories m
             JOIN memory_vectors v ON v.memory_id = m.id WHERE ${where.join(' AND ')}`;
      type Row = { id: string; norm: number; vec: Uint8Array };
      let rows: Row[];
      if (plan.scan === undefined) rows = this.#db.prepare(select).all(params) as Row[];
      else {
        // The newest `scan` memories, then the text candidates' own vectors (the same filters), each once.
        const newest = this.#db
          .prepare(`${select} ORDER BY m.seq DESC LIMIT :scan`)
          .all({ ...params, scan: plan.scan }) as Row[];
        const seen = new Set(newest.map((r) => r.id));
        const own = this.#db
          .prepare(`${select} AND m.id IN (SELECT value FROM json_each(:ids))`)
          .all({ ...params, ids: JSON.stringify(plan.ids.filter((id) => !seen.has(id))) }) as Row[];
        rows = [...newest, ...own];
      }
      const wanted = new Set(plan.ids);
      const similarities = new Map<string, number>();
      const top: { id: string; similarity: number }[] = [];
      for (const r of rows) {
        const similarity = cosine(plan.query, int8View(r.vec), r.norm);
        if (wanted.has(r.id)) similarities.set(r.id, similarity);
        keepTop(top, { id: r.id, similarity }, plan.k);
      }
      const fields = this.#fields(top.map((t) => t.id));
      const nearest = top.flatMap((t) => {
        const memory = fields.get(t.id);
        return memory === undefined ? [] : [{ memory, similarity: t.similarity }];
      });
      return { nearest, similarities };
    });
  }

  pending(limit: number): Promise<PendingText[]> {
    return this.#serial(async () => {
      const rows = this.#db
        .prepare(
          `SELECT q.memory_id AS id, m.body AS body, m.state AS state FROM embed_queue q
             LEFT JOIN memories m ON m.id = q.memory_id ORDER BY q.seq LIMIT ?`,
        )
        .all(limit) as { id: string; body: string | null; state: string | null }[];
      return rows
        .filter((r) => r.state !== null && r.state !== 'erased')
        .map((r) => ({ id: r.id, text: r.body ?? '' }));
    });
  }

  put(model: string, vectors: readonly StoredVector[]): Promise<number> {
    return this.#serial(() =>
      this.#write(() => {
        // INSERT … SELECT from the memory row: one erased since it was read from the queue gets no vector.
        const insert = this.#db.prepare(
          `INSERT OR REPLACE INTO memory_vectors (memory_id, model, dims, norm, vec)
             SELECT id, ?, ?, ?, ? FROM memories WHERE id = ? AND state <> 'erased'`,
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
            `INSERT OR IGNORE INTO embed_queue (memory_id)
               SELECT m.id FROM memories m WHERE m.state <> 'erased' AND NOT EXISTS
                 (SELECT 1 FROM memory_vectors v WHERE v.memory_id = m.id AND v.model = ?)
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

  queued(): Promise<number> {
    return this.#serial(async () => {
      const r = this.#db.prepare('SELECT count(*) AS n FROM embed_queue').get() as { n: number };
      return Number(r.n);
    });
  }

  #fields(ids: string[]): Map<string, SearchFields> {
    if (ids.length === 0) return new Map();
    const rows = this.#db
      .prepare(
        `SELECT id, scope, key, body, subjects, trust, confidence, active_from, recorded_at FROM memories
           WHERE id IN (SELECT value FROM json_each(?))`,
      )
      .all(JSON.stringify(ids)) as unknown as FieldsRow[];
    return new Map(rows.map((r) => [r.id, toFields(r)]));
  }
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
