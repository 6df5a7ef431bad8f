/**
 * Moving a home over (README, Running on PostgreSQL): an embedded SQLite home's export restored into a fresh
 * Postgres tenant brings its plans too, so the tenant lists the same behaviors, runs, commitments and summary
 * chains through the same verbs the console calls, and acts the same on its behaviors' outstanding work.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { exported, furnish, listings } from '../conformance/cases/i07-restore-plans.ts';
import { linesOf, manualClock, principal, storeCounts } from '../conformance/helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const runner = principal('agent', 'runner', { roles: ['reader', 'writer'], grants: ['*:rw'] });

describe('moving a SQLite home to a Postgres tenant', { skip }, () => {
  let db: PgTestDatabase;
  before(async () => {
    if ('url' in cluster) db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    await db?.drop();
  });

  test('I19 one contract, every backend: a SQLite home restored into a Postgres tenant lists the same behaviors, runs, commitments and summary chains, and hands out the same outstanding window', async () => {
    const clock = manualClock('2030-07-01T09:00:00.000Z');
    const home = mkdtempSync(join(tmpdir(), 'memledger-move-'));
    const source = openLedger({ home, now: clock.now });
    const target = await openPgLedger(db, { now: clock.now });
    try {
      await furnish(source, clock);
      const file = await exported(source);
      const result = await target.ledger
        .as(target.ledger.operator())
        .import(linesOf(file), { mode: 'restore', file: 'home.jsonl' });
      assert.deepEqual(result.failed, []);
      assert.deepEqual(await storeCounts(target.ledger), await storeCounts(source));
      assert.deepEqual(await listings(target.ledger), await listings(source));
      const next = async (l: typeof source) =>
        (await l.as(runner).behaviors.next('digest'))?.events.map((e) => e.memory.id);
      const [here, there] = [await next(target.ledger), await next(source)];
      assert.equal(here?.length, 1, 'the decision after the finished run is outstanding');
      assert.deepEqual(here, there);
    } finally {
      source.close();
      await target.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
