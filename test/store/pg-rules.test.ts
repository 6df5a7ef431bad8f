/**
 * What only the Postgres store can show, on the run's cluster: raw SQL as the application role refused by the
 * I1/I5 triggers (the twin of sqlite.test.ts's raw checks), tenancy by row-level security, two supersedes of one
 * memory racing through two pools (I2), and a stale schema refused at open.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, inTenant, type Sql } from '../../src/store/postgres/database.ts';
import { STORE_MIGRATIONS } from '../../src/store/postgres/migrations/index.ts';
import { openPostgresStore } from '../../src/store/postgres/open.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

const LATEST = STORE_MIGRATIONS.at(-1)!.version;

let db: PgTestDatabase;
let app: Sql;

/** `sql` as the application role inside one tenant transaction; it must fail with `pattern`. */
async function refuses(tenant: string, sql: string, pattern: RegExp): Promise<void> {
  await assert.rejects(
    inTenant(app, tenant, (tx) => tx.unsafe(sql)),
    pattern,
    sql,
  );
}

const lit = (v: string | null) => (v === null ? 'null' : `'${v.replace(/'/g, "''")}'`);

const CONTENT_CHANGES: [string, string | null][] = [
  ['body', 'rewritten'],
  ['scope', 'user:mallory'],
  ['kind', 'note'],
  ['key', 'other.key'],
  ['value', '{"x":2}'],
  ['subjects', '[]'],
  ['valid_from', '1999-01-01T00:00:00.000Z'],
  ['valid_to', null],
  ['confidence', '0.1'],
  ['supersedes', 'mem_x'],
  ['fingerprint', 'forged'],
  ['provenance', '{"principal":"human:ceo","principalKind":"human","surface":"cli"}'],
  ['recorded_at', '1999-01-01T00:00:00.000Z'],
  ['tenant', 'other'],
];

