/**
 * Model-free retrieval on Postgres against SQLite's: the same conversational fixture written to both through
 * the library gives the same hits in the same order, the same shapes and time matches in `why`, the same session
 * neighbours under each hit, and the same context items (run with the global setup that starts a cluster).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { openPgLedger, describeOnPostgres } from './pg-helpers.ts';
import { fixtureClock, observe, writeFixture } from './retrieval-fixture.ts';

describeOnPostgres('postgres retrieval against sqlite', {}, (database) => {
  test('neighbours, question and content-free weights and the time preference rank alike on both', async () => {
    const home = mkdtempSync(join(tmpdir(), 'memledger-retrieval-'));
    const [sc, pc] = [fixtureClock(), fixtureClock()];
    const sqlite = openLedger({ home, now: sc.now });
    const pg = await openPgLedger(database(), { now: pc.now });
    try {
      const a = await observe(sqlite, await writeFixture(sqlite, sc));
      const b = await observe(pg.ledger, await writeFixture(pg.ledger, pc));
      // Controls: the fixture exercises what is compared, on SQLite at least.
      assert.ok(
        a.some((q) => q.hits.some((h) => h.after !== null)),
        'control: some hit has a neighbour',
      );
      assert.ok(
        a.some((q) => q.hits.some((h) => h.shape === 'content-free')),
        'control: chatter is found',
      );
      assert.ok(
        a.some((q) => q.time !== null && q.hits.some((h) => h.time === 'recorded')),
        'control: time',
      );
      assert.ok(
        a.some((q) => q.context.some(([, why]) => why?.startsWith('neighbour:'))),
        'control: context',
      );
      assert.deepEqual(b, a);
    } finally {
      sqlite.close();
      rmSync(home, { recursive: true, force: true });
      await pg.close();
    }
  });
});
