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
import { documentVector } from '../../src/store/postgres/rows.ts';
import { scopedCandidates } from '../../src/store/postgres/scoped-search.ts';
import { PostgresNeighbourStore } from '../../src/store/postgres/neighbours.ts';
import type { Q } from '../../src/store/postgres/statements.ts';
import { readHolder } from '../../src/store/postgres/unique-writes.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { planFor } from './helpers.ts';
import {
  newTenant,
  openPgLedger,
  type PgTestDatabase,
  pgOwnedDatabase,
  pgTestDatabase,
} from './pg-helpers.ts';

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

describe('Postgres search under row-level security (migration 11)', { skip }, () => {
  let db: PgTestDatabase & { ownerUrl: string };
  let app: Sql;
  const tenants = { a: '', b: '' };
  const seqs = { a: 0, b: 0 };
  const SEARCH = { ...SCOPES, all: false as const };

  before(async () => {
    if ('skip' in cluster) return;
    // Owned and migrated by a non-superuser, as deployed: a superuser owner would bypass RLS whatever 11 did.
    db = await pgOwnedDatabase(cluster.url);
    tenants.a = newTenant();
    tenants.b = newTenant();
    for (const side of ['a', 'b'] as const) {
      const l = await openPgLedger(db, { tenant: tenants[side] });
      const s = l.ledger.as(l.ledger.operator(), { surface: 'library', client: 'pg-rls-plans' });
      const body = side === 'a' ? BODY : 'the billing plan is the zebra tier';
      await s.remember({ body, scope: SCOPE, kind: 'fact' });
      await l.close();
    }
    // Filler documents in both tenants (as the superuser: for the planner, not a path under test), a quarter in
    // SCOPE, none holding the words searched for, then statistics.
    const admin = connect(db.adminUrl, { max: 1 });
    try {
      for (const tenant of [tenants.a, tenants.b]) {
        const docs = Array.from({ length: 4000 }, (_, i) =>
          documentVector({
            body: `filler w${i % 500} w${i % 37}`,
            scope: SCOPE,
            key: null,
            subjects: [],
            value: null,
          }),
        );
        await admin.unsafe(
          `insert into memledger.search_docs (tenant, idx, seq, scope, tsv)
           select $1, 'current', 100000000 + i, case when i % 4 = 0 then $2 else 'project:p' || (i % 40) end,
             (($3::text[])[i + 1])::tsvector
           from generate_series(0, 3999) i`,
          [tenant, SCOPE, docs],
        );
      }
      await admin.unsafe('analyze memledger.search_docs');
      for (const side of ['a', 'b'] as const) {
        const [row] = await admin<{ seq: number }[]>`select seq::float8 as seq from memledger.memories
          where tenant = ${tenants[side]} and scope = ${SCOPE}`;
        seqs[side] = row!.seq;
      }
    } finally {
      await admin.end();
    }
    app = connect(db.appUrl, { max: 2 });
  });

  after(async () => {
    await app?.end();
    await db?.drop();
  });

  test('a scoped search as the app role matches through the GIN index, and finds its tenant`s document only', async () => {
    // The plans of every statement the search runs, nested ones included, as notices (auto_explain) on a login
    // of its own so the setting binds nothing else.
    const admin = connect(db.adminUrl, { max: 1 });
    const role = `${db.role}_explain`;
    const plans: string[] = [];
    try {
      await admin.unsafe(`create role ${role} login in role memledger_app`);
      for (const [k, v] of [
        ['session_preload_libraries', 'auto_explain'],
        ['auto_explain.log_min_duration', '0'],
        ['auto_explain.log_nested_statements', 'on'],
        ['auto_explain.log_level', 'notice'],
      ]) {
        await admin.unsafe(`alter role ${role} set ${k} = '${v}'`);
      }
      const url = new URL(db.appUrl);
      url.username = role;
      const explaining = connect(url.toString(), {
        max: 1,
        onNotice: (n) => {
          if (n.message?.includes('plan:') === true) plans.push(n.message);
        },
      });
      try {
        const plan = planFor('billing enterprise', { scopes: SEARCH });
        const found = await asTenant(explaining, tenants.a, (q) => scopedCandidates(q, plan));
        assert.deepEqual(
          found.map((c) => c.memory.body),
          [BODY],
        );
      } finally {
        await explaining.end();
      }
    } finally {
      await admin.unsafe(`drop role if exists ${role}`);
      await admin.end();
    }
    const all = plans.join('\n');
    assert.match(all, /Bitmap Index Scan on search_docs_scoped/, all);
    assert.doesNotMatch(all, /Filter: [^\n]*@@/, 'no tsvector is tested row by row');
  });

  test('tenancy: search_matches as the app role returns its own tenant`s documents only; no tenant, no rows', async () => {
    const call = (
      tenant: string | null,
      words: string,
      exact: string[] | null,
      prefixes: string[] | null = null,
    ) => {
      const text = `select seq::float8 as seq from memledger.search_matches('{current}', $1::tsquery, $2::text[],
        $3::text[], null) order by seq`;
      if (tenant === null) return app.unsafe(text, [words, exact, prefixes]);
      return asTenant(app, tenant, (q) => q.unsafe(text, [words, exact, prefixes] as never));
    };
    const seqOf = (rows: readonly unknown[]) => (rows as { seq: number }[]).map((r) => r.seq);
    // Control: each tenant finds its own document, in its scope, by prefix, and in every scope (null).
    assert.deepEqual(seqOf(await call(tenants.a, `'bill'`, [SCOPE])), [seqs.a]);
    assert.deepEqual(seqOf(await call(tenants.a, `'bill'`, [], ['project:'])), [seqs.a]);
    assert.deepEqual(seqOf(await call(tenants.b, `'bill'`, null)), [seqs.b]);
    assert.deepEqual(seqOf(await call(tenants.b, `'zebra'`, [SCOPE])), [seqs.b]);
    // B's word in B's scope, by prefix, in every scope: nothing of B in tenant A; nothing with no tenant set.
    assert.deepEqual(seqOf(await call(tenants.a, `'zebra'`, [SCOPE])), []);
    assert.deepEqual(seqOf(await call(tenants.a, `'zebra'`, null, ['project:'])), []);
    assert.deepEqual(seqOf(await call(tenants.a, `'zebra'`, null)), []);
    assert.deepEqual(seqOf(await call(null, `'bill'`, null)), []);
    assert.deepEqual(seqOf(await call(null, `'bill'`, [SCOPE])), []);
    // A scope naming B's tenant inside its lexeme, tsquery syntax in a scope, another scope: nothing.
    assert.deepEqual(
      seqOf(await call(tenants.a, `'zebra'`, [`${SCOPE}`, `x' | '' ${tenants.b} ${SCOPE}`])),
      [],
    );
    assert.deepEqual(seqOf(await call(tenants.a, `'bill'`, ['project:p1'])), []);
    assert.deepEqual(seqOf(await call(tenants.a, `'bill'`, [])), [], 'no scope at all: nothing');
  });

  test('tenancy: a role outside memledger_app may not call search_matches', async () => {
    const admin = connect(db.adminUrl, { max: 1 });
    const role = `${db.role}_outsider`;
    try {
      await admin.unsafe(`create role ${role} login in role memledger_auditor`);
      const url = new URL(db.appUrl);
      url.username = role;
      const outsider = connect(url.toString(), { max: 1 });
      try {
        await assert.rejects(
          asTenant(outsider, tenants.b, (q) =>
            q.unsafe(`select * from memledger.search_matches('{current}', 'zebra', null, null, null)`),
          ),
          /permission denied/,
        );
      } finally {
        await outsider.end();
      }
      // Control: the app role may.
      const rows = await asTenant(app, tenants.b, (q) =>
        q.unsafe(`select * from memledger.search_matches('{current}', 'zebra', null, null, null)`),
      );
      assert.equal(rows.length, 1);
    } finally {
      await admin.unsafe(`drop role if exists ${role}`);
      await admin.end();
    }
  });

  test('tenancy: reindex through the schema owner (RLS on search_docs is not forced on it) keeps to its tenant', async () => {
    const url = new URL(db.ownerUrl);
    url.searchParams.set('tenant', tenants.a);
    const owner = await openPgLedger({ ...db, appUrl: url.toString() }, { tenant: tenants.a });
    try {
      await owner.ledger.as(owner.ledger.operator()).reindex();
    } finally {
      await owner.close();
    }
    const count = async (tenant: string) => {
      const admin = connect(db.adminUrl, { max: 1 });
      try {
        const [row] = await admin<{ n: number }[]>`
          select count(*)::int as n from memledger.search_docs where tenant = ${tenant}`;
        return row!.n;
      } finally {
        await admin.end();
      }
    };
    // A's documents are rebuilt from its memories (the filler has none, so only A's one memory); B's all stay.
    assert.equal(await count(tenants.a), 1);
    assert.equal(await count(tenants.b), 4001);
  });
});
