/** I11 user text is data: any query yields results or invalid_input, never internal; words match with OR, ranked. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isMemoryError, KINDS, type LedgerSession, STATES } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, importedMemoryLine, linesOf, storeCounts } from '../helpers.ts';

// Query strings that would be FTS5 or SQL syntax if they reached the engine unquoted.
const HOSTILE: string[] = [
  '"',
  '""',
  '"unterminated wombat',
  "'",
  "''",
  "wombat'; DROP TABLE memories; --",
  'NEAR(wombat quokka)',
  'NEAR("wombat" "quokka", 2)',
  'wombat NEAR/2 quokka',
  'body:wombat',
  'scope_tok:sc0000',
  '{body meta}: wombat',
  '- wombat',
  '-wombat',
  '+wombat',
  '^wombat',
  '*',
  'wombat*',
  '* wombat',
  '(',
  ')',
  '((wombat',
  'wombat))',
  'AND',
  'OR',
  'NOT',
  'wombat AND',
  'OR OR OR',
  'NOT wombat',
  'wombat NOT quokka',
  '\u0000',
  'wombat\u0000quokka',
  '\\',
  '%_',
  '$1 ?1 :match @x',
  '<script>alert(1)</script>',
  'wömbät',
  'ＷＯＭＢＡＴ',
  '袋熊 ウォンバット',
  '\u202Ewombat',
  '\uD800',
  'e\u0301\u0301\u0301',
  '🦘🦘🦘',
  'wombat 🦘',
  '',
  '   ',
  '\n\t\r',
  'a'.repeat(1000),
  'wombat '.repeat(142),
  'a'.repeat(1001),
];

// Times Date.parse would shift or guess: calendar roll-over, out-of-range parts, year 0000, no zone.
const BAD_TIMES = [
  '2024-02-30',
  '2023-02-29',
  '2024-13-01',
  '2024-00-10',
  '2024-05-01T24:00:00Z',
  '2024-05-01T10:60:00Z',
  '2024-05-01T10:00:60Z',
  '0000-01-01',
  '2024-05-01T10:00',
  '2024-05-01T10:00:00',
  '2024-05-01T10:00:00+25:00',
  'yesterday',
];

// Bodies that say nothing once white space and invisible characters are gone.
const INVISIBLE_BODIES = [
  ' ',
  '\t\n\r ',
  '\u200b',
  '\u200b\u200c\u200d\u2060\ufeff\u00ad',
  '\u202e\u2066\u200e\u061c',
  '\u3000\u00a0\u2028',
  '\ufe0f\u115f\u3164',
  '\u0000\u0007',
];

/** A JSON value `levels` arrays deep. */
function nested(levels: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < levels; i++) v = [v];
  return v;
}

// Hostile strings that still contain the word: quoted, they must find the memory like the plain word does.
const STILL_FINDS = [
  '"unterminated wombat',
  'NEAR(wombat quokka)',
  'body:wombat',
  'wombat*',
  '((wombat',
  'NOT wombat',
  '-wombat',
  'ＷＯＭＢＡＴ',
  "wombat'; DROP TABLE memories; --",
];

