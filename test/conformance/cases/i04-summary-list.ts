/**
 * I4 scope, for the list of summary chains: a caller sees only the chains of scopes it may read (exact and
 * prefix grants), with each chain's latest live cutoff and its summary and stale counts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { manualClock, principal } from '../helpers.ts';

export function summaryListCases(factory: ConformanceFactory): void {
  describe('I4 summary chain list', () => {
    test('I4 scope: the chain list leaves out chains outside the read grants; the readable ones show with their counts', () => {
      const clock = manualClock('2031-06-01T09:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const op = ledger.as(ledger.operator());
          for (const [name, scope] of [
            ['alpha', 'project:a'],
            ['beta', 'project:b'],
            ['team', 'user:tm'],
            ['open', 'shared'],
          ] as const) {
            await op.summaries.create({ name, scope });
          }
          clock.advance(1000);
          await op.remember({ body: 'Alpha ships in June', scope: 'project:a', subjects: ['person:ann'] });
          clock.advance(1000);
          const w1 = await op.summaries.next({ chain: 'alpha' });
          await op.summaries.add({ chain: 'alpha', until: w1.until!, body: 'Alpha: June release' });
          clock.advance(1000);
          await op.erase({ subject: 'person:ann' });
          clock.advance(1000);
          await op.remember({ body: 'Alpha hires a designer', scope: 'project:a' });
          clock.advance(1000);
          const w2 = await op.summaries.next({ chain: 'alpha' });
          await op.summaries.add({ chain: 'alpha', until: w2.until!, body: 'Alpha: a designer joins' });

          const reader = ledger.as(
            principal('human', 'rhea', { roles: ['reader'], grants: ['project:a:r', 'user:*:r'] }),
          );
          const seen = await reader.summaries.list();
          assert.deepEqual(
            seen.map((c) => c.name),
            ['alpha', 'team'],
          );
          const alpha = seen.find((c) => c.name === 'alpha')!;
          assert.deepEqual(
            {
              cutoff: alpha.latestCutoff,
              summaries: alpha.summaries,
              stale: alpha.stale,
              scope: alpha.scope,
            },
            { cutoff: w2.until, summaries: 2, stale: 1, scope: 'project:a' },
          );
          assert.equal(seen.find((c) => c.name === 'team')!.latestCutoff, null);
          assert.deepEqual(
            (await op.summaries.list()).map((c) => c.name),
            ['alpha', 'beta', 'open', 'team'],
            'control: the operator sees every chain',
          );
        },
        { now: clock.now },
      );
    });
  });
}
