/**
 * The SQLite side of scores that depend only on readable rows (I4, src/store/sqlite/scoped-search.ts): the two
 * scope strategies agree, the re-done bm25 is FTS5's own when the statistics are the same, filters do not
 * change what is counted, and past the candidate cap the choice of candidates still ignores other scopes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import { type LedgerSession, openLedger } from '../../src/index.ts';
import type { SearchPlan } from '../../src/store/port.ts';
import { scopedCandidates } from '../../src/store/sqlite/scoped-search.ts';
import { openSqliteStore } from '../../src/store/sqlite/store.ts';
import { planFor, raw, resolve, withHome } from './helpers.ts';

const WORDS = ['otter', 'river', 'holt', 'fish', 'night', 'den', 'bank', 'reed', 'stone', 'current'];

/** A body of `n` words drawn from WORDS by a fixed rule, so documents differ in length and word counts. */
const body = (i: number, n: number) =>
  Array.from({ length: n }, (_, j) => WORDS[(i * 7 + j * j) % 10]).join(' ');

const candidatesOf = (
  db: DatabaseSync,
  plan: SearchPlan,
  scopes: ReturnType<typeof resolve>,
  useTokens: boolean,
  cap = 1000,
) => scopedCandidates(plan, scopes, (sql) => db.prepare(sql), { useTokens, cap });

