/** I11 user text is data: any query yields results or invalid_input, never internal; words match with OR, ranked. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isMemoryError } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';

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
  });
}
