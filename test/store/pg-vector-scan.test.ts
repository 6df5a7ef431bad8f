/**
 * The capped vector scan on Postgres, as on SQLite (test/embed/fusion.test.ts): the newest memories' vectors
 * and the named candidates', each once (run with the global setup that starts a cluster).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { quantise } from '../../src/embed/int8.ts';
import { WordEmbedder, wordVector } from '../support/word-embedder.ts';
import { openPgLedger, describeOnPostgres } from './pg-helpers.ts';

describeOnPostgres('postgres capped vector scan', {}, (database) => {
  test('a capped vector scan reads the newest memories’ vectors and the named candidates’, each once', async () => {
    const embedder = new WordEmbedder();
    const pg = await openPgLedger(database(), { semantic: { embedder } });
    try {
      const me = pg.ledger.as(pg.ledger.operator());
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        ids.push((await me.remember({ body: `Wombat note ${i}`, scope: 'shared' })).id);
      }
      await pg.ledger.embedPending();
      const plan = {
        scopes: { all: true } as const,
        model: embedder.model,
        query: quantise(wordVector('wombat note')),
        k: 10,
        ids: [ids[0]!, ids[5]!],
      };
      const all = await pg.store.vectors.nearest(plan);
      assert.equal(all.nearest.length, 6, 'control: uncapped, every vector is read');
      const capped = await pg.store.vectors.nearest({ ...plan, scan: 2 });
      assert.deepEqual(capped.nearest.map((h) => h.memory.id).sort(), [ids[0], ids[4], ids[5]].sort());
      assert.deepEqual([...capped.similarities.keys()].sort(), [ids[0], ids[5]].sort());
      assert.equal(capped.similarities.get(ids[0]!), all.similarities.get(ids[0]!));
    } finally {
      await pg.close();
    }
  });
});