describe('scoped search', () => {
  test('both scope strategies return the same candidates with the same scores, filtered or not, current or as of', () => {
    let early = '';
    let t = Date.parse('2031-05-01T00:00:00.000Z');
    const now = () => new Date(t).toISOString();
    return withHome(
      async ({ db, ledger }) => {
        const me = ledger.as(ledger.operator());
        for (let i = 0; i < 60; i++) {
          await me.remember({
            body: body(i, 3 + (i % 9)),
            scope: `project:p${i % 12}`,
            kind: i % 3 === 0 ? 'decision' : 'fact',
            ...(i % 5 === 0 ? { key: `k${i % 4}` } : {}),
          });
          if (i === 20) early = now();
          t += 60_000;
        }
        // Versions that were current at `early` and are history now, for the as-of reads.
        for (let i = 0; i < 6; i++) {
          await me.remember({ body: body(i + 3, 5), scope: 'project:p1', key: 'k1' });
          t += 60_000;
        }
        raw(db, (d) => {
          assert.ok(
            (
              d
                .prepare('SELECT count(*) AS n FROM scope_stats WHERE idx = ? AND docs > 0')
                .get('history') as { n: number }
            ).n > 0,
          );
          const scopes = resolve(d, [], ['project:']);
          let found = 0;
          for (const extra of [
            {},
            { kinds: ['decision' as const] },
            { key: 'k1' },
            { asOf: early },
            { candidates: 5 },
          ]) {
            for (const query of ['otter river', 'holt fish night den', 'stone']) {
              const plan = planFor(query, {
                scopes: { all: false, exact: [], prefixes: ['project:'] },
                ...extra,
              });
              const tokens = candidatesOf(d, plan, scopes, true);
              if (tokens.length > 0) found++;
              assert.deepEqual(
                candidatesOf(d, plan, scopes, false),
                tokens,
                `${query} ${JSON.stringify(extra)}`,
              );
            }
          }
          assert.ok(found >= 12, `${found} of 15 searches found something`);
          // A filter picks which matches come back; each keeps the score it has without the filter.
          const all = candidatesOf(d, planFor('otter river', { candidates: 100 }), scopes, true);
          const decisions = candidatesOf(
            d,
            planFor('otter river', { kinds: ['decision'], candidates: 100 }),
            scopes,
            true,
          );
          assert.ok(decisions.length > 0 && decisions.length < all.length);
          for (const c of decisions) assert.equal(c.bm25, all.find((a) => a.memory.id === c.memory.id)!.bm25);
        });
      },
      { now },
    );
  });

  test('over every scope, its bm25 is FTS5’s own while no row has left the index', () =>
    withHome(async ({ db, ledger }) => {
      const me = ledger.as(ledger.operator());
      for (let i = 0; i < 40; i++) {
        await me.remember({
          body: `${body(i, 2 + (i % 11))} Running deploys`,
          scope: ['shared', 'user:u', 'agent:a', 'project:q'][i % 4]!,
          ...(i % 6 === 0 ? { key: `otter.field${i}`, value: { note: 'river bank', n: i } } : {}),
          ...(i % 7 === 0 ? { subjects: ['company:otter-works'] } : {}),
        });
      }
      raw(db, (d) => {
        const everything = resolve(d, ['shared'], ['user:', 'agent:', 'project:']);
        for (const query of ['otter river', 'holt fish night den bank', 'deploying runs', 'works field']) {
          const plan = planFor(query, { candidates: 100 });
          const fts5 = new Map(
            (
              d
                .prepare(
                  `SELECT rowid, bm25(fts_current, 1.0, 0.5, 0.0) AS s FROM fts_current WHERE fts_current MATCH ?`,
                )
                .all(plan.match) as { rowid: number; s: number }[]
            ).map((r) => [r.rowid, r.s]),
          );
          const mine = candidatesOf(d, plan, everything, false);
          assert.equal(mine.length, fts5.size, query);
          for (const c of mine) {
            const { seq } = d.prepare('SELECT seq FROM memories WHERE id = ?').get(c.memory.id) as {
              seq: number;
            };
            assert.ok(Math.abs(c.bm25 - fts5.get(seq)!) < 1e-9, `${query}: ${c.bm25} vs ${fts5.get(seq)}`);
          }
        }
      });
    }));

  test('past the cap, the candidates are the newest matches, in scopes small enough to be read forwards first and in larger ones', () =>
    withHome(async ({ db, ledger }) => {
      const me = ledger.as(ledger.operator());
      // agent:small holds 20 documents (read forwards first at a cap of 8: under 5 × 8), agent:large 50 (read
      // newest first at once); every one matches, with the same score, so only their age decides.
      const written: Record<string, string[]> = { 'agent:small': [], 'agent:large': [] };
      for (let i = 0; i < 50; i++) {
        for (const scope of i < 20 ? ['agent:small', 'agent:large'] : ['agent:large']) {
          written[scope]!.push((await me.remember({ body: `otter seen ${i}`, scope })).id);
        }
      }
      raw(db, (d) => {
        for (const [scope, ids] of Object.entries(written)) {
          const plan = planFor('otter', { scopes: { all: false, exact: [scope], prefixes: [] } });
          const capped = candidatesOf(d, plan, resolve(d, [scope]), true, 8).map((c) => c.memory.id);
          // The read that finds the cap passed takes one more: the newest 9, never the oldest.
          assert.deepEqual(capped, ids.slice(-9).reverse(), `${scope}: the newest 9, newest first`);
          // Control: under a cap that holds them all, the same search returns every one of them.
          assert.equal(candidatesOf(d, plan, resolve(d, [scope]), true).length, ids.length);
        }
      });
    }));

  test('past the cap, every match of the rarest word is a candidate however old, and other scopes still change nothing', async () => {
    const home = mkdtempSync(join(tmpdir(), 'memledger-store-'));
    const write = async (fn: (me: LedgerSession) => Promise<unknown>) => {
      const ledger = openLedger({ home });
      try {
        await fn(ledger.as(ledger.operator()));
      } finally {
        ledger.close();
      }
    };
    const plan = planFor('otter holt', {
      scopes: { all: false, exact: ['agent:a'], prefixes: [] },
      candidates: 10,
    });
    // The cap is a store option: 8 matches read newest first, then every match of the words that fit in 8.
    const capped = async () => {
      const store = openSqliteStore(join(home, 'memory.db'), { searchCandidateCap: 8 });
      try {
        return await store.search(plan);
      } finally {
        store.close();
      }
    };
    try {
      await write(async (me) => {
        await me.remember({ body: 'The old holt by the otter stone', scope: 'agent:a' });
        for (let i = 0; i < 30; i++) await me.remember({ body: `otter seen ${i}`, scope: 'agent:a' });
      });
      const before = await capped();
      assert.equal(before.length, 10);
      assert.match(
        before[0]!.memory.body,
        /old holt/,
        'the one match of the rare word, the oldest, ranks first',
      );

      await write(async (me) => {
        for (let i = 0; i < 40; i++) {
          const word = i % 3 === 0 ? 'holt' : 'river';
          await me.remember({ body: `otter otter ${word} ${i}`, scope: i % 2 === 0 ? 'shared' : 'agent:b' });
        }
      });
      assert.deepEqual(await capped(), before);

      // Control: the same kind of write in the searched scope does change the candidates.
      await write((me) => me.remember({ body: 'otter holt holt', scope: 'agent:a' }));
      assert.notDeepEqual(await capped(), before);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
