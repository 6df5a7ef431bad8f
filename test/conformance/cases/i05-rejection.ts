/** I5 rejection stands: a rejected claim, re-proposed through any path, lands as rejected and says why. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, importedMemoryLine, linesOf, manualClock } from '../helpers.ts';

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

    test('I5 rejection stands: another kind, an added key or value, invisible characters and look-alike letters are the same claim', () =>
      withHome(factory, async ({ ledger }) => {
        await rejectedClaim(ledger);
        const agent = ledger.as(ledger.principal('agent:scout'));
        const variants: { what: string; input: Parameters<typeof agent.remember>[0] }[] = [
          { what: 'another kind', input: { body: 'Acme plan is Free', scope: 'shared', kind: 'note' } },
          { what: 'no key', input: { body: 'Acme plan is Free', scope: 'shared' } },
          { what: 'another key', input: { body: 'Acme plan is Free', scope: 'shared', key: 'acme.tier' } },
          {
            what: 'a value added',
            input: { body: 'Acme plan is Free', scope: 'shared', key: 'acme.plan', value: { plan: 'free' } },
          },
          {
            what: 'a zero-width space',
            input: { body: 'Acme plan is Fr\u200Bee', scope: 'shared', key: 'acme.plan' },
          },
          {
            what: 'a soft hyphen',
            input: { body: 'Ac\u00ADme plan is Free', scope: 'shared', key: 'acme.plan' },
          },
          {
            what: 'a word joiner',
            input: { body: 'Acme pl\u2060an is Free', scope: 'shared', key: 'acme.plan' },
          },
          {
            what: 'Cyrillic letters',
            input: { body: 'Асmе plаn is Frее', scope: 'shared', key: 'acme.plan' },
          },
          {
            what: 'Greek letters',
            input: {
              body: 'Acme plan is Frεε'.replace('ε', 'e').replace('Acme', 'Αcme'),
              scope: 'shared',
              key: 'acme.plan',
            },
          },
          {
            what: 'the key in capitals',
            input: { body: 'Acme plan is Free', scope: 'shared', key: 'ACME.PLAN' },
          },
        ];
        for (const { what, input } of variants) {
          const r = await agent.remember(input);
          assert.equal(r.state, 'rejected', what);
        }
        const me = ledger.as(ledger.operator());
        assert.equal((await me.reviewList()).length, 0, 'none of them waits for review');
        const control = await agent.remember({
          body: 'Acme plan is Fresh',
          scope: 'shared',
          key: 'acme.plan',
        });
        assert.equal(control.state, 'held', 'control: a different claim is reviewed as usual');
      }));

    test('I5 rejection stands: a rejected structured value stays rejected under other wording', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'));
        const first = await agent.remember({
          body: 'Acme plan: free tier',
          scope: 'shared',
          key: 'acme.plan',
          value: { plan: 'free', seats: 3 },
        });
        await me.reject({ id: first.id, reason: 'Acme pays' });
        const reworded = await agent.remember({
          body: 'Acme downgraded to the free plan',
          scope: 'shared',
          key: 'Acme.Plan',
          value: { seats: 3, plan: 'Free' },
        });
        assert.equal(reworded.state, 'rejected');
        const other = await agent.remember({
          body: 'Acme downgraded to the free plan',
          scope: 'shared',
          key: 'acme.plan',
          value: { plan: 'team', seats: 3 },
        });
        assert.equal(other.state, 'held', 'control: another value is another claim');
      }));

    test('I5 rejection stands: approving an edit that says the rejected claim is a conflict naming the rejection', () =>
      withHome(factory, async ({ ledger }) => {
        const { rejected } = await rejectedClaim(ledger);
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'));
        const proposal = await agent.remember({
          body: 'Acme plan is Team',
          scope: 'shared',
          key: 'acme.plan',
        });
        const error = await expectError(
          me.approve({ id: proposal.id, body: 'ACME plan is free.' }),
          'conflict',
          'approve with the rejected text',
        );
        assert.match(error.message, /rejected on \d{4}-\d{2}-\d{2} by human:/);
        assert.match(error.message, /the invoice says Pro/);
        assert.equal(error.details.rejection, rejected);
        assert.equal((await me.get(proposal.id)).state, 'held', 'nothing landed; the proposal still waits');
        const fine = await me.approve({ id: proposal.id, body: 'Acme plan is Team (checked)' });
        assert.equal(fine.state, 'active', 'control: another edit lands');
      }));

    test('I5 rejection stands until a reviewer lifts it on purpose (unreject), with an event and an audit record', () =>
      withHome(factory, async ({ ledger }) => {
        const { rejected } = await rejectedClaim(ledger);
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'));
        const copy = await agent.remember({ body: 'acme plan is FREE', scope: 'shared', key: 'acme.plan' });
        assert.equal(copy.state, 'rejected');
        await expectError(
          agent.unreject({ id: copy.id, reason: 'I am sure' }),
          'permission',
          'an agent lifts',
        );
        const lifted = await me.unreject({ id: copy.id, reason: 'Acme did move to Free' });
        assert.deepEqual(
          lifted.rejectedAs,
          [rejected],
          'lifting through a later copy lifts the original rejection',
        );
        const h = await me.history(rejected);
        assert.ok(
          (await me.history(copy.id)).events.some(
            (e) => e.type === 'unrejected' && e.reason === 'Acme did move to Free',
          ),
        );
        assert.equal(
          h.versions.find((v) => v.id === rejected)?.state,
          'rejected',
          'history keeps the rejection',
        );
        const again = await agent.remember({ body: 'Acme plan is Free', scope: 'shared', key: 'acme.plan' });
        assert.equal(again.state, 'held', 'the claim is reviewed like any write again');
        const audit = await me.audit({ operation: 'review.unreject' });
        assert.deepEqual(
          audit.map((r) => [r.outcome, r.failureClass]),
          [
            ['ok', null],
            ['error', 'permission'],
          ],
        );
        await expectError(me.unreject({ id: copy.id, reason: 'twice' }), 'not_found', 'nothing left to lift');
        await me.reject({ id: again.id, reason: 'no, Pro after all' });
        const third = await agent.remember({ body: 'Acme plan is Free', scope: 'shared', key: 'acme.plan' });
        assert.equal(third.state, 'rejected', 'a claim may be rejected again after a lift');
      }));

    test('I5 rejection stands: an approval and a rejection racing on one held write: exactly one wins', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'));
        for (let round = 0; round < 10; round++) {
          const p = await agent.remember({ body: `Race proposal number ${round}`, scope: 'shared' });
          const calls = [me.approve({ id: p.id }), me.reject({ id: p.id, reason: 'no' })];
          if (round % 2 === 1) calls.reverse();
          const outcomes = await Promise.allSettled(calls);
          const won = outcomes.filter((o) => o.status === 'fulfilled');
          const lost = outcomes.filter((o) => o.status === 'rejected');
          assert.equal(won.length, 1, `round ${round}: one verdict wins`);
          assert.equal((lost[0] as PromiseRejectedResult).reason.class, 'conflict');
          const state = (await me.get(p.id)).state;
          assert.ok(state === 'active' || state === 'rejected', state);
        }
        // Rejecting what is current now is a different act, asked for by name.
        const landed = await me.remember({ body: 'A current memory to reject', scope: 'shared' });
        await expectError(
          me.reject({ id: landed.id, reason: 'x' }),
          'conflict',
          'a held-write rejection of an active memory',
        );
        assert.equal((await me.reject({ id: landed.id, reason: 'x', expect: 'active' })).state, 'rejected');
      }));
  });
}
