/**
 * I9 erasure is real, for summary chains: summaries covering an erased subject's memories (and those built on
 * them) go stale, the ones whose text names the subject lose their content, and the next window starts from
 * the last summary still standing over the source that remains.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { manualClock } from '../helpers.ts';

export function summaryErasureCases(factory: ConformanceFactory): void {
  describe('I9 erasure reaches summary chains', () => {
    test('I9 erasure is real: a summary naming the erased subject is erased and stale, an earlier one stands, the chain resumes', () => {
      const clock = manualClock('2031-05-01T09:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          await me.summaries.create({ name: 'crm', scope: 'shared' });
          clock.advance(1000);
          await me.remember({ body: 'Globex prefers email', scope: 'shared' });
          const w1 = await me.summaries.next({ chain: 'crm' });
          clock.advance(1000);
          const s1 = await me.summaries.add({ chain: 'crm', until: w1.until!, body: 'Globex wants email' });
          clock.advance(1000);
          const gone = await me.remember({
            body: 'Initech renews in March',
            scope: 'shared',
            subjects: ['company:initech'],
          });
          clock.advance(1000);
          const stays = await me.remember({ body: 'Hooli moved offices', scope: 'shared' });
          const w2 = await me.summaries.next({ chain: 'crm' });
          clock.advance(1000);
          const s2 = await me.summaries.add({
            chain: 'crm',
            until: w2.until!,
            body: 'Initech renews; Hooli moved',
          });
          await me.erase({ subject: 'company:initech' });
          const erased = await me.get(s2.id);
          assert.equal(erased.state, 'erased');
          assert.equal(erased.body, '');
          const view = await me.summaries.show('crm');
          assert.equal(view.links.find((l) => l.memoryId === s2.id)?.staleAt !== null, true, 'stale');
          assert.equal(view.links.find((l) => l.memoryId === s1.id)?.staleAt, null, 'control: s1 stands');
          const next = await me.summaries.next({ chain: 'crm' });
          assert.equal(next.previous, s1.id);
          assert.deepEqual(
            next.memories.map((m) => m.id),
            [stays.id],
            'the remaining source, without the erased memory',
          );
          assert.ok(!next.memories.some((m) => m.id === gone.id));
        },
        { now: clock.now },
      );
    });
  });
}
