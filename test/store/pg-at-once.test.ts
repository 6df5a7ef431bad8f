// One-round-trip transactions (src/store/postgres/at-once.ts) on the run's cluster: tenant-bound, read-only when
// asked, and a failed statement writes nothing and throws its own error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { inTenantAtOnce, readEach } from '../../src/store/postgres/at-once.ts';
import { connect, type Sql } from '../../src/store/postgres/database.ts';
import { run } from '../../src/store/postgres/statements.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

describe('postgres transactions at once', { skip }, () => {
  let db: PgTestDatabase;
  let app: Sql;
  before(async () => {
    if ('skip' in cluster) return;
    db = await pgTestDatabase(cluster.url);
    app = connect(db.appUrl, { max: 2 });
  });
  after(async () => {
    await app?.end({ timeout: 5 });
    await db?.drop();
  });

  const insertKey = (q: Sql, id: string) =>
    q`insert into memledger.home_keys (id, key, created_at) values (${id}, ${Buffer.alloc(32)}, '2026-01-01')`;
  const keysOf = async (tenant: string) =>
    (await run<{ id: string }>(readEach(app, tenant), 'select id from memledger.home_keys order by id')).map(
      (r) => r.id,
    );

  test('I19 tenancy: a write at once lands in its tenant only; a read of another tenant does not see it', async () => {
    await inTenantAtOnce(app, 'at_once_a', (q) => [insertKey(q, 'hk_a1')], { mode: 'read write' });
    await inTenantAtOnce(app, 'at_once_b', (q) => [insertKey(q, 'hk_b1')], { mode: 'read write' });
    assert.deepEqual(await keysOf('at_once_a'), ['hk_a1'], 'tenant a reads its own row');
    assert.deepEqual(await keysOf('at_once_b'), ['hk_b1'], 'control: tenant b reads its own, not a');
  });

  test('a failed statement among them throws its error and writes nothing, the statement before it included', async () => {
    await assert.rejects(
      inTenantAtOnce(
        app,
        'at_once_c',
        (q) => [insertKey(q, 'hk_c1'), q`select * from memledger.no_such_table`],
        { mode: 'read write' },
      ),
      (error: { code?: string }) => error.code === '42P01',
    );
    assert.deepEqual(await keysOf('at_once_c'), [], 'the insert before the failure rolled back');
    await inTenantAtOnce(app, 'at_once_c', (q) => [insertKey(q, 'hk_c2')], { mode: 'read write' });
    assert.deepEqual(await keysOf('at_once_c'), ['hk_c2'], 'control: the pool works on after it');
  });

  test('a read-only read refuses a write, and the row is absent beside a control written read-write', async () => {
    await assert.rejects(
      run(
        readEach(app, 'at_once_d'),
        `insert into memledger.home_keys (id, key, created_at) values ('hk_d1', '\\x00', '2026-01-01')`,
      ),
      (error: { code?: string }) => error.code === '25006',
    );
    await inTenantAtOnce(app, 'at_once_d', (q) => [insertKey(q, 'hk_d2')], { mode: 'read write' });
    assert.deepEqual(await keysOf('at_once_d'), ['hk_d2']);
  });

  test('transaction-local settings end with the transaction: the pooled connection is back on the server default', async () => {
    const one = connect(db.appUrl, { max: 1 });
    try {
      const [, shown] = await inTenantAtOnce(
        one,
        'at_once_e',
        (q) => [insertKey(q, 'hk_e1'), q`select current_setting('synchronous_commit') as v`],
        { mode: 'read write', settings: { synchronous_commit: 'off' } },
      );
      assert.equal(shown?.[0]?.v, 'off', 'set inside the transaction');
      const [row] = await one`select current_setting('synchronous_commit') as v`;
      assert.equal(row?.v, 'on', 'the same connection afterwards');
    } finally {
      await one.end({ timeout: 5 });
    }
  });
});
