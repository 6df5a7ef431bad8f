/**
 * The COPY staging tables of a restore batch (copy-batch.ts) live as long as their connection, so they must
 * never hand rows on: on one connection, a batch whose transaction fails after its rows were staged and moved
 * leaves nothing behind (ROLLBACK), and a committed batch's staged memory and event are gone before the next
 * batch stages its own (ON COMMIT DELETE ROWS), which lands without a replay; controls land once each.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect } from '../../src/store/postgres/database.ts';
import { openPostgresStore } from '../../src/store/postgres/open.ts';
import type { MemoryEvent } from '../../src/model/event.ts';
import type { NewMemory } from '../../src/store/port.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { importedMemoryLine } from '../conformance/helpers.ts';
import { newTenant, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const AT = '2031-04-01T00:00:00.000Z';

const memory = (body: string): NewMemory => {
  const m = JSON.parse(importedMemoryLine({ scope: 'project:s', body, at: AT })).memory;
  return { ...m, fingerprint: `fp ${body}`, validStart: null, validEnd: null };
};

const appended = (m: NewMemory): MemoryEvent => ({
  id: `evt_${m.id.slice(4)}`,
  type: 'appended',
  memoryId: m.id,
  actor: 'agent:miner',
  actorKind: 'agent',
  at: AT,
  reason: null,
  detail: {},
});

describe('postgres COPY staging tables on a pooled connection', { skip }, () => {
  let db: PgTestDatabase;
  before(async () => {
    if ('url' in cluster) db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    await db?.drop();
  });

  test('I13 a failed batch leaves no staged row, and a committed one hands none to the next batch on its connection', async () => {
    const tenant = newTenant();
    // One connection: every batch below stages into the same temporary tables.
    const store = await openPostgresStore(db.appUrl, { tenant, max: 1 });
    try {
      const batch = (memories: NewMemory[], fail: boolean) =>
        store.transaction(async (tx) => {
          await tx.preload!({
            ids: memories.map((m) => m.id),
            scopes: ['project:s'],
            eventIds: memories.map((m) => appended(m).id),
          });
          for (const m of memories) {
            await tx.insertMemory(m);
            await tx.insertEvent(appended(m));
          }
          // Staged and moved, inside the transaction.
          await tx.settle!();
          if (fail) throw new Error('the batch fails after its rows were staged');
        });
      const abandoned = memory('the abandoned batch line');
      await assert.rejects(batch([abandoned], true), /fails after its rows were staged/);
      const first = memory('the first committed line');
      await batch([first], false);
      const second = memory('the second committed line');
      // A staged row left from the batch before would be refused here (its id and its event id are taken).
      await batch([second], false);
      assert.equal(await store.getMemory(abandoned.id), null, 'the failed batch wrote nothing');
      const admin = connect(db.adminUrl, { max: 1 });
      try {
        const ids = async (table: string, column: string) =>
          (
            await admin.unsafe(
              `select ${column} as id from memledger.${table} where tenant = $1 order by seq`,
              [tenant],
            )
          ).map((r) => r.id as string);
        assert.deepEqual(await ids('memories', 'id'), [first.id, second.id], 'each committed memory once');
        assert.deepEqual(
          await ids('events', 'memory_id'),
          [first.id, second.id],
          'each committed event once',
        );
        const docs = await admin.unsafe(
          `select m.id from memledger.search_docs d join memledger.memories m on m.seq = d.seq
           where d.tenant = $1 order by d.seq`,
          [tenant],
        );
        assert.deepEqual(
          docs.map((r) => r.id),
          [first.id, second.id],
          'each committed search document once',
        );
      } finally {
        await admin.end();
      }
    } finally {
      await store.end();
    }
  });
});
