/**
 * The store's memory lookups keep an index under row-level security (issue 10): connected as a memledger_app
 * login with the tenant bound as `inTenant` binds it, the plans of the live-claim lookup (remember's
 * corroboration), the key-holder lookup (supersede, I2's conflict) and a hit's session neighbours use migration
 * 11's indexes, not a scan of the tenant with the lookup as a row filter. Each plan is read from the product's own
 * statement text (captured from the store function), and beside it the same lookup finds the right row and never
 * the other tenant's row with the same scope, key and fingerprint. Run with `--test-global-setup=test/global-setup.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, type Sql, TENANT_SETTING } from '../../src/store/postgres/database.ts';
import { readLiveClaims } from '../../src/store/postgres/feeds.ts';
import { PostgresNeighbourStore } from '../../src/store/postgres/neighbours.ts';
import { listMemories } from '../../src/store/postgres/search.ts';
import type { Q } from '../../src/store/postgres/statements.ts';
import { readHolder } from '../../src/store/postgres/unique-writes.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { newTenant, openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

const SCOPE = 'project:p07';
const KEY = 'Billing.Plan';
const BODY = 'the billing plan is the enterprise tier';
const SESSION = 'ses-rls-1';
const SCOPES = { all: false, exact: [SCOPE], prefixes: [] };

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** A Q that records the statements a store function sends and answers each with no rows. */
function recorder(): { q: Q; sent: { text: string; params: unknown[] }[] } {
  const sent: { text: string; params: unknown[] }[] = [];
  const q = {
    unsafe(text: string, params: unknown[]) {
      sent.push({ text, params });
      return Promise.resolve([]);
    },
  } as unknown as Q;
  return { q, sent };
}

/** `fn` in a transaction of the app role with `tenant` bound, as inTenant does. */
async function asTenant<T>(sql: Sql, tenant: string, fn: (q: Q) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    await tx`select set_config(${TENANT_SETTING}, ${tenant}, true)`;
    return fn(tx);
  })) as T;
}

/** Every node of the plan of the statement the store function sends first. */
async function planOf(sql: Sql, tenant: string, call: (q: Q) => Promise<unknown>): Promise<PlanNode[]> {
  const { q, sent } = recorder();
  await call(q);
  assert.ok(sent.length > 0, 'the store function sent its statement');
  return explain(sql, tenant, sent[0]!);
}

/** Every node of a statement's plan, as the app role with `tenant` bound. */
async function explain(
  sql: Sql,
  tenant: string,
  { text, params }: { text: string; params: unknown[] },
): Promise<PlanNode[]> {
  const rows = (await asTenant(sql, tenant, (tx) =>
    // biome-ignore lint/suspicious/noExplicitAny: postgres.js types parameters loosely
    tx.unsafe(`explain (format json) ${text}`, params as any[]),
  )) as unknown as { 'QUERY PLAN': { Plan: PlanNode }[] }[];
  const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
  assert.ok(plan !== undefined, 'EXPLAIN answered with a plan');
  return nodes(plan);
}

/**
 * The plan seeks `index` with `column` in its index condition, scans no memories row by row, and filters on no
 * column through a function RLS would keep out of an index condition (the statements before Postgres migration 10).
 */
