/**
 * The partitioned schema of bench/pg-partitioned.ts on the run's cluster: the library works on it as a
 * `memledger_app` login (COPYed rows found with the same hits as on the product's own schema, tenants kept
 * apart), the application role cannot name a partition, row triggers reach the partitions, and the two gaps
 * docs/scaling.md lists as product work: the statement-level truncate guard and the unique index names.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { DATA_SHAPE } from '../../bench/context.ts';
import { Dataset } from '../../bench/data.ts';
import { createBenchDatabase } from '../../bench/pg-database.ts';
import { loadTenant } from '../../bench/pg-partitioned-load.ts';
import { INDEXES, partitionTables } from '../../bench/pg-partitioned-schema.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import { migratePostgres } from '../../src/store/postgres/backend.ts';
import { connect, type Sql } from '../../src/store/postgres/database.ts';
import { testCluster } from '../support/pg-cluster.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const MEMORIES = 400;

const code = async (p: Promise<unknown>): Promise<string | undefined> => {
  try {
    await p;
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
};

test(
  'partitioned schema: the library searches and writes it like the plain one, tenants apart',
  { skip },
  async () => {
    const url = 'url' in cluster ? cluster.url : '';
    const log = () => {};
    const role = `pgscale_app_${randomBytes(3).toString('hex')}`;
    const dbs = [await createBenchDatabase(url, log), await createBenchDatabase(url, log)];
    const ledgers: Ledger[] = [];
    const admins: Sql[] = [];
    const root = connect(url, { max: 1 });
    try {
      const dataset = new Dataset({ memories: MEMORIES, scopes: 5, seed: 7, ...DATA_SHAPE });
      for (const [k, db] of dbs.entries()) {
        await migratePostgres(db.url, {});
        const admin = connect(db.url, { max: 4 });
        admins.push(admin);
        if (k === 0) await partitionTables(admin);
        await loadTenant(admin, 't0', dataset, MEMORIES, 1, () => {});
        if (k === 0) await loadTenant(admin, 't1', dataset, 50, MEMORIES + 1, () => {});
        await admin.unsafe(
          `select setval(pg_get_serial_sequence('memledger.memories', 'seq'), ${MEMORIES + 50})`,
        );
        // The product's indexes exist on the plain database already; the partitioned one gets them after the load.
        if (k === 0) await admin.unsafe(INDEXES);
      }
      await root.unsafe(`create role ${role} login in role memledger_app`);
      const session = (db: (typeof dbs)[number], tenant: string) => {
        const u = new URL(db.url);
        u.username = role;
        u.searchParams.set('tenant', tenant);
        const ledger = openLedger({ store: u.toString() });
        ledgers.push(ledger);
        return ledger.as(ledger.operator(), { surface: 'library', client: 'test' });
      };
      const [part, plain] = [session(dbs[0]!, 't0'), session(dbs[1]!, 't0')];
      let hits = 0;
      for (const q of dataset.queries(20, 1)) {
        const a = await part.search({ query: q.text, scopes: [q.scope] });
        const b = await plain.search({ query: q.text, scopes: [q.scope] });
        // Ids differ between the two loads (their last characters are random): the bodies, in order, may not.
        assert.deepEqual(
          a.hits.map((h) => h.memory.body),
          b.hits.map((h) => h.memory.body),
          `same hits for ${q.text} in ${q.scope}`,
        );
        hits += a.hits.length;
      }
      assert.ok(hits > 0, 'the queries found something');

      // Writes land on the partitioned schema; tenant t1 (which holds memories 0–49 too) never sees t0's new one.
      const input = dataset.rememberInput(MEMORIES + 100);
      const written = await part.remember(input);
      assert.equal(written.state, 'active');
      const words = input.body.replace(/\./g, '').split(' ').slice(1, 4).join(' ');
      const own = await part.search({ query: words, scopes: [input.scope!] });
      assert.ok(
        own.hits.some((h) => h.memory.id === written.id),
        'the writer finds its memory',
      );
      const t1 = session(dbs[0]!, 't1');
      const other = await t1.search({ query: words, scopes: [input.scope!] });
      assert.ok(!other.hits.some((h) => h.memory.id === written.id), 'another tenant does not');
      // Control: t1 finds its own memory 0 by its words.
      const first = dataset.content(0);
      const mine = await t1.search({
        query: first.body.replace(/\./g, '').split(' ').slice(1, 4).join(' '),
        scopes: [first.scope],
      });
      assert.ok(
        mine.hits.some((h) => h.memory.body === first.body),
        'tenant t1 finds its own memory',
      );
    } finally {
      for (const l of ledgers) l.close();
      for (const a of admins) await a.end({ timeout: 5 });
      for (const db of dbs) await db.drop();
      await root.unsafe(`drop role if exists ${role}`).catch(() => {});
      await root.end({ timeout: 5 });
    }
  },
);

test(
  'partitioned schema: the app role cannot name a partition; row guards reach partitions, the truncate guard does not',
  { skip },
  async () => {
    const url = 'url' in cluster ? cluster.url : '';
    const db = await createBenchDatabase(url, () => {});
    const admin = connect(db.url, { max: 4 });
    try {
      await migratePostgres(db.url, {});
      await partitionTables(admin);
      const dataset = new Dataset({ memories: 20, scopes: 2, seed: 3, ...DATA_SHAPE });
      await loadTenant(admin, 't0', dataset, 20, 1, () => {});
      await admin.unsafe(INDEXES);
      const [where] = await admin<
        { p: string }[]
      >`select tableoid::regclass::text as p from memledger.memories limit 1`;
      const partition = where!.p;

      // The application role through the parent sees its tenant's rows (control); a partition by name is refused.
      const asApp = (statement: string) =>
        admin.begin(async (tx) => {
          await tx.unsafe('set local role memledger_app');
          await tx`select set_config('memledger.tenant', 't0', true)`;
          return tx.unsafe(statement);
        });
      const [seen] = (await asApp('select count(*)::int as n from memledger.memories')) as unknown as {
        n: number;
      }[];
      assert.equal(seen!.n, 20);
      assert.equal(await code(asApp(`select count(*) from ${partition}`)), '42501');

      // I1's row triggers are cloned to partitions: a delete through the partition is refused...
      assert.equal(await code(admin.unsafe(`delete from ${partition}`)), 'P0001');
      // ...and so is a truncate of the parent; a truncate of the partition is not (statement triggers are not
      // cloned): what a partitioned deployment must add per partition.
      assert.equal(await code(admin.unsafe('truncate memledger.memories')), 'P0001');
      assert.equal(await code(admin.unsafe(`truncate ${partition}`)), undefined);
      const [left] = await admin<{ n: number }[]>`select count(*)::int as n from memledger.memories`;
      assert.equal(left!.n, 0);
    } finally {
      await admin.end({ timeout: 5 });
      await db.drop();
    }
  },
);

test(
  'partitioned schema: a unique violation names the partition index, not memories_key_holder',
  { skip },
  async () => {
    const url = 'url' in cluster ? cluster.url : '';
    const db = await createBenchDatabase(url, () => {});
    const admin = connect(db.url, { max: 4 });
    try {
      await migratePostgres(db.url, {});
      const plain = connect(db.url, { max: 1 });
      const duplicate = async (sql: Sql) => {
        const row = (n: number) =>
          sql.unsafe(
            `insert into memledger.memories (tenant, id, scope, kind, key, body, confidence, fingerprint, provenance,
             recorded_at, state, trust) values ('t0', $1, 'shared', 'fact', 'plan.owner', 'b', 1, 'f', '{}', 'now',
             'active', 'confirmed')`,
            [`mem-${n}`],
          );
        await row(1);
        try {
          await row(2);
          return null;
        } catch (error) {
          return (error as { constraint_name?: string }).constraint_name ?? null;
        }
      };
      // Control: on the product's schema the name is the one unique-writes.ts maps to a conflict.
      assert.equal(await duplicate(plain), 'memories_key_holder');
      await plain.end({ timeout: 5 });
      // The partitioned tables replace the plain ones (rows and all: DROP TABLE fires no row trigger).
      await partitionTables(admin);
      await admin.unsafe(INDEXES);
      const name = await duplicate(admin);
      assert.ok(name !== null && name !== 'memories_key_holder', `the partition's index is named: ${name}`);
      assert.match(name, /^memories_p\d+_/);
    } finally {
      await admin.end({ timeout: 5 });
      await db.drop();
    }
  },
);
