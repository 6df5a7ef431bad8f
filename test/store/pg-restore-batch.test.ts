/**
 * A restore batch on Postgres looks its ids and standing rejections up ahead (StoreTx.preload, lookup-cache.ts)
 * and inserts each memory in one statement (insert-memory.ts): the answers must stay those of a lookup per
 * line. Within one batch: a version superseding one restored a line earlier lands, a rejection restored a line
 * earlier still stands against a copy of its claim (I5), a line seen twice lands once, and a key already held
 * in the home refuses a second holder (the conflict names the winner), as does a key taken earlier in the batch
 * (the holder looked up ahead is forgotten once a line takes it), and a second landed successor that only
 * the unique index refuses (I2) fails with the winner named while its batch neighbours land.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { testCluster } from '../support/pg-cluster.ts';
import { importedMemoryLine, linesOf } from '../conformance/helpers.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const AT = '2031-02-01T00:00:00.000Z';

const memoryLine = (fields: { scope: string; body: string; key?: string; supersedes?: string }) => {
  const line = JSON.parse(importedMemoryLine({ ...fields, at: AT }));
  if (fields.supersedes !== undefined) line.memory.supersedes = fields.supersedes;
  return line as { type: 'memory'; memory: { id: string; state: string; [k: string]: unknown } };
};

describe('postgres restore batches (lookups made ahead)', { skip }, () => {
  let db: PgTestDatabase;
  before(async () => {
    if ('url' in cluster) db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    await db?.drop();
  });

  test('I5 rejection stands: a rejection restored earlier in the same batch refuses a later copy of its claim; links and repeats resolve within the batch', async () => {
    const { ledger, close } = await openPgLedger(db);
    try {
      const me = ledger.as(ledger.operator());
      const v1 = memoryLine({ scope: 'project:a', body: 'the tier is gold', key: 'plan.tier' });
      v1.memory.state = 'superseded';
      const v2 = memoryLine({ scope: 'project:a', body: 'the tier is platinum', key: 'plan.tier' });
      v2.memory.supersedes = v1.memory.id;
      v1.memory.supersededBy = v2.memory.id;
      const planted = memoryLine({ scope: 'shared', body: 'deploys run on fridays' });
      planted.memory.state = 'rejected';
      planted.memory.activeFrom = null;
      const rejection = {
        type: 'rejection',
        rejection: {
          scope: 'shared',
          memoryId: planted.memory.id,
          reason: 'no',
          by: 'human:ceo',
          at: AT,
          lifted: null,
        },
      };
      const copy = memoryLine({ scope: 'shared', body: 'deploys run on fridays' });
      const control = memoryLine({ scope: 'shared', body: 'backups run nightly at two' });
      const file = [v1, v2, planted, rejection, copy, control, v1].map((l) => JSON.stringify(l));
      const result = await me.import(linesOf(file), { mode: 'restore', file: 'batch.jsonl' });
      assert.deepEqual(result.failed, []);
      assert.equal(result.rejected, 1, 'the copy of the rejected claim lands as rejected');
      assert.equal(result.skipped, 1, 'the repeated line lands once');
      assert.equal((await me.get(copy.memory.id)).state, 'rejected');
      assert.equal(
        (await me.get(v2.memory.id)).supersedes,
        v1.memory.id,
        'the link to a line earlier in the batch',
      );
      const found = await me.search({ query: 'backups nightly', scopes: ['shared'] });
      assert.deepEqual(
        found.hits.map((h) => h.memory.id),
        [control.memory.id],
        'control: the unrelated memory is restored and searchable',
      );
      const tier = await me.search({ query: 'tier', scopes: ['project:a'] });
      assert.deepEqual(
        tier.hits.map((h) => h.memory.id),
        [v2.memory.id],
        'the superseded version is out of the current index',
      );
    } finally {
      await close();
    }
  });

  test('I2 one current holder: a restored line for a key the home holds fails with the winner named, and its batch neighbours land', async () => {
    const { ledger, close } = await openPgLedger(db);
    try {
      const me = ledger.as(ledger.operator());
      const held = await me.remember({ scope: 'project:b', body: 'the owner is ana', key: 'team.owner' });
      const rival = memoryLine({ scope: 'project:b', body: 'the owner is bo', key: 'team.owner' });
      const control = memoryLine({ scope: 'project:b', body: 'the region is eu west' });
      const result = await me.import(linesOf([JSON.stringify(rival), JSON.stringify(control)]), {
        mode: 'restore',
      });
      assert.equal(result.failed.length, 1);
      assert.equal(result.failed[0]!.class, 'conflict');
      assert.match(result.failed[0]!.message, new RegExp(held.id));
      assert.equal(result.imported, 1, 'control: the other line of the batch lands');
      await assert.rejects(me.get(rival.memory.id), (e: { class?: string }) => e.class === 'not_found');
      assert.equal((await me.get(control.memory.id)).state, 'active');
    } finally {
      await close();
    }
  });

  test('I2 one current holder: a key taken by a line earlier in the same batch, spelled in another case, refuses a later holder before it writes (the holder looked up ahead is forgotten), by COPY and line by line', async () => {
    for (const copy of [true, false]) {
      const { ledger, store, close } = await openPgLedger(db);
      store.copyBatches = copy;
      try {
        const me = ledger.as(ledger.operator());
        const first = memoryLine({ scope: 'project:d', body: 'the lead is ana', key: 'team.lead' });
        const rival = memoryLine({ scope: 'project:d', body: 'the lead is bo', key: 'Team.Lead' });
        const other = memoryLine({ scope: 'project:e', body: 'the lead is cy', key: 'team.lead' });
        const control = memoryLine({ scope: 'project:d', body: 'the office is in porto' });
        const result = await me.import(
          linesOf([first, rival, other, control].map((l) => JSON.stringify(l))),
          {
            mode: 'restore',
          },
        );
        assert.deepEqual(
          result.failed.map((f) => [f.line, f.class]),
          [[2, 'conflict']],
        );
        // restore.ts's own refusal (decided by the lookup, before any write), not the unique index's after it.
        assert.match(result.failed[0]!.message, new RegExp(`already held by ${first.memory.id} here`));
        assert.ok(!result.failed[0]!.message.includes('Team.Lead'), 'the message does not carry the key');
        assert.equal(result.imported, 3, 'control: the same key in another scope and the neighbour land');
        await assert.rejects(me.get(rival.memory.id), (e: { class?: string }) => e.class === 'not_found');
        assert.equal((await me.get(other.memory.id)).state, 'active');
        assert.equal((await me.get(control.memory.id)).state, 'active');
      } finally {
        await close();
      }
    }
  });

  test('I2 one successor: a second landed successor only the unique index refuses fails with the winner named; the batch around it lands', async () => {
    const { ledger, close } = await openPgLedger(db);
    try {
      const me = ledger.as(ledger.operator());
      const x = memoryLine({ scope: 'project:c', body: 'the launch is in march' });
      x.memory.state = 'superseded';
      const winner = memoryLine({
        scope: 'project:c',
        body: 'the launch is in april',
        supersedes: x.memory.id,
      });
      x.memory.supersededBy = winner.memory.id;
      const second = memoryLine({
        scope: 'project:c',
        body: 'the launch is in may',
        supersedes: x.memory.id,
      });
      second.memory.state = 'superseded';
      const control = memoryLine({ scope: 'project:c', body: 'the venue is the harbour hall' });
      const result = await me.import(linesOf([x, winner, second, control].map((l) => JSON.stringify(l))), {
        mode: 'restore',
      });
      assert.equal(result.failed.length, 1, JSON.stringify(result.failed));
      assert.equal(result.failed[0]!.line, 3);
      assert.equal(result.failed[0]!.class, 'conflict');
      assert.match(result.failed[0]!.message, new RegExp(winner.memory.id));
      assert.equal(result.imported, 3, 'control: the rest of the batch lands');
      await assert.rejects(me.get(second.memory.id), (e: { class?: string }) => e.class === 'not_found');
      const venue = await me.search({ query: 'venue harbour', scopes: ['project:c'] });
      assert.deepEqual(
        venue.hits.map((h) => h.memory.id),
        [control.memory.id],
        'the neighbour after the refused line is indexed once',
      );
    } finally {
      await close();
    }
  });
});