export function userTextCases(factory: ConformanceFactory): void {
  describe('I11 user text is data', () => {
    test('I11 user text is data: every hostile query yields results or invalid_input, never another class', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const control = await me.remember({
          body: 'A wombat was seen near the quokka enclosure',
          scope: 'shared',
        });
        for (const query of HOSTILE) {
          const label = JSON.stringify(query.length > 40 ? `${query.slice(0, 40)}…(${query.length})` : query);
          try {
            const result = await me.search({ query });
            assert.ok(Array.isArray(result.hits), label);
            if (STILL_FINDS.includes(query)) {
              assert.ok(
                result.hits.some((h) => h.memory.id === control.id),
                `${label} finds the memory as plain words`,
              );
            }
          } catch (error) {
            assert.ok(isMemoryError(error, 'invalid_input'), `${label} failed with ${String(error)}`);
            assert.ok(!STILL_FINDS.includes(query), `${label} should have found the memory`);
          }
        }
        // The store is intact afterwards.
        assert.deepEqual(
          (await me.search({ query: 'wombat' })).hits.map((h) => h.memory.id),
          [control.id],
        );
        assert.equal((await me.get(control.id)).body, 'A wombat was seen near the quokka enclosure');
      }));

    test('I11 user text is data: hostile ids, keys and subjects are invalid_input, never internal', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        for (const id of ["mem_' OR 1=1 --", '../../memory.db', '', 'mem_*', `mem_${'0'.repeat(22)}\u0000`]) {
          await assert.rejects(me.get(id), (e) => isMemoryError(e, 'invalid_input'), JSON.stringify(id));
          await assert.rejects(me.history(id), (e) => isMemoryError(e, 'invalid_input'), JSON.stringify(id));
        }
        for (const key of ["a' OR '1'='1", 'a b', '*', '"k"']) {
          await assert.rejects(
            me.search({ query: 'wombat', key }),
            (e) => isMemoryError(e, 'invalid_input'),
            JSON.stringify(key),
          );
        }
        await assert.rejects(me.list({ subject: "person:x' --\n" }), (e) =>
          isMemoryError(e, 'invalid_input'),
        );
      }));

    test('I11 user text is data: a query matches memories holding any of its words, best match first', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const all = await me.remember({
          body: 'The narwhal migrated past the glacier at dawn',
          scope: 'shared',
        });
        const one = await me.remember({ body: 'A glacier calved on Tuesday', scope: 'shared' });
        const two = await me.remember({ body: 'The narwhal surfaced near the glacier', scope: 'shared' });
        const none = await me.remember({ body: 'Penguins do not live in the Arctic', scope: 'shared' });
        const result = await me.search({ query: 'narwhal glacier dawn' });
        const ids = result.hits.map((h) => h.memory.id);
        assert.deepEqual(new Set(ids), new Set([all.id, one.id, two.id]), 'any one of the words is enough');
        assert.ok(!ids.includes(none.id));
        assert.equal(ids[0], all.id, 'the memory with all three words ranks first');
        assert.ok(ids.indexOf(two.id) < ids.indexOf(one.id), 'two words rank above one');
        assert.deepEqual(result.terms, ['narwhal', 'glacier', 'dawn']);
      }));

    test('I11 user text is data: invalid dates, deep values, huge arrays and invisible-only bodies are invalid_input and write nothing', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:bot'));
        const held = await agent.remember({ body: 'The hostile-input proposal', scope: 'shared' });
        assert.equal(held.state, 'held');
        const all = async (s: LedgerSession) =>
          (await s.list({ states: [...STATES], limit: 200 })).map((m) => `${m.id}:${m.state}`).sort();
        const before = { counts: await storeCounts(ledger), rows: await all(me) };
        const refused = async (operation: string, call: Promise<unknown>, what: string) => {
          await expectError(call, 'invalid_input', what);
          const [last] = await me.audit({ operation, limit: 1 });
          assert.equal(last?.outcome, 'error', `${what}: audited`);
          assert.equal(last?.failureClass, 'invalid_input', `${what}: audited as invalid_input`);
        };

        for (const t of BAD_TIMES) {
          const label = JSON.stringify(t);
          await refused(
            'remember',
            me.remember({ body: 'x', scope: 'shared', validFrom: t }),
            `validFrom ${label}`,
          );
          await refused(
            'remember',
            me.remember({ body: 'x', scope: 'shared', validTo: t }),
            `validTo ${label}`,
          );
          await refused('search', me.search({ query: 'x', asOf: t }), `search asOf ${label}`);
          await refused('search', me.search({ query: 'x', validAt: t }), `search validAt ${label}`);
          await refused('list', me.list({ asOf: t }), `list asOf ${label}`);
          await refused('list', me.list({ validAt: t }), `list validAt ${label}`);
          await refused(
            'review.approve',
            me.approve({ id: held.id, validFrom: t }),
            `approve validFrom ${label}`,
          );
          await refused('audit', me.audit({ since: t }), `audit since ${label}`);
        }
        const zoneless = await expectError(
          me.search({ query: 'x', asOf: '2024-05-01T10:00' }),
          'invalid_input',
        );
        assert.match(
          zoneless.message,
          /add Z for UTC or an offset like \+02:00/,
          'the message says what to write',
        );

        for (const levels of [65, 3_000, 100_000]) {
          const value = nested(levels);
          await refused(
            'remember',
            me.remember({ body: 'x', scope: 'shared', value }),
            `a value ${levels} deep`,
          );
          await refused('review.approve', me.approve({ id: held.id, value }), `an edit ${levels} deep`);
        }
        const wide = Array.from({ length: 20_000 }, () => 0);
        await refused(
          'remember',
          me.remember({ body: 'x', scope: 'shared', value: wide }),
          'a value of 20,000 nodes',
        );

        const huge = (n: number, v: string) => Array.from({ length: n }, () => v);
        await refused(
          'search',
          me.search({ query: 'x', kinds: huge(35_000, 'fact') as never }),
          '35,000 kinds',
        );
        await refused('search', me.search({ query: 'x', scopes: huge(35_000, 'shared') }), '35,000 scopes');
        await refused('list', me.list({ kinds: huge(35_000, 'fact') as never }), 'list 35,000 kinds');
        await refused('list', me.list({ states: huge(35_000, 'active') as never }), 'list 35,000 states');
        await refused('context', me.context({ scopes: huge(35_000, 'shared') }), 'context 35,000 scopes');
        const subjects = huge(35_000, 'person:a@example.com');
        await refused('remember', me.remember({ body: 'x', scope: 'shared', subjects }), '35,000 subjects');
        await refused('review.approve', me.approve({ id: held.id, subjects }), 'approve 35,000 subjects');

        for (const body of INVISIBLE_BODIES) {
          const label = JSON.stringify(body);
          await refused('remember', me.remember({ body, scope: 'shared' }), `remember ${label}`);
          await refused('review.approve', me.approve({ id: held.id, body }), `approve ${label}`);
        }
        const lines = [
          importedMemoryLine({ scope: 'shared', body: '\u200b\u2060', at: '2024-05-01T00:00:00.000Z' }),
          JSON.stringify({
            ...JSON.parse(
              importedMemoryLine({ scope: 'shared', body: 'deep', at: '2024-05-01T00:00:00.000Z' }),
            ),
          }).replace('"value":null', `"value":${JSON.stringify(nested(3_000))}`),
        ];
        const imported = await me.import(linesOf(lines));
        assert.equal(imported.imported, 0);
        assert.deepEqual(
          imported.failed.map((f) => [f.line, f.class]),
          [
            [1, 'invalid_input'],
            [2, 'invalid_input'],
          ],
        );

        assert.deepEqual(await storeCounts(ledger), before.counts, 'nothing was written');
        assert.deepEqual(await all(me), before.rows, 'no memory changed state');
        assert.equal((await me.get(held.id)).state, 'held', 'the proposal is still waiting');

        // Controls: the valid neighbours of each refusal are accepted, and times come back canonical.
        const dated = await me.remember({
          body: 'Valid from a plain date to an offset time',
          scope: 'shared',
          validFrom: '2024-02-29',
          validTo: '2024-05-01T10:00+02:00',
          value: nested(64),
        });
        const stored = await me.get(dated.id);
        assert.equal(stored.validFrom, '2024-02-29T00:00:00.000Z');
        assert.equal(stored.validTo, '2024-05-01T08:00:00.000Z');
        assert.deepEqual(stored.value, nested(64));
        const visible = await me.remember({ body: 'zero\u200bwidth inside words', scope: 'shared' });
        assert.equal((await me.get(visible.id)).body, 'zero\u200bwidth inside words');
        const found = await me.search({
          query: 'plain date offset',
          kinds: [...KINDS],
          asOf: '2999-01-01T00:00:00+14:00',
        });
        assert.ok(
          found.hits.some((h) => h.memory.id === dated.id),
          'every kind at once, and a far offset time',
        );
        assert.ok(
          (await me.list({ states: [...STATES], validAt: '2024-03-01T12:00:00Z' })).some(
            (m) => m.id === dated.id,
          ),
        );
        const approved = await me.approve({
          id: held.id,
          body: 'The edited proposal',
          validFrom: '2024-05-01',
        });
        assert.equal(approved.state, 'active');
        assert.equal((await storeCounts(ledger)).memories, before.counts.memories + 3);
      }));
  });
}
