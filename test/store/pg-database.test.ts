// The Postgres connection module on the run's throwaway cluster: migrations once each, tenant-bound transactions.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { connect, inTenant, migrate, schemaVersion, type TxSql } from '../../src/store/postgres/database.ts';
import { testCluster } from '../support/pg-cluster.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

test('migrations apply once each, in order, also when two migrators race', { skip }, async () => {
  if ('skip' in cluster) return;
  const sql = connect(cluster.url);
  const part = `t_${randomUUID().slice(0, 8)}`;
  const table = `${part}_rows`;
  const migrations = [
    {
      version: 1,
      name: 'rows',
      up: (tx: TxSql) => tx.unsafe(`create table ${table} (n int)`).then(() => {}),
    },
    {
      version: 2,
      name: 'seed',
      up: (tx: TxSql) => tx.unsafe(`insert into ${table} values (1)`).then(() => {}),
    },
  ];
  try {
    const [a, b] = await Promise.all([migrate(sql, part, migrations), migrate(sql, part, migrations)]);
    assert.deepEqual([...a, ...b].sort(), [1, 2]);
    assert.equal(await schemaVersion(sql, part), 2);
    const rows = await sql.unsafe(`select count(*)::int as n from ${table}`);
    assert.equal(rows[0]!.n, 1);
    await assert.rejects(migrate(sql, part, migrations.slice(0, 1)), { class: 'conflict' });
  } finally {
    await sql.unsafe(`drop table if exists ${table}`);
    await sql`delete from memledger_migrations where part = ${part}`;
    await sql.end();
  }
});

test('a tenant transaction carries its tenant, and the setting ends with it', { skip }, async () => {
  if ('skip' in cluster) return;
  const sql = connect(cluster.url, { max: 1 });
  try {
    const inside = await inTenant(sql, 'acme', async (tx) => {
      const [r] = await tx`select current_setting('memledger.tenant', true) as t`;
      return r!.t;
    });
    assert.equal(inside, 'acme');
    const [after] = await sql`select current_setting('memledger.tenant', true) as t`;
    assert.ok(
      after!.t === null || after!.t === '',
      'the pooled connection keeps no tenant after the transaction',
    );
    await assert.rejects(
      inTenant(sql, 'Bad Tenant', async () => 1),
      { class: 'invalid_input' },
    );
  } finally {
    await sql.end();
  }
});
