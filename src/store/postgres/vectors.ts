/**
 * Vectors and the embedding queue on Postgres (migrations 7, 9): int8 vectors in bytea, scanned in process for
 * the plan's scopes only (no pgvector on a stock PostgreSQL 15), with SQLite's filters and tie order.
 */
import { cosine, int8View } from '../../embed/int8.ts';
import type { Trust } from '../../model/memory.ts';
import type { ScopeSet, SearchFields } from '../port.ts';
import { keepTop } from '../sqlite/vectors.ts';
import type {
  PendingText,
  StoredVector,
  VectorCounts,
  VectorMatches,
  VectorPlan,
  VectorStore,
} from '../vectors-port.ts';
import { addFilters, readsHistory, scopeWhere } from './search.ts';
import { one, Params, type Q, run } from './statements.ts';

type Read = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;
type Write = <T>(fn: (q: Q) => Promise<T>) => Promise<T>;

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

export class PostgresVectorStore implements VectorStore {
  readonly #read: Read;
  readonly #write: Write;

  constructor(read: Read, write: Write) {
    this.#read = read;
    this.#write = write;
  }

  nearest(plan: VectorPlan): Promise<VectorMatches> {
    return this.#read(async (q) => {
      const p = new Params();
      const where = [`v.model = ${p.add(plan.model)}`];
      // The scope restriction is in the scan itself: a memory the caller cannot read is never scored (I4).
      const scope = scopeWhere('m.scope', plan.scopes, p);
      if (scope !== null) where.push(scope);
      addFilters(where, p, plan);
      if (!readsHistory(plan)) where.push("m.state = 'active'");
      const select = `select m.id, v.norm, v.vec from memledger.memories m
           join memledger.memory_vectors v on v.tenant = m.tenant and v.memory_id = m.id
           where ${where.join(' and ')}`;
      type Row = { id: string; norm: number; vec: Uint8Array };
      let rows: Row[];
      if (plan.scan === undefined) rows = await run<Row>(q, select, p.values);
      else {
        // The newest `scan` memories, then the text candidates' own vectors (the same filters), each once.
        const newest = await run<Row>(
          q,
          `${select} order by m.seq desc limit ${Number(plan.scan)}`,
          p.values,
        );
        const seen = new Set(newest.map((r) => r.id));
        const ids = plan.ids.filter((id) => !seen.has(id));
        const own = await run<Row>(q, `${select} and m.id = any(${p.add(ids)}::text[])`, p.values);
        rows = [...newest, ...own];
      }
      const wanted = new Set(plan.ids);
      const similarities = new Map<string, number>();
      const top: { id: string; similarity: number }[] = [];
      for (const r of rows) {
        const similarity = cosine(plan.query, int8View(r.vec), Number(r.norm));
        if (wanted.has(r.id)) similarities.set(r.id, similarity);
        keepTop(top, { id: r.id, similarity }, plan.k);
      }
      const fields =
        top.length === 0
          ? []
          : await run<FieldsRow>(
              q,
              `select id, scope, key, body, subjects, trust, confidence, active_from, recorded_at
                 from memledger.memories where id = any($1::text[])`,
              [top.map((t) => t.id)],
            );
      const byId = new Map(fields.map((r) => [r.id, toFields(r)]));
      const nearest = top.flatMap((t) => {
        const memory = byId.get(t.id);
        return memory === undefined ? [] : [{ memory, similarity: t.similarity }];
      });
      return { nearest, similarities };
    });
  }

  pending(limit: number, scopes?: ScopeSet): Promise<PendingText[]> {
    return this.#read(async (q) => {
      const p = new Params();
      const where = inScopes(scopes, p);
      const rows = await run<{ id: string; body: string | null; state: string | null }>(
        q,
        `select e.memory_id as id, m.body, m.state from memledger.embed_queue e
           left join memledger.memories m on m.tenant = e.tenant and m.id = e.memory_id${where}
           order by e.seq limit ${p.add(limit)}`,
        p.values,
      );
      return rows
        .filter((r) => r.state !== null && r.state !== 'erased')
        .map((r) => ({ id: r.id, text: r.body ?? '' }));
    });
  }

  put(model: string, vectors: readonly StoredVector[]): Promise<number> {
    if (vectors.length === 0) return Promise.resolve(0);
    return this.#write(async (q) => {
      let landed = 0;
      for (const v of vectors) {
        const bytes = new Uint8Array(v.bytes.buffer, v.bytes.byteOffset, v.bytes.byteLength);
        // From the memory row, in the write lock: one erased since it was read from the queue gets no vector.
        const rows = await run(
          q,
          `insert into memledger.memory_vectors (tenant, memory_id, model, dims, norm, vec)
             select tenant, id, $1, $2, $3, $4 from memledger.memories where id = $5 and state <> 'erased'
             on conflict (tenant, memory_id, model) do update set dims = excluded.dims, norm = excluded.norm,
               vec = excluded.vec
             returning memory_id`,
          [model, v.bytes.length, v.norm, bytes, v.memoryId],
        );
        landed += rows.length;
        await run(q, 'delete from memledger.embed_queue where memory_id = $1', [v.memoryId]);
      }
      return landed;
    });
  }

  enqueueMissing(model: string): Promise<number> {
    return this.#write(async (q) => {
      // Recorded first, in the same transaction: a memory written after it commits is queued by the trigger.
      await run(q, 'insert into memledger.embed_models (model) values ($1) on conflict do nothing', [model]);
      const rows = await run(
        q,
        `insert into memledger.embed_queue (tenant, memory_id, scope)
           select m.tenant, m.id, m.scope from memledger.memories m where m.state <> 'erased' and not exists
             (select 1 from memledger.memory_vectors v where v.tenant = m.tenant and v.memory_id = m.id
                and v.model = $1)
           order by m.seq
         on conflict do nothing returning memory_id`,
        [model],
      );
      return rows.length;
    });
  }

  async watch(model: string): Promise<number> {
    const known = await this.#read((q) =>
      one<{ x: number }>(q, 'select 1 as x from memledger.embed_models where model = $1', [model]),
    );
    return known !== undefined ? 0 : this.enqueueMissing(model);
  }

  counts(model: string): Promise<VectorCounts> {
    return this.#read(async (q) => {
      const v = await one<{ n: number }>(
        q,
        'select count(*)::int as n from memledger.memory_vectors where model = $1',
        [model],
      );
      const e = await one<{ n: number }>(q, 'select count(*)::int as n from memledger.embed_queue');
      return { vectors: Number(v?.n ?? 0), pending: Number(e?.n ?? 0) };
    });
  }

  queued(scopes?: ScopeSet): Promise<number> {
    return this.#read(async (q) => {
      const p = new Params();
      const where = inScopes(scopes, p);
      // In scopes, the memories a search can find (active): a held or rejected one waits too, unseen.
      const e = await one<{ n: number }>(
        q,
        where === ''
          ? 'select count(*)::int as n from memledger.embed_queue e'
          : `select count(*)::int as n from memledger.embed_queue e
               join memledger.memories m on m.tenant = e.tenant and m.id = e.memory_id${where}
               and m.state = 'active'`,
        p.values,
      );
      return Number(e?.n ?? 0);
    });
  }
}

/** The queue's rows of these scopes (its own scope column, migration 12), or of every scope. */
function inScopes(scopes: ScopeSet | undefined, p: Params): string {
  const where = scopes === undefined ? null : scopeWhere('e.scope', scopes, p);
  return where === null ? '' : ` where ${where}`;
}

function toFields(r: FieldsRow): SearchFields {
  return {
    id: r.id,
    scope: r.scope,
    key: r.key,
    body: r.body,
    subjects: JSON.parse(r.subjects) as string[],
    trust: r.trust as Trust,
    confidence: Number(r.confidence),
    activeFrom: r.active_from,
    recordedAt: r.recorded_at,
  };
}
