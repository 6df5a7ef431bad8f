/**
 * Postgres migration 12 (the twin of SQLite's 19): queued memories carry their scope, so a search counts and
 * catches up on its own scopes' queue only. Rows queued before the migration (no scope) get their memory's, in
 * every tenant at once (run with the global setup that starts a cluster).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { migratePostgres } from '../../src/store/postgres/backend.ts';
import { connect } from '../../src/store/postgres/database.ts';
import { WordEmbedder } from '../support/word-embedder.ts';
import { openPgLedger, describeOnPostgres } from './pg-helpers.ts';

const only = (scope: string) => ({ all: false as const, exact: [scope], prefixes: [] });

describeOnPostgres('postgres queue by scope (migration 12)', {}, (database) => {
  test('queued rows without a scope get their memory’s in every tenant; counts and drains are per scope', async () => {
    const one = await openPgLedger(database(), { semantic: { embedder: new WordEmbedder(), catchUp: 0 } });
    const two = await openPgLedger(database(), { semantic: { embedder: new WordEmbedder(), catchUp: 0 } });
    const admin = connect(database().adminUrl, { max: 1 });
    try {
      for (const pg of [one, two]) {
        const me = pg.ledger.as(pg.ledger.operator());
        await me.remember({ body: 'first wombat note', scope: 'shared' });
        await pg.ledger.embedPending();
      }
      const a = one.ledger.as(one.ledger.operator());
      await a.remember({ body: 'wombat habitat survey', scope: 'shared' });
      await a.remember({ body: 'wombat burrow count', scope: 'project:x' });
      await a.remember({ body: 'budget review friday', scope: 'project:x' });
      await two.ledger.as(two.ledger.operator()).remember({ body: 'kettle descaling', scope: 'project:x' });
      assert.equal(await one.store.vectors.queued(only('project:x')), 2, 'queued with their scope');
      // As a home written before migration 12: no queued row names its scope; the migration is run again.
      await admin.unsafe('alter table memledger.embed_queue no force row level security');
      await admin.unsafe('update memledger.embed_queue set scope = null');
      await admin.unsafe('alter table memledger.embed_queue force row level security');
      assert.equal(await one.store.vectors.queued(only('project:x')), 0, 'setup: the scopes are gone');
      await admin`delete from memledger_migrations where part = 'store' and version = 12`;
      const report = await migratePostgres(database().adminUrl, {});
      assert.deepEqual(
        report.applied.map((s) => `${s.part} ${s.version}`),
        ['store 12'],
      );
      assert.equal(await one.store.vectors.queued(only('shared')), 1);
      assert.equal(await one.store.vectors.queued(only('project:x')), 2);
      assert.equal(await one.store.vectors.queued({ all: true }), 3, 'control: the tenant’s whole queue');
      assert.equal(await two.store.vectors.queued(only('project:x')), 1, 'the other tenant’s row too');
      assert.deepEqual(
        (await one.store.vectors.pending(10, only('project:x'))).map((p) => p.text),
        ['wombat burrow count', 'budget review friday'],
        'oldest first, of that scope only',
      );
    } finally {
      await admin.end();
      await one.close();
      await two.close();
    }
  });
});
