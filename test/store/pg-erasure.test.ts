/**
 * I9 on Postgres, in the cluster's own files: after erasure (content blanked in rows and search documents, then
 * the store's compaction: VACUUM FULL of the content tables, then the WAL cycled through checkpoints), no heap,
 * TOAST, index or WAL file of the cluster holds the erased text, while an unrelated control beside it remains.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/store/postgres/database.ts';
import { uniqueWord } from '../conformance/helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { openPgLedger, describeOnPostgres } from './pg-helpers.ts';
import { filesHolding } from '../support/files-holding.ts';

const cluster = testCluster();
const skip =
  'skip' in cluster
    ? cluster.skip
    : cluster.dataDir === null
      ? 'the cluster’s data directory is unknown'
      : false;

describeOnPostgres('postgres erasure bytes', { skip }, (database) => {
  test('I9 erasure (postgres): no heap, TOAST, index or WAL file of the cluster holds the erased text; a control does', async () => {
    if ('skip' in cluster || cluster.dataDir === null) return;
    const base = join(cluster.dataDir, 'base');
    const h = await openPgLedger(database());
    const admin = connect(database().adminUrl, { max: 1 });
    try {
      const me = h.ledger.as(h.ledger.operator());
      const subject = `person:${uniqueWord('subj')}@example.com`;
      const u = {
        body: uniqueWord('a'),
        key: uniqueWord('k'),
        value: uniqueWord('v'),
        reason: uniqueWord('r'),
      };
      const control = uniqueWord('ctrl');
      // A body long enough to be stored out of line (TOAST), so that path is checked too: random lower-case words,
      // which no credential format matches (a base64url filler was once refused as a key-shaped secret).
      const letters = (n: number) =>
        Array.from(randomBytes(n), (b) => String.fromCharCode(97 + (b % 26))).join('');
      const filler = Array.from({ length: 400 }, () => letters(10)).join(' ');
      const long = `${u.body} ${filler} ${u.body}`;
      const first = await me.remember({
        body: long,
        scope: 'shared',
        key: `phone.${u.key}`,
        value: { number: u.value },
        subjects: [subject],
      });
      for (let i = 0; i < 200; i++) await me.remember({ body: `ordinary note ${i}`, scope: 'shared' });
      const second = await me.remember({
        body: `New phone is ${u.body}`,
        scope: 'shared',
        subjects: [subject],
      });
      await me.retract({ id: second.id, reason: `per ${u.reason}` });
      await me.remember({ body: `Unrelated control ${control}`, scope: 'shared' });
      await admin`checkpoint`;
      for (const needle of [...Object.values(u), subject, control]) {
        assert.ok(filesHolding(base, needle).length > 0, `setup: ${needle} is in the cluster's files`);
      }
      assert.deepEqual(
        (await me.search({ query: u.body })).hits.map((x) => x.memory.id).sort(),
        [first.id].sort(),
      );

      const result = await me.erase({ subject });
      assert.equal(result.erased, 2);
      assert.equal(result.checkpointed, true);
      for (const needle of [...Object.values(u), subject]) {
        const left = filesHolding(cluster.dataDir, needle);
        // On a failure, say which relations the files belong to and who held a snapshot: the diagnosis next.
        const where =
          left.length === 0
            ? ''
            : JSON.stringify({
                relations: await admin`select relname, relfilenode::text from pg_class
                  where relfilenode = any(${left.map((f) => Number(f.split('/').pop()))})`,
                snapshots: await admin`select datname, backend_type, state, backend_xmin::text as xmin,
                  backend_xid::text as xid from pg_stat_activity
                  where backend_xmin is not null or backend_xid is not null`,
              });
        assert.deepEqual(
          left,
          [],
          `${needle} is gone from every heap, index, statistics and WAL file ${where}`,
        );
        assert.deepEqual((await me.search({ query: needle })).hits, []);
      }
      assert.ok(filesHolding(base, control).length > 0, 'control: unrelated text is still in the files');
      assert.equal((await me.search({ query: control })).hits.length, 1);
    } finally {
      await admin.end();
      await h.close();
    }
  });
});
