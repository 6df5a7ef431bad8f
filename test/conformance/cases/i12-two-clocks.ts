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

    test('I12 two clocks: what was true at T is answered from superseded versions too, each for its valid period', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const paris = await me.remember({
          body: 'Bob lives in Paris',
          scope: 'shared',
          key: 'bob.city',
          validFrom: '2020-01-01',
          validTo: '2023-01-01',
        });
        const berlin = await me.remember({
          body: 'Bob lives in Berlin',
          scope: 'shared',
          key: 'bob.city',
          validFrom: '2023-06-01',
        });
        assert.equal(berlin.supersedes, paris.id);
        const at = async (validAt: string) =>
          (await me.search({ query: 'where does Bob live', validAt })).hits.map((h) => h.memory.id);
        assert.deepEqual(await at('2021-05-01'), [paris.id], 'the superseded version answers for its period');
        assert.deepEqual(await at('2024-01-01'), [berlin.id]);
        assert.deepEqual(await at('2023-03-01'), [], 'between the two, nothing was said to be true');
        assert.deepEqual(await at('2019-01-01'), []);
        assert.deepEqual(
          (await me.list({ key: 'bob.city', validAt: '2021-05-01' })).map((m) => m.id),
          [paris.id],
          'list answers the same',
        );
        assert.deepEqual(
          (await me.search({ query: 'where does Bob live' })).hits.map((h) => h.memory.id),
          [berlin.id],
          'control: without a clock, only the current version',
        );
      }));

    test('I12 two clocks: a successor’s validFrom closes its predecessor’s open valid time; one without it says nothing of when', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const first = await me.remember({
          body: 'The otter pool is in zone A',
          scope: 'shared',
          key: 'otter.pool',
        });
        const second = await me.remember({
          body: 'The otter pool is in zone B',
          scope: 'shared',
          key: 'otter.pool',
          validFrom: '2031-03-01',
        });
        const closed = await me.get(first.id);
        assert.deepEqual(
          [closed.validTo, closed.validEnd],
          [null, '2031-03-01T00:00:00.000Z'],
          'content stays; valid time closes',
        );
        const at = async (validAt: string) =>
          (await me.search({ query: 'otter pool zone', validAt })).hits.map((h) => h.memory.id);
        assert.deepEqual(await at('2030-01-01'), [first.id]);
        assert.deepEqual(await at('2032-01-01'), [second.id]);
        const history = await me.history(first.id);
        assert.deepEqual(
          history.versions.map((v) => [
            v.id,
            v.validStart,
            v.validEnd,
            v.activeFrom !== null,
            v.activeUntil !== null,
          ]),
          [
            [first.id, null, '2031-03-01T00:00:00.000Z', true, true],
            [second.id, '2031-03-01T00:00:00.000Z', null, true, false],
          ],
          'history shows both clocks',
        );
        // A correction without valid time replaces zone B and says nothing of when: zone B, whose valid time no
        // successor closed, is no longer said to be true at any time, and the correction holds at every instant.
        const third = await me.remember({
          body: 'The otter pool is in zone C',
          scope: 'shared',
          key: 'otter.pool',
        });
        assert.equal((await me.get(third.id)).validStart, null);
        assert.deepEqual(await at('2032-01-01'), [third.id]);
        assert.deepEqual(
          new Set(await at('2030-01-01')),
          new Set([first.id, third.id]),
          'zone A keeps its closed period',
        );
      }));

    test('I12 two clocks: retracted, rejected, held and erased versions are not what was true at any time', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'));
        const valid = { validFrom: '2020-01-01', validTo: '2030-01-01' };
        const retracted = await me.remember({ body: 'The okapi eats bamboo', scope: 'shared', ...valid });
        await me.retract({ id: retracted.id, reason: 'it does not' });
        const rejected = await me.remember({ body: 'The okapi eats fish', scope: 'shared', ...valid });
        await me.reject({ id: rejected.id, reason: 'no', expect: 'active' });
        const held = await agent.remember({ body: 'The okapi eats honey', scope: 'shared', ...valid });
        assert.equal(held.state, 'held');
        await me.remember({
          body: 'The okapi eats rocks',
          scope: 'shared',
          subjects: ['animal:okapi'],
          ...valid,
        });
        await me.erase({ subject: 'animal:okapi' });
        const kept = await me.remember({ body: 'The okapi eats leaves', scope: 'shared', ...valid });
        const hits = (await me.search({ query: 'okapi eats', validAt: '2025-01-01' })).hits.map(
          (h) => h.memory.id,
        );
        assert.deepEqual(hits, [kept.id], 'only the one we believe; control: it is found');
      }));

    test('I12 two clocks: as of A about B: what we believed on one date about another', () => {
      const clock = manualClock('2032-05-01T00:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const paris = await me.remember({
            body: 'Ada works in Paris',
            scope: 'shared',
            key: 'ada.city',
            validFrom: '2020-01-01',
          });
          const beforeMove = clock.advance(30 * DAY);
          clock.advance(DAY);
          const lyon = await me.remember({
            body: 'Ada works in Lyon',
            scope: 'shared',
            key: 'ada.city',
            validFrom: '2032-06-01',
          });
          const afterMove = clock.advance(DAY);
          const q = async (asOf: string, validAt: string) =>
            (await me.search({ query: 'where does Ada work', asOf, validAt })).hits.map((h) => h.memory.id);
          // Before we learned of the move, we believed Paris held with no end, so also in 2033.
          assert.deepEqual(await q(beforeMove, '2033-01-01'), [paris.id]);
          // After, we believe Paris held until June 2032 and Lyon since.
          assert.deepEqual(await q(afterMove, '2033-01-01'), [lyon.id]);
          assert.deepEqual(await q(afterMove, '2025-01-01'), [paris.id]);
          assert.deepEqual(await q(beforeMove, '2019-01-01'), [], 'nothing said of before 2020');
        },
        { now: clock.now },
      );
    });
  });
}
