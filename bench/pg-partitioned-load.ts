/**
 * Loading a tenant's generated memories straight into the store's tables with COPY, for bench/pg-partitioned.ts:
 * the rows memledger's insert path writes (the memory row with the product's own column values, its subjects,
 * its search document with the tokens memledger indexes, the scope's statistics), without going through the
 * library, whose restore path runs at a few hundred memories a second here (docs/scaling.md) and would take
 * hours at 10M. Not written: events and audit records of the loaded rows, and their embedding queue rows
 * (triggers are off during the load); neither is read by a search or a remember.
 */
import { INSERT_COLUMNS } from '../src/store/memory-columns.ts';
import { documentVector, insertParams } from '../src/store/postgres/rows.ts';
import type { Sql } from '../src/store/postgres/database.ts';
import { documentLength } from '../src/store/text/document.ts';
import type { Dataset } from './data.ts';

/** Rows per COPY, so memory stays bounded; each COPY is its own transaction. */
const BATCH = 20_000;

const MEMORY_COLUMNS = ['tenant', 'seq', ...INSERT_COLUMNS].join(', ');

export type LoadProgress = (tenant: string, done: number, total: number) => void;

/**
 * COPYs memories 0..count-1 of `dataset` into `tenant`, seq numbers from `firstSeq` on (COPY writes an
 * identity column's given values); returns the next free seq. Each table's COPY runs on its own connection
 * while the next batch is generated, so the two cores split the work between this process and the server:
 * `sql` must allow at least three connections (it waits for them).
 */
export async function loadTenant(
  sql: Sql,
  tenant: string,
  dataset: Dataset,
  count: number,
  firstSeq: number,
  progress: LoadProgress,
): Promise<number> {
  // Three connections with triggers off (a superuser's session setting): the I1 guards have nothing to guard
  // on an insert, and the embedding queue's trigger would add a row per memory nothing here reads.
  const conns = await Promise.all([sql.reserve(), sql.reserve(), sql.reserve()]);
  try {
    for (const c of conns) await c`set session_replication_role = replica`;
    const [mem, docs, subj] = conns as [Sql, Sql, Sql];
    const stats = new Map<string, { docs: number; tokens: number }>();
    let seq = firstSeq;
    let pending: Promise<unknown> = Promise.resolve();
    for (let start = 0; start < count; start += BATCH) {
      const end = Math.min(count, start + BATCH);
      const memLines: string[] = [];
      const docLines: string[] = [];
      const subjLines: string[] = [];
      for (let i = start; i < end; i++, seq++) {
        const m = dataset.memory(i);
        const row = insertParams(m);
        memLines.push(
          `${[tenant, seq, ...INSERT_COLUMNS.map((c) => row[c] ?? null)].map(copyField).join('\t')}\n`,
        );
        docLines.push(`${[tenant, 'current', seq, m.scope, documentVector(m)].map(copyField).join('\t')}\n`);
        for (const s of m.subjects) subjLines.push(`${[tenant, s, seq].map(copyField).join('\t')}\n`);
        const st = stats.get(m.scope) ?? { docs: 0, tokens: 0 };
        st.docs++;
        st.tokens += documentLength(m);
        stats.set(m.scope, st);
      }
      await pending;
      progress(tenant, start, count);
      pending = Promise.all([
        copy(mem, `memledger.memories (${MEMORY_COLUMNS})`, memLines),
        copy(docs, 'memledger.search_docs (tenant, idx, seq, scope, tsv)', docLines),
        copy(subj, 'memledger.memory_subjects (tenant, subject, memory_seq)', subjLines),
      ]);
    }
    await pending;
    progress(tenant, count, count);
    const scopes = [...stats.entries()];
    await mem.unsafe(
      `insert into memledger.scope_stats (tenant, scope, idx, docs, tokens)
       select $1, s, 'current', d, t from unnest($2::text[], $3::bigint[], $4::bigint[]) as u(s, d, t)
       on conflict (tenant, scope, idx) do update
       set docs = scope_stats.docs + excluded.docs, tokens = scope_stats.tokens + excluded.tokens`,
      [tenant, scopes.map(([s]) => s), scopes.map(([, v]) => v.docs), scopes.map(([, v]) => v.tokens)],
    );
    return seq;
  } finally {
    for (const c of conns) {
      await (c as unknown as { unsafe: Sql['unsafe'] })
        .unsafe('reset session_replication_role')
        .catch(() => {});
      (c as unknown as { release(): void }).release();
    }
  }
}

async function copy(q: Sql, target: string, lines: string[]): Promise<void> {
  if (lines.length === 0) return;
  const writable = await q.unsafe(`copy ${target} from stdin`).writable();
  const done = new Promise<void>((resolve, reject) => {
    writable.on('finish', resolve);
    writable.on('error', reject);
  });
  writable.end(lines.join(''));
  await done;
}

/** One field of COPY's text format: `\N` for null, backslash, tab, newline and carriage return escaped. */
function copyField(v: string | number | null): string {
  if (v === null) return '\\N';
  return String(v).replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}
