/**
 * Search under row-level security (Postgres migration 11), on a database owned and migrated by a non-superuser as
 * deployed (a superuser owner would bypass RLS whatever the migration did): as a memledger_app login the scoped
 * search's matching plan (auto_explain, nested statements included) is a bitmap of the GIN of documents and
 * scope lexemes, testing no tsvector row by row; `memledger.search_matches`, called directly, returns its own
 * tenant's documents only, nothing with no tenant, nothing for scope text naming another tenant; a role outside
 * memledger_app may not call it; reindex through the owner, which search_docs' RLS no longer binds, keeps to its
 * tenant; ANALYZE keeps no statistics of the documents (I9). Run with `--test-global-setup=test/global-setup.ts`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect, type Sql, TENANT_SETTING } from '../../src/store/postgres/database.ts';
import { documentVector } from '../../src/store/postgres/rows.ts';
import { scopedCandidates } from '../../src/store/postgres/scoped-search.ts';
import type { Q } from '../../src/store/postgres/statements.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { planFor } from './helpers.ts';
import { newTenant, openPgLedger, type PgTestDatabase, pgOwnedDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

const SCOPE = 'project:p07';
const BODY = 'the billing plan is the enterprise tier';
const SCOPES = { all: false as const, exact: [SCOPE], prefixes: [] };

/** `fn` in a transaction of `sql`'s role with `tenant` bound, as inTenant does. */
async function asTenant<T>(sql: Sql, tenant: string, fn: (q: Q) => Promise<T>): Promise<T> {
  return (await sql.begin(async (tx) => {
    await tx`select set_config(${TENANT_SETTING}, ${tenant}, true)`;
    return fn(tx);
  })) as T;
}

describe('Postgres search under row-level security (migration 11)', { skip }, () => {
  let db: PgTestDatabase & { ownerUrl: string };
  let app: Sql;
  const tenants = { a: '', b: '' };
  const seqs = { a: 0, b: 0 };

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
        const plan = planFor('billing enterprise', { scopes: SCOPES });
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

  test('I9 no statistics of the documents after ANALYZE: neither tsv nor search_docs_scoped`s lexemes; scope has them', async () => {
    const admin = connect(db.adminUrl, { max: 1 });
    try {
      const rows = await admin<{ t: string; a: string }[]>`
        select tablename as t, attname as a from pg_stats where schemaname = 'memledger'
          and tablename in ('search_docs', 'search_docs_scoped') and attname in ('scope', 'tsv', 'expr')
        order by 1, 2`;
      assert.deepEqual(
        rows.map((r) => `${r.t}.${r.a}`),
        ['search_docs.scope'],
      );
    } finally {
      await admin.end();
    }
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
