/** I5 rejection stands: a rejected claim, re-proposed through any path, lands as rejected and says why. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { importedMemoryLine, linesOf, manualClock } from '../helpers.ts';

const REJECTED_ON = '2031-03-04';

/** A human holds acme.plan; an agent's proposal to change it was rejected on REJECTED_ON with a reason. */
async function rejectedClaim(ledger: Ledger): Promise<{ holder: string; rejected: string }> {
  const me = ledger.as(ledger.operator());
  const agent = ledger.as(ledger.principal('agent:scout'), { surface: 'mcp', sessionId: 'first-session' });
  const holder = await me.remember({ body: 'Acme is on the Pro plan', scope: 'shared', key: 'acme.plan' });
  const proposal = await agent.remember({ body: 'Acme plan is Free', scope: 'shared', key: 'acme.plan' });
  assert.equal(proposal.state, 'held');
  await me.reject({ id: proposal.id, reason: 'the invoice says Pro' });
  return { holder: holder.id, rejected: proposal.id };
}

const clockAt = () => manualClock(`${REJECTED_ON}T10:00:00.000Z`);

export function rejectionCases(factory: ConformanceFactory): void {
  describe('I5 rejection stands', () => {
    test('I5 rejection stands: the same claim from another agent and session lands rejected, withheld, with date and reason', () => {
      const clock = clockAt();
      return withHome(
        factory,
        async ({ ledger }) => {
          const { holder } = await rejectedClaim(ledger);
          clock.advance(86_400_000 * 3);
          const other = ledger.as(ledger.principal('agent:miner'), {
            surface: 'cli',
            sessionId: 'later-session',
          });
          const again = await other.remember({
            body: 'Acme plan is Free',
            scope: 'shared',
            key: 'acme.plan',
          });
          assert.equal(again.state, 'rejected');
          assert.match(again.reason ?? '', new RegExp(REJECTED_ON));
          assert.match(again.reason ?? '', /the invoice says Pro/);
          const me = ledger.as(ledger.operator());
          const hits = (await me.search({ query: 'acme plan free' })).hits.map((h) => h.memory.id);
          assert.ok(!hits.includes(again.id), 'withheld from search');
          assert.ok(hits.includes(holder), 'control: the current holder is found');
          assert.equal((await me.get(again.id)).state, 'rejected');
          assert.ok(!(await me.reviewList()).some((m) => m.id === again.id), 'not queued for review again');
        },
        { now: clock.now },
      );
    });

    test('I5 rejection stands: case, punctuation and whitespace variants of the claim are the same claim', () =>
      withHome(factory, async ({ ledger }) => {
        await rejectedClaim(ledger);
        const agent = ledger.as(ledger.principal('agent:scout'));
        for (const body of [
          'ACME PLAN IS FREE',
          'acme plan is free!!',
          '  Acme   plan\tis  Free. ',
          'Acme, plan — is: Free?',
        ]) {
          const r = await agent.remember({ body, scope: 'shared', key: 'acme.plan' });
          assert.equal(r.state, 'rejected', JSON.stringify(body));
        }
      }));

    test('I5 rejection stands: a human writing the rejected claim is told the same', () =>
      withHome(factory, async ({ ledger }) => {
        await rejectedClaim(ledger);
        const me = ledger.as(ledger.operator(), { surface: 'http', sessionId: 'console' });
        const r = await me.remember({ body: 'acme plan is free', scope: 'shared', key: 'acme.plan' });
        assert.equal(r.state, 'rejected');
        assert.match(r.reason ?? '', /rejected on \d{4}-\d{2}-\d{2}/);
      }));

    test('I5 rejection stands: importing the rejected claim lands it as rejected', () =>
      withHome(factory, async ({ ledger }) => {
        const { holder } = await rejectedClaim(ledger);
        const me = ledger.as(ledger.operator(), { surface: 'cli' });
        const result = await me.import(
          linesOf([
            importedMemoryLine({
              scope: 'shared',
              key: 'acme.plan',
              body: 'Acme plan is FREE',
              at: '2031-01-01T00:00:00.000Z',
            }),
            importedMemoryLine({
              scope: 'shared',
              body: 'Imported control fact about llamas',
              at: '2031-01-01T00:00:00.000Z',
            }),
          ]),
        );
        assert.deepEqual([result.rejected, result.imported, result.failed], [1, 1, []]);
        const hits = (await me.search({ query: 'acme plan free llamas' })).hits.map((h) => h.memory.body);
        assert.ok(!hits.includes('Acme plan is FREE'), 'the imported claim is withheld');
        assert.ok(
          hits.includes('Imported control fact about llamas'),
          'control: the other imported line landed',
        );
        assert.deepEqual(
          (await me.list({ key: 'acme.plan' })).map((m) => m.id),
          [holder],
        );
      }));

    test('I5 rejection stands: a different claim in the same key is not affected', () =>
      withHome(factory, async ({ ledger }) => {
        await rejectedClaim(ledger);
        const agent = ledger.as(ledger.principal('agent:scout'));
        const r = await agent.remember({ body: 'Acme plan is Team', scope: 'shared', key: 'acme.plan' });
        assert.equal(r.state, 'held', 'reviewed as usual, not rejected');
        const me = ledger.as(ledger.operator());
        const human = await me.remember({
          body: 'Acme plan is Enterprise',
          scope: 'shared',
          key: 'acme.plan',
        });
        assert.equal(human.state, 'active');
      }));

    test('I5 rejection stands: the same claim in another scope is not affected', () =>
      withHome(factory, async ({ ledger }) => {
        await rejectedClaim(ledger);
        const me = ledger.as(ledger.operator());
        const elsewhere = await me.remember({
          body: 'Acme plan is Free',
          scope: 'project:acme',
          key: 'acme.plan',
        });
        assert.equal(elsewhere.state, 'active');
        const agent = ledger.as(ledger.principal('agent:scout'));
        const own = await agent.remember({
          body: 'Acme plan is Free',
          scope: 'agent:scout',
          key: 'acme.plan',
        });
        assert.equal(own.state, 'active');
      }));
  });
}
