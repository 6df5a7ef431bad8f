/**
 * The erasure's writes inside a Postgres write transaction (I9): content blanked in the row, its documents,
 * subjects, event reasons and rejection identities, and the provenance selector erasure by source reads.
 */
import { randomBytes } from 'node:crypto';
import type { Memory } from '../../model/memory.ts';
import type { ErasureRecord, ProvenanceSelector } from '../port.ts';
import { forgetGoverned } from './governance.ts';
import { MEMORY_COLUMNS, type MemoryRow, toMemory } from './rows.ts';
import { removeDoc } from './scope-stats.ts';
import { type Q, readMemoryRow, run } from './statements.ts';

/** Blanks each memory not erased yet, with everything that carries its content. */
export async function eraseMemories(q: Q, ids: readonly string[], at: string): Promise<void> {
  for (const id of ids) {
    const row = await readMemoryRow(q, id);
    if (row === undefined || row.state === 'erased') continue;
    await forgetGoverned(q, row);
    const memory = toMemory(row);
    const seq = Number(row.seq);
    await removeDoc(q, 'current', seq, memory);
    await removeDoc(q, 'history', seq, memory);
    await run(q, 'delete from memledger.memory_subjects where memory_seq = $1', [seq]);
    const provenance = JSON.parse(row.provenance) as Record<string, unknown>;
    delete provenance.source;
    await run(
      q,
      `update memledger.memories set state = 'erased', erased_at = $1,
         active_until = case when active_from is null then null else coalesce(active_until, $1) end,
         body = '', value = null, key = null, subjects = '[]', fingerprint = '', provenance = $2 where id = $3`,
      [at, JSON.stringify(provenance), id],
    );
    await run(q, 'update memledger.events set reason = null where memory_id = $1 and reason is not null', [
      id,
    ]);
    // Erasure takes the claim's identity away with its text (I9): a hash of short text is reversible by guessing.
    await run(
      q,
      `update memledger.rejections set reason = '', fingerprint = 'erased:' || seq,
         lift_reason = case when lift_reason is null then null else '' end where memory_id = $1`,
      [id],
    );
  }
}

export async function readByProvenance(q: Q, selector: ProvenanceSelector): Promise<Memory[]> {
  // Erasure by provenance is rare and deliberate: a scan of the tenant's log is the honest cost.
  const [where, param] =
    'principal' in selector
      ? [`(m.provenance::jsonb ->> 'principal') = $1`, selector.principal]
      : 'sessionId' in selector
        ? [`m.session_id = $1`, selector.sessionId]
        : [
            `(coalesce(m.provenance::jsonb #>> '{source,url}', '') ^@ $1
                or ((m.provenance::jsonb #>> '{source,connector}') || ':' || coalesce(m.provenance::jsonb #>> '{source,id}', '')) ^@ $1)`,
            selector.sourcePrefix,
          ];
  const rows = await run<MemoryRow>(
    q,
    `select ${MEMORY_COLUMNS} from memledger.memories m where m.state <> 'erased' and ${where} order by m.seq`,
    [param],
  );
  return rows.map(toMemory);
}

/** A new hash key in place of the old one (erasure destroys the key the old audit hashes used, I9). */
export async function rotateHashKey(q: Q, at: string): Promise<void> {
  // The old key's row is deleted; the erasure compaction (VACUUM FULL) rewrites the table without it.
  await run(q, 'delete from memledger.home_keys');
  await run(q, 'insert into memledger.home_keys (id, key, created_at) values ($1, $2, $3)', [
    `hk${randomBytes(4).toString('hex')}`,
    randomBytes(32),
    at,
  ]);
}

/** The erasure's record; false when its id is recorded already. */
export async function insertErasure(q: Q, record: ErasureRecord): Promise<boolean> {
  const inserted = await run(
    q,
    `insert into memledger.erasures (id, selector, memory_ids, by, at) values ($1, $2, $3, $4, $5)
     on conflict do nothing returning 1`,
    [record.id, record.selector, JSON.stringify(record.memoryIds), record.by, record.at],
  );
  return inserted.length > 0;
}
