/**
 * I9 on Postgres for workspaces, in the cluster's own files: a snapshot's bytea is replaced by the erasure's
 * re-snapshot, and the store's compaction (VACUUM FULL of the snapshot tables, WAL cycled) leaves the old bytes
 * in no heap, TOAST or WAL file, while a control row's bytes, still in the current snapshot, are there. The rows
 * carry random blobs, which zstd stores as they are, so the compressed bytes can be searched for.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { test } from 'node:test';
import { connect } from '../../src/store/postgres/database.ts';
import { openPgLedger, describeOnPostgres } from '../store/pg-helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { writeWorkspace } from './snapshot-helpers.ts';
import { filesHolding } from '../support/files-holding.ts';

const cluster = testCluster();
const skip =
  'skip' in cluster
    ? cluster.skip
    : cluster.dataDir === null
      ? 'the cluster’s data directory is unknown'
      : false;

describeOnPostgres('postgres workspace erasure bytes', { skip }, (database) => {
  test('I9 workspace erasure (postgres): no heap, TOAST or WAL file keeps the old snapshot bytes; a control does', async () => {
    if ('skip' in cluster || cluster.dataDir === null) return;
    const h = await openPgLedger(database());
    const admin = connect(database().adminUrl, { max: 1 });
    try {
      const me = h.ledger.as(h.ledger.operator());
      const subject = 'person:alice@example.com';
      const erased = randomBytes(4096);
      const control = randomBytes(4096);
      await writeWorkspace(
        h.ledger,
        'agent:scout',
        `CREATE TABLE blobs (id INTEGER PRIMARY KEY, subject TEXT, data BLOB);
         INSERT INTO blobs (subject, data) VALUES ('${subject}', x'${erased.toString('hex')}');
         INSERT INTO blobs (subject, data) VALUES (NULL, x'${control.toString('hex')}');`,
      );
      await admin`checkpoint`;
      const needle = erased.subarray(1000, 1064);
      const kept = control.subarray(1000, 1064);
      assert.ok(
        filesHolding(join(cluster.dataDir, 'base'), needle).length > 0,
        'setup: the bytes are on disk',
      );

      const result = await me.erase({ subject });
      assert.deepEqual(result.workspaces, { rows: 1, workspaces: 1, quarantined: 0 });
      assert.equal(result.checkpointed, true);
      assert.deepEqual(filesHolding(cluster.dataDir, needle), [], 'the old snapshot bytes are in no file');
      assert.ok(filesHolding(join(cluster.dataDir, 'base'), kept).length > 0, 'control: the kept row is');
    } finally {
      await admin.end();
      await h.close();
    }
  });
});