const usesIndex = (found: PlanNode[], index: string, column: string) =>
  found.some((n) => n['Index Name'] === index && (n['Index Cond'] ?? '').includes(`${column} =`)) &&
  !found.some((n) => n['Node Type'].includes('Seq Scan') && n['Relation Name'] === 'memories') &&
  !found.some((n) => /\b(substr|lower)\(|->>/.test(n.Filter ?? ''));

describe('Postgres lookups under row-level security', { skip }, () => {
  let db: PgTestDatabase;
  let app: Sql;
  const tenants = { a: '', b: '' };
  const ids = { a: '', b: '', aNext: '' };
  let fingerprint = '';

  before(async () => {
    if ('skip' in cluster) return;
    db = await pgTestDatabase(cluster.url);
    tenants.a = newTenant();
    tenants.b = newTenant();
    // A few thousand rows in both tenants, before and after the memories under test (as the superuser: filler
    // for the planner, not a path under test), many in the same scope, then statistics as autovacuum gathers them.
    const admin = connect(db.adminUrl, { max: 1 });
    const fill = async (from: number) => {
      for (const tenant of [tenants.a, tenants.b]) {
        await admin.unsafe(
          `insert into memledger.memories (tenant, id, scope, kind, key, body, confidence, fingerprint, provenance,
             recorded_at, state, trust, active_from)
           select $1, 'mem_fill_' || i, case when i % 4 = 0 then $2 else 'project:p' || (i % 40) end, 'fact',
             case when i % 3 = 0 then 'slot.' || i end, 'filler ' || i, 0.9, md5('fp' || i),
             '{"sessionId":"ses-' || (i % 300) || '"}', '2026-01-01T00:00:00.000Z', 'active', 'accepted',
             '2026-01-01T00:00:00.000Z'
           from generate_series($3::int, $3::int + 1999) i`,
          [tenant, SCOPE, from],
        );
      }
    };
    try {
      await fill(1);
      for (const side of ['a', 'b'] as const) {
        const l = await openPgLedger(db, { tenant: tenants[side] });
        const ctx = { surface: 'library', client: 'pg-rls-plans', sessionId: SESSION } as const;
        const s = l.ledger.as(l.ledger.operator(), ctx);
        ids[side] = (await s.remember({ body: BODY, scope: SCOPE, key: KEY, kind: 'fact' })).id;
        if (side === 'a') {
          ids.aNext = (await s.remember({ body: 'renewal is in march', scope: SCOPE, kind: 'fact' })).id;
        }
        await l.close();
      }
      await fill(2001);
      await admin.unsafe('analyze memledger.memories');
      const [row] = await admin<{ fingerprint: string }[]>`
        select fingerprint from memledger.memories where id = ${ids.a}`;
      fingerprint = row!.fingerprint;
    } finally {
      await admin.end();
    }
    app = connect(db.appUrl, { max: 2 });
  });

  after(async () => {
    await app?.end();
    await db?.drop();
  });

  test('the live-claim lookup seeks memories_live_claim, and finds its tenant`s claim only', async () => {
    const plan = await planOf(app, tenants.a, (q) => readLiveClaims(q, SCOPE, fingerprint));
    assert.ok(usesIndex(plan, 'memories_live_claim', 'fingerprint'), JSON.stringify(plan));
    // Control: the same lookup returns the claim's row in each tenant, never the other tenant's twin.
    for (const side of ['a', 'b'] as const) {
      const found = await asTenant(app, tenants[side], (q) => readLiveClaims(q, SCOPE, fingerprint));
      assert.deepEqual(
        found.map((m) => m.id),
        [ids[side]],
      );
    }
    const other = await asTenant(app, tenants.a, (q) => readLiveClaims(q, 'project:p1', fingerprint));
    assert.deepEqual(other, [], 'another scope does not say the claim');
  });

  test('the key-holder lookup seeks memories_key_holder on key_folded, case-insensitively, per tenant', async () => {
    const plan = await planOf(app, tenants.a, (q) => readHolder(q, SCOPE, 'billing.PLAN'));
    assert.ok(usesIndex(plan, 'memories_key_holder', 'key_folded'), JSON.stringify(plan));
    for (const side of ['a', 'b'] as const) {
      const holder = await asTenant(app, tenants[side], (q) => readHolder(q, SCOPE, 'billing.PLAN'));
      assert.equal(holder?.id, ids[side]);
    }
    const none = await asTenant(app, tenants.a, (q) => readHolder(q, SCOPE, 'billing.plan.x'));
    assert.equal(none, undefined, 'a different key has no holder');
  });

  test('a listing of kinds in scopes (context`s commitments) seeks each (scope, kind) by index, as one statement answered', async () => {
    const filter = {
      scopes: { all: false as const, exact: [SCOPE, 'project:p1'], prefixes: [] },
      kinds: ['fact' as const, 'note' as const],
      states: ['active' as const],
      validAt: '2030-01-01T00:00:00.000Z',
      limit: 7,
    };
    const plan = await planOf(app, tenants.a, (q) => listMemories(q, filter));
    const scans = plan.filter((n) => n['Relation Name'] === 'memories');
    assert.ok(scans.length > 0, JSON.stringify(plan));
    for (const n of scans) {
      // Before migration 11: the primary key walked backward with scope and kind as a row filter.
      assert.match(n['Index Cond'] ?? '', /scope = s\.scope/, JSON.stringify(plan));
    }
    // Control: the same rows, in the same order, as the one statement over every pair; none of tenant b.
    const listed = await asTenant(app, tenants.a, (q) => listMemories(q, filter));
    const expected = await asTenant(app, tenants.a, (q) =>
      q.unsafe(
        `select id from memledger.memories where scope = any($1) and kind = any($2) and state = 'active'
         order by seq desc limit 7`,
        [filter.scopes.exact, filter.kinds],
      ),
    );
    assert.equal(listed.length, 7);
    assert.deepEqual(
      listed.map((m) => m.id),
      expected.map((r) => r.id),
    );
    const seqsOfB = await asTenant(app, tenants.b, (q) =>
      q.unsafe(`select id from memledger.memories where id = any($1) and scope = any($2)`, [
        listed.map((m) => m.id),
        filter.scopes.exact,
      ]),
    );
    assert.ok(seqsOfB.length > 0, 'tenant b holds rows with the same ids (the filler): the listing read a`s');
  });

  test('a hit`s session neighbours seek memories_session, within the tenant', async () => {
    const sent: { text: string; params: unknown[] }[] = [];
    // The anchor read runs for real (its seq and session), the two side statements are recorded for EXPLAIN.
    await asTenant(app, tenants.a, (tx) => {
      const anchored = {
        unsafe(text: string, params: unknown[]) {
          sent.push({ text, params });
          // biome-ignore lint/suspicious/noExplicitAny: postgres.js types parameters loosely
          return sent.length === 1 ? tx.unsafe(text, params as any[]) : Promise.resolve([]);
        },
      } as unknown as Q;
      return new PostgresNeighbourStore((fn) => fn(anchored)).around([ids.aNext], SCOPES);
    });
    assert.equal(sent.length, 3, 'anchor, before and after');
    for (const statement of sent.slice(1)) {
      const plan = await explain(app, tenants.a, statement);
      assert.ok(usesIndex(plan, 'memories_session', 'session_id'), JSON.stringify(plan));
    }
    // Control: the neighbour found is tenant a's earlier turn, not tenant b's memory of the same session.
    const around = await asTenant(app, tenants.a, (tx) =>
      new PostgresNeighbourStore((fn) => fn(tx)).around([ids.aNext], SCOPES),
    );
    assert.equal(around.get(ids.aNext)?.before?.id, ids.a);
    assert.equal(around.get(ids.aNext)?.after, null);
  });
});

describe('Postgres migration 10 keeps content out of planner statistics (I9)', { skip }, () => {
  test('I9 no statistics of key_folded or session_id after ANALYZE; the state column, not content, has them', async () => {
    if ('skip' in cluster) return;
    const db = await pgTestDatabase(cluster.url);
    const l = await openPgLedger(db);
    const admin = connect(db.adminUrl, { max: 1 });
    try {
      const s = l.ledger.as(l.ledger.operator(), {
        surface: 'library',
        client: 'pg-rls-plans',
        sessionId: SESSION,
      });
      for (let i = 0; i < 5; i++)
        await s.remember({ body: `${BODY} ${i}`, scope: SCOPE, key: `${KEY}.${i}`, kind: 'fact' });
      await admin.unsafe('analyze memledger.memories');
      const rows = await admin<{ attname: string }[]>`
        select attname from pg_stats where schemaname = 'memledger' and tablename = 'memories'
          and attname in ('key_folded', 'session_id', 'state')`;
      assert.deepEqual(
        rows.map((r) => r.attname),
        ['state'],
      );
    } finally {
      await admin.end();
      await l.close();
      await db.drop();
    }
  });
});
