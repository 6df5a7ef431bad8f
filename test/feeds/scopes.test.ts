/**
 * Feed items are deduplicated per scope: the same note in two repositories reaches both projects, while the
 * same item read twice into one project (a re-run, a second feed on the same folder) lands there once.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { syncFeed } from '../../src/feeds/sync.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import { MIGRATION_3 } from '../../src/store/sqlite/migrations/003-feeds.ts';
import { makeRepo, withWorld } from './fixtures.ts';

const SHARED = 'Always run the linter before pushing.';

const notesIn = async (ledger: Ledger, scope: string) =>
  (await ledger.as(ledger.operator()).list({ scopes: [scope], states: ['held', 'active'], limit: 200 }))
    .map((m) => m.body)
    .sort();

test('the same note in two repositories lands in each project once; a second feed on one repository adds nothing there', () =>
  withWorld(async (world, ledger) => {
    const alpha = makeRepo(join(world.root, 'src', 'alpha'), 'git@github.com:acme/alpha.git');
    const beta = makeRepo(join(world.root, 'src', 'beta'), 'git@github.com:acme/beta.git');
    writeFileSync(join(alpha, 'AGENTS.md'), `- ${SHARED}\n- Alpha deploys on Mondays.\n`);
    writeFileSync(join(beta, 'AGENTS.md'), `- ${SHARED}\n- Beta deploys on Fridays.\n`);
    const me = ledger.as(ledger.operator());
    for (const [name, path] of [
      ['alpha', alpha],
      ['beta', beta],
      ['alpha-again', alpha],
    ] as const) {
      await me.feedAdd({ name, connector: 'folder', config: { path } });
    }
    const a = await syncFeed(ledger, me, 'alpha');
    const b = await syncFeed(ledger, me, 'beta');
    assert.deepEqual([a.error, a.written, b.error, b.written], [null, 2, null, 2]);
    assert.deepEqual(await notesIn(ledger, 'project:alpha'), ['Alpha deploys on Mondays.', SHARED]);
    assert.deepEqual(await notesIn(ledger, 'project:beta'), [SHARED, 'Beta deploys on Fridays.']);

    // Control: the same items into the same project are recognised, whichever feed reads them.
    const again = await syncFeed(ledger, me, 'alpha-again');
    assert.deepEqual([again.error, again.written, again.duplicates], [null, 0, 2]);
    assert.deepEqual(await notesIn(ledger, 'project:alpha'), ['Alpha deploys on Mondays.', SHARED]);
    const unchanged = await syncFeed(ledger, me, 'beta');
    assert.deepEqual([unchanged.written, unchanged.batches], [0, 0], 'an unchanged file is not read again');
  }));

test("migration 8: items recorded before it keep their memory's scope, so an upgraded home mines nothing twice", () =>
  withWorld(async (world, ledger) => {
    writeFileSync(join(world.repo, 'AGENTS.md'), `- ${SHARED}\n- Releases are cut on Thursdays.\n`);
    const me = ledger.as(ledger.operator());
    await me.feedAdd({ name: 'notes', connector: 'folder', config: { path: world.repo } });
    assert.equal((await syncFeed(ledger, me, 'notes')).written, 2);
    ledger.close();

    // The home as memledger before migration 8 left it: feed_items as migration 3 created it, version 7.
    const db = new DatabaseSync(join(world.home, 'memory.db'));
    const before = db
      .prepare('SELECT connector, item_id, memory_id, at FROM feed_items ORDER BY item_id')
      .all();
    const oldTable = /CREATE TABLE feed_items \([^;]*\) WITHOUT ROWID;/.exec(MIGRATION_3.sql)![0];
    db.exec(`CREATE TEMP TABLE kept AS SELECT connector, item_id, memory_id, at FROM feed_items;
      DROP TABLE feed_items; ${oldTable} CREATE INDEX feed_items_memory ON feed_items(memory_id);
      INSERT INTO feed_items SELECT * FROM kept; PRAGMA user_version = 7;`);
    db.close();

    const upgraded = openLedger({ home: world.home });
    try {
      const op = upgraded.as(upgraded.operator());
      const raw = new DatabaseSync(join(world.home, 'memory.db'));
      const after = raw
        .prepare('SELECT connector, scope, item_id, memory_id, at FROM feed_items ORDER BY item_id')
        .all();
      raw.close();
      assert.equal(after.length, 2);
      assert.deepEqual(
        after.map(({ scope: _scope, ...rest }) => ({ ...rest })),
        before.map((r) => ({ ...r })),
        'every item kept',
      );
      assert.ok(
        after.every((r) => r.scope === 'project:acme-api'),
        "each takes its memory's scope",
      );
      // Forget the checkpoint so the file is read again: the items are recognised, nothing lands twice.
      await op.feedUpdate({ name: 'notes', checkpoint: {} });
      const again = await syncFeed(upgraded, op, 'notes');
      assert.deepEqual([again.error, again.written, again.duplicates], [null, 0, 2]);
      assert.deepEqual(
        await notesIn(upgraded, 'project:acme-api'),
        ['Releases are cut on Thursdays.', SHARED].sort(),
      );
    } finally {
      upgraded.close();
    }
  }));