describe('postgres store rules', { skip }, () => {
  before(async () => {
    if ('skip' in cluster) return;
    db = await pgTestDatabase(cluster.url);
    app = connect(db.appUrl, { max: 2 });
  });
  after(async () => {
    if ('skip' in cluster) return;
    await app.end();
    await db.drop();
  });

  test('I1 append-only (postgres): the app role cannot UPDATE a content column or DELETE a memory; lifecycle moves', async () => {
    const h = await openPgLedger(db);
    try {
      const me = h.ledger.as(h.ledger.operator());
      const a = await me.remember({
        body: 'Written once',
        scope: 'shared',
        key: 'once',
        value: { x: 1 },
        subjects: ['company:acme'],
        validFrom: '2030-01-01',
        validTo: '2031-01-01',
        confidence: 0.9,
      });
      const before = await me.get(a.id);
      for (const [column, value] of CONTENT_CHANGES) {
        await refuses(
          h.tenant,
          `update memledger.memories set ${column} = ${lit(value)} where id = ${lit(a.id)}`,
          /I1 append-only|row-level security/,
        );
      }
      await refuses(h.tenant, `delete from memledger.memories where id = ${lit(a.id)}`, /I1 append-only/);
      await refuses(h.tenant, 'truncate memledger.memories', /I1 append-only|permission denied/);
      assert.deepEqual(await me.get(a.id), before);
      // Control: lifecycle columns change in place.
      await inTenant(app, h.tenant, (tx) =>
        tx.unsafe(
          `update memledger.memories set trust = 'unverified', rule = 'manual' where id = ${lit(a.id)}`,
        ),
      );
      assert.equal((await me.get(a.id)).trust, 'unverified');
    } finally {
      await h.close();
    }
  });

  test('I1 append-only (postgres): erasure is the one exception, only to the blank tombstone form, and final', async () => {
    const h = await openPgLedger(db);
    try {
      const me = h.ledger.as(h.ledger.operator());
      const a = await me.remember({
        body: 'To be erased',
        scope: 'shared',
        key: 'erase.me',
        value: { v: 1 },
      });
      const at = "'2040-01-01T00:00:00.000Z'";
      const id = lit(a.id);
      for (const set of [
        `body = ''`,
        `state = 'erased', erased_at = ${at}, body = 'kept', value = null, key = null, subjects = '[]', fingerprint = ''`,
        `state = 'erased', erased_at = ${at}, body = '', value = null, key = 'kept', subjects = '[]', fingerprint = ''`,
        `state = 'erased', erased_at = null, body = '', value = null, key = null, subjects = '[]', fingerprint = ''`,
        `state = 'erased', erased_at = ${at}, body = '', value = null, key = null, subjects = '[]', fingerprint = '', scope = 'shared2'`,
        `state = 'erased'`,
        `state = 'erased', erased_at = ${at}, body = '', value = null, key = null, subjects = '[]'`,
      ]) {
        await refuses(
          h.tenant,
          `update memledger.memories set ${set} where id = ${id}`,
          /I1 append-only|I9 erasure/,
        );
      }
      await inTenant(app, h.tenant, (tx) =>
        tx.unsafe(`update memledger.memories set state = 'erased', erased_at = ${at}, body = '', value = null,
          key = null, subjects = '[]', fingerprint = '' where id = ${id}`),
      );
      await refuses(
        h.tenant,
        `update memledger.memories set state = 'active' where id = ${id}`,
        /I9 erasure is final/,
      );
      await refuses(
        h.tenant,
        `update memledger.memories set body = 'back' where id = ${id}`,
        /I1 append-only/,
      );
      const erased = await me.get(a.id);
      assert.deepEqual([erased.state, erased.body, erased.key], ['erased', '', null]);
    } finally {
      await h.close();
    }
  });

  test('I1 append-only (postgres): events and rejections refuse UPDATE and DELETE; only blanking a reason passes', async () => {
    const h = await openPgLedger(db);
    try {
      const me = h.ledger.as(h.ledger.operator());
      const a = await me.remember({ body: 'Will be rejected', scope: 'shared' });
      await me.reject({ id: a.id, reason: 'not so', expect: 'active' });
      const id = lit(a.id);
      for (const [column, value] of [
        ['type', 'approved'],
        ['actor', 'human:ceo'],
        ['at', '1999-01-01T00:00:00.000Z'],
        ['detail', '{}x'],
        ['memory_id', 'mem_x'],
        ['reason', 'rewritten reason'],
      ] as const) {
        await refuses(
          h.tenant,
          `update memledger.events set ${column} = ${lit(value)} where memory_id = ${id}`,
          /I1 append-only/,
        );
      }
      await refuses(h.tenant, `delete from memledger.events where memory_id = ${id}`, /I1 append-only/);
      for (const [column, value] of [
        ['fingerprint', 'forged'],
        ['scope', 'user:elsewhere'],
        ['memory_id', 'mem_x'],
        ['by', 'human:ceo'],
        ['at', '1999-01-01T00:00:00.000Z'],
        ['reason', 'rewritten reason'],
      ] as const) {
        await refuses(
          h.tenant,
          `update memledger.rejections set "${column}" = ${lit(value)} where memory_id = ${id}`,
          /I5 rejection stands/,
        );
      }
      await refuses(
        h.tenant,
        `delete from memledger.rejections where memory_id = ${id}`,
        /I5 rejection stands/,
      );
      // Controls: erasure's blanking passes, and the rejection still stands.
      await inTenant(app, h.tenant, async (tx) => {
        await tx.unsafe(`update memledger.events set reason = null where memory_id = ${id}`);
        await tx.unsafe(`update memledger.rejections set reason = '' where memory_id = ${id}`);
      });
      assert.equal((await me.remember({ body: 'Will be rejected', scope: 'shared' })).state, 'rejected');
    } finally {
      await h.close();
    }
  });

  test('tenancy: the app role bound to tenant A reads and writes none of tenant B’s rows; A’s own are visible', async () => {
    const a = await openPgLedger(db);
    const b = await openPgLedger(db);
    try {
      await a.ledger.as(a.ledger.operator()).remember({ body: 'Tenant A control', scope: 'shared' });
      const secret = await b.ledger
        .as(b.ledger.operator())
        .remember({ body: 'Tenant B private', scope: 'shared' });
      const secretBefore = await b.ledger.as(b.ledger.operator()).get(secret.id);
      const seen = await inTenant(app, a.tenant, (tx) =>
        tx.unsafe(`select body, tenant from memledger.memories`),
      );
      assert.deepEqual(
        seen.map((r) => [r.body, r.tenant]),
        [['Tenant A control', a.tenant]],
        'A sees its own row and nothing of B',
      );
      for (const table of ['memories', 'events', 'home_keys', 'search_docs', 'scope_stats']) {
        const [row] = await inTenant(app, a.tenant, (tx) =>
          tx.unsafe(`select count(*)::int as n from memledger.${table} where tenant = ${lit(b.tenant)}`),
        );
        assert.equal(row!.n, 0, `no row of B in ${table}`);
      }
      const changed = await inTenant(app, a.tenant, (tx) =>
        tx.unsafe(
          `update memledger.memories set trust = 'unverified' where id = ${lit(secret.id)} returning 1`,
        ),
      );
      assert.equal(changed.length, 0, 'an update of B’s row touches nothing');
      await refuses(
        a.tenant,
        `insert into memledger.events (tenant, id, type, memory_id, actor, actor_kind, at)
         values (${lit(b.tenant)}, 'evt_forged', 'retracted', ${lit(secret.id)}, 'agent:x', 'agent', '2040-01-01')`,
        /row-level security/,
      );
      const [none] = await app.unsafe(`select count(*)::int as n from memledger.memories`);
      assert.equal(none!.n, 0, 'a connection that set no tenant sees no row at all');
      assert.deepEqual(
        await b.ledger.as(b.ledger.operator()).get(secret.id),
        secretBefore,
        'B’s row is unchanged',
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('I2 one successor (postgres): two supersedes of one memory through two pools: exactly one wins, the other is a conflict', async () => {
    const h = await openPgLedger(db);
    // A second replica: another store, another pool, on the same tenant.
    const other = await openPgLedger(db, { tenant: h.tenant });
    try {
      const me = h.ledger.as(h.ledger.operator());
      const them = other.ledger.as(other.ledger.operator());
      for (let round = 0; round < 5; round++) {
        const base = await me.remember({
          body: `Plan is Basic ${round}`,
          scope: 'shared',
          key: `plan.${round}`,
        });
        const results = await Promise.allSettled([
          me.remember({
            body: `Plan is Pro ${round}`,
            scope: 'shared',
            key: `plan.${round}`,
            supersedes: base.id,
          }),
          them.remember({
            body: `Plan is Team ${round}`,
            scope: 'shared',
            key: `plan.${round}`,
            supersedes: base.id,
          }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
        assert.equal(won.length, 1, `round ${round}: exactly one supersede lands`);
        assert.equal(lost[0]!.reason.class, 'conflict');
        const winner = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
        assert.equal((await them.get(base.id)).supersededBy, winner);
        const current = await me.list({ scopes: ['shared'], key: `plan.${round}` });
        assert.deepEqual(
          current.map((m) => m.id),
          [winner],
          'one current holder of the key',
        );
      }
    } finally {
      await other.close();
      await h.close();
    }
  });

  test('a role that may not migrate is refused a stale schema with a clear error; a current one opens', async () => {
    const admin = connect(db.adminUrl, { max: 1 });
    try {
      const store = await openPostgresStore(db.appUrl, { tenant: 'current_ok' });
      await store.end();
      // The newest store migration marked undone: the schema is one version behind this memledger.
      await admin`update memledger_migrations set version = 0 where part = 'store' and version = ${LATEST}`;
      await assert.rejects(
        openPostgresStore(db.appUrl, { tenant: 'stale' }),
        (e: Error & { class?: string }) => {
          assert.equal(e.class, 'conflict');
          assert.match(e.message, /run memledger migrate as the schema's owner/);
          return true;
        },
      );
    } finally {
      await admin`update memledger_migrations set version = ${LATEST} where part = 'store' and version = 0`;
      await admin.end();
    }
  });
});
