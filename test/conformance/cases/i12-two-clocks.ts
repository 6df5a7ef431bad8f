/** I12 two clocks: "what did we believe at T" (asOf, recorded time) and "what was true at T" (validAt, world time). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { manualClock } from '../helpers.ts';

const DAY = 86_400_000;

export function twoClockCases(factory: ConformanceFactory): void {
  describe('I12 two clocks', () => {
    test('I12 two clocks: asOf between two writes returns the old version, asOf now the new one', () => {
      const clock = manualClock('2032-01-10T12:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const beforeAll = clock.now();
          clock.advance(DAY);
          const t1 = clock.now();
          const old = await me.remember({
            body: 'The tapir lives in enclosure 4',
            scope: 'shared',
            key: 'tapir.home',
          });
          const between = clock.advance(DAY);
          clock.advance(DAY);
          const t2 = clock.now();
          const now = await me.remember({
            body: 'The tapir lives in enclosure 9',
            scope: 'shared',
            key: 'tapir.home',
          });
          const later = clock.advance(DAY);

          const searchAt = async (asOf?: string) =>
            (await me.search({ query: 'tapir enclosure', ...(asOf === undefined ? {} : { asOf }) })).hits.map(
              (h) => h.memory.id,
            );
          const listAt = async (asOf?: string) =>
            (await me.list({ key: 'tapir.home', ...(asOf === undefined ? {} : { asOf }) })).map((m) => m.id);

          assert.deepEqual(await searchAt(between), [old.id]);
          assert.deepEqual(await listAt(between), [old.id]);
          assert.deepEqual(await searchAt(later), [now.id]);
          assert.deepEqual(await listAt(later), [now.id]);
          assert.deepEqual(await searchAt(), [now.id]);
          assert.deepEqual(await searchAt(beforeAll), [], 'nothing was believed before the first write');
          assert.deepEqual(await listAt(beforeAll), []);

          // Recorded time is when we learned it, and it does not move when the memory is superseded.
          const oldNow = await me.get(old.id);
          assert.equal(oldNow.recordedAt, t1);
          assert.equal(oldNow.activeFrom, t1);
          assert.equal(oldNow.activeUntil, t2);
          assert.equal((await me.get(now.id)).recordedAt, t2);
        },
        { now: clock.now },
      );
    });

    test('I12 two clocks: a retracted memory is still believed as of a time before the retraction', () => {
      const clock = manualClock('2032-02-01T00:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const m = await me.remember({ body: 'The gibbon has a cold', scope: 'shared' });
          const during = clock.advance(DAY);
          clock.advance(DAY);
          await me.retract({ id: m.id, reason: 'recovered' });
          const after = clock.advance(DAY);
          assert.deepEqual(
            (await me.search({ query: 'gibbon', asOf: during })).hits.map((h) => h.memory.id),
            [m.id],
          );
          assert.deepEqual((await me.search({ query: 'gibbon', asOf: after })).hits, []);
          assert.deepEqual((await me.search({ query: 'gibbon' })).hits, []);
        },
        { now: clock.now },
      );
    });

    test('I12 two clocks: validAt filters by world time; a memory without valid time holds at every instant', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const berlin = await me.remember({
          body: 'The lemur office is in Berlin',
          scope: 'shared',
          validFrom: '2020-01-01',
          validTo: '2021-01-01',
        });
        const paris = await me.remember({
          body: 'The lemur office is in Paris',
          scope: 'shared',
          validFrom: '2021-01-01',
        });
        const always = await me.remember({ body: 'The lemur office has a cat', scope: 'shared' });
        const at = async (validAt: string) =>
          new Set((await me.search({ query: 'lemur office', validAt })).hits.map((h) => h.memory.id));
        const listAt = async (validAt: string) => new Set((await me.list({ validAt })).map((m) => m.id));
        assert.deepEqual(await at('2020-06-01'), new Set([berlin.id, always.id]));
        assert.deepEqual(await at('2022-06-01'), new Set([paris.id, always.id]));
        assert.deepEqual(
          await at('2021-01-01T00:00:00Z'),
          new Set([paris.id, always.id]),
          'validTo is exclusive',
        );
        assert.deepEqual(await at('2019-06-01'), new Set([always.id]));
        assert.deepEqual(await listAt('2020-06-01'), new Set([berlin.id, always.id]));
        assert.deepEqual(
          (await me.search({ query: 'lemur office' })).hits.length,
          3,
          'control: all three current',
        );
      }));
  });
}
