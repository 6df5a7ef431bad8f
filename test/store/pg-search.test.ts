/**
 * Search on Postgres against SQLite's: the same memories written to both through the library, the same plans,
 * the same candidates with the same bm25 (both index FTS5's tokens and score from per-scope statistics), for
 * scoped and every-scope reads; query text full of tsquery syntax stays words (I11).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import type { SearchCandidate, SearchPlan } from '../../src/store/port.ts';
import { planFor } from './helpers.ts';
import { openPgLedger, describeOnPostgres } from './pg-helpers.ts';

const WORDS =
  'acme plan billing invoice renewal support ticket outage deploy release staging customer contract pricing tier seat discount refund migration database backup'.split(
    ' ',
  );
const SCOPES = ['shared', 'project:api', 'project:web', 'user:ana'];

/** A deterministic corpus: bodies of 6–12 words, keys on some, spread over four scopes. */
function corpus(): { body: string; scope: string; key?: string; subjects?: string[] }[] {
  let state = 7;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const out: { body: string; scope: string; key?: string; subjects?: string[] }[] = [];
  for (let i = 0; i < 240; i++) {
    const n = 6 + Math.floor(next() * 7);
    const words = Array.from({ length: n }, () => WORDS[Math.floor(WORDS.length * next() ** 1.5)]!);
    out.push({
      body: `${words.join(' ')} note ${i}`,
      scope: SCOPES[i % SCOPES.length]!,
      ...(i % 9 === 0 ? { key: `item.${WORDS[i % WORDS.length]}.${i}` } : {}),
      ...(i % 13 === 0 ? { subjects: [`company:${WORDS[(i * 7) % WORDS.length]}`] } : {}),
    });
  }
  return out;
}

const shape = (hits: SearchCandidate[]) =>
  hits.map((h) => [h.memory.body, Math.round(h.bm25 * 1e9) / 1e9] as const);

describeOnPostgres('postgres search against sqlite', {}, (database) => {
  test('the same memories give the same candidates and bm25 on both backends, scoped and unscoped', async () => {
    const home = mkdtempSync(join(tmpdir(), 'memledger-parity-'));
    const sqlite = openLedger({ home });
    const pg = await openPgLedger(database());
    try {
      for (const ledger of [sqlite, pg.ledger]) {
        const me = ledger.as(ledger.operator());
        for (const m of corpus()) await me.remember(m);
      }
      const plans: SearchPlan[] = [];
      for (const q of [
        'acme billing',
        'outage deploy release',
        'refund',
        'seat pricing tier discount',
        'renewals',
      ]) {
        plans.push(planFor(q, { candidates: 500 }));
        plans.push(
          planFor(q, { candidates: 500, scopes: { all: false, exact: ['project:api'], prefixes: [] } }),
        );
        plans.push(
          planFor(q, { candidates: 500, scopes: { all: false, exact: ['shared'], prefixes: ['project:'] } }),
        );
        plans.push(planFor(q, { candidates: 5, scopes: { all: false, exact: ['user:ana'], prefixes: [] } }));
      }
      for (const plan of plans) {
        const [a, b] = [await sqlite.store.search(plan), await pg.ledger.store.search(plan)];
        assert.ok(a.length > 0, `control: ${plan.terms.join(' ')} matches on SQLite`);
        if (plan.scopes.all) {
          // FTS5 orders equal scores its own way: compare each body's score, then the set.
          const sort = (x: ReturnType<typeof shape>) =>
            [...x].sort((p, q) => p[1] - q[1] || p[0].localeCompare(q[0]));
          assert.deepEqual(sort(shape(b)), sort(shape(a)), `every scope: ${plan.terms.join(' ')}`);
        } else {
          assert.deepEqual(shape(b), shape(a), `${JSON.stringify(plan.scopes)}: ${plan.terms.join(' ')}`);
        }
      }
    } finally {
      sqlite.close();
      rmSync(home, { recursive: true, force: true });
      await pg.close();
    }
  });

  test('reindex rebuilds the same search documents and statistics: every search answers as before', async () => {
    const pg = await openPgLedger(database());
    try {
      const me = pg.ledger.as(pg.ledger.operator());
      for (const m of corpus().slice(0, 80)) await me.remember(m);
      const first = await me.remember({ body: 'acme billing moved', scope: 'shared', key: 'acme.billing' });
      await me.remember({
        body: 'acme billing moved again',
        scope: 'shared',
        key: 'acme.billing',
        supersedes: first.id,
      });
      const plans = [
        planFor('acme billing', { candidates: 500 }),
        planFor('acme billing', { candidates: 500, asOf: new Date().toISOString() }),
        planFor('refund pricing', {
          candidates: 500,
          scopes: { all: false, exact: ['project:api'], prefixes: [] },
        }),
      ];
      const before = await Promise.all(plans.map((p) => pg.store.search(p)));
      const stats = await pg.store.stats();
      assert.ok(
        before.every((b) => b.length > 0),
        'control: every plan matches',
      );
      const { indexed } = await pg.store.reindex();
      assert.equal(indexed, 82, 'every landed, unerased version is indexed again');
      assert.deepEqual(await Promise.all(plans.map((p) => pg.store.search(p))), before);
      assert.deepEqual(await pg.store.stats(), stats);
    } finally {
      await pg.close();
    }
  });

  test('I11 user text (postgres): tsquery operators in a query are words, never syntax; the words still match', async () => {
    const pg = await openPgLedger(database());
    try {
      const me = pg.ledger.as(pg.ledger.operator());
      const target = await me.remember({ body: 'Acme plan renewal is due in May', scope: 'shared' });
      await me.remember({ body: 'Unrelated control about lunch', scope: 'shared' });
      for (const query of [
        "acme' & !plan:* | (renewal)",
        "renewal <-> \\' ''",
        'acme:A <2> plan',
        "'acme'",
      ]) {
        const { hits } = await me.search({ query });
        assert.deepEqual(
          hits.map((h) => h.memory.id),
          [target.id],
          query,
        );
      }
    } finally {
      await pg.close();
    }
  });
});
