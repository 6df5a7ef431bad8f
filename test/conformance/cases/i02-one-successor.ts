/** I2 one successor: a memory has at most one landed successor; a second attempt is `conflict` naming the winner. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, storeCounts } from '../helpers.ts';

export function oneSuccessorCases(factory: ConformanceFactory): void {
  describe('I2 one successor', () => {
    test('I2 one successor: a second explicit supersede of the same memory fails with conflict naming the winner', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({ body: 'Deploys happen on Tuesdays', scope: 'shared' });
        const b = await me.remember({
          body: 'Deploys happen on Wednesdays',
          scope: 'shared',
          supersedes: a.id,
        });
        assert.equal(b.state, 'active');
        const counts = await storeCounts(ledger);
        const e = await expectError(
          me.remember({ body: 'Deploys happen on Thursdays', scope: 'shared', supersedes: a.id }),
          'conflict',
          'second supersede',
        );
        assert.equal(e.details.winner, b.id);
        assert.deepEqual(await storeCounts(ledger), counts, 'the failed write left nothing behind');
        const old = await me.get(a.id);
        assert.equal(old.supersededBy, b.id);
        assert.equal((await me.get(b.id)).state, 'active');
      }));

    test('I2 one successor: of two supersedes in flight at once, exactly one lands and the other names it', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({ body: 'The office wifi is guest-net', scope: 'shared' });
        const results = await Promise.allSettled([
          me.remember({ body: 'The office wifi is staff-net', scope: 'shared', supersedes: a.id }),
          me.remember({ body: 'The office wifi is corp-net', scope: 'shared', supersedes: a.id }),
        ]);
        const won = results.filter((r) => r.status === 'fulfilled');
        const lost = results.filter((r) => r.status === 'rejected');
        assert.equal(won.length, 1);
        assert.equal(lost.length, 1);
        const winner = (won[0] as PromiseFulfilledResult<{ id: string }>).value.id;
        const error = (lost[0] as PromiseRejectedResult).reason as {
          class: string;
          details: { winner?: string };
        };
        assert.equal(error.class, 'conflict');
        assert.equal(error.details.winner, winner);
        assert.equal((await me.get(a.id)).supersededBy, winner);
      }));

    test('I2 one successor: after a key write supersedes a memory, an explicit supersede of it names the key writer', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({ body: 'Acme is on the Pro plan', scope: 'shared', key: 'acme.plan' });
        const b = await me.remember({ body: 'Acme is on the Team plan', scope: 'shared', key: 'acme.plan' });
        assert.equal(b.supersedes, a.id);
        const e = await expectError(
          me.remember({ body: 'Acme is on the Free plan', scope: 'shared', supersedes: a.id }),
          'conflict',
        );
        assert.equal(e.details.winner, b.id);
        const current = await me.list({ key: 'acme.plan' });
        assert.deepEqual(
          current.map((m) => m.id),
          [b.id],
        );
      }));

    test('I2 one successor: successive writes to a key form a chain, never a fork', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({
          body: 'Primary region is eu-west-1',
          scope: 'shared',
          key: 'infra.region',
        });
        const b = await me.remember({
          body: 'Primary region is eu-central-1',
          scope: 'shared',
          supersedes: a.id,
        });
        const c = await me.remember({
          body: 'Primary region is us-east-1',
          scope: 'shared',
          key: 'infra.region',
        });
        assert.equal(c.supersedes, b.id, 'a key write supersedes the current holder, not an older version');
        const versions = (await me.history(a.id)).versions;
        assert.deepEqual(
          versions.map((v) => [v.id, v.supersedes, v.supersededBy]),
          [
            [a.id, null, b.id],
            [b.id, a.id, c.id],
            [c.id, b.id, null],
          ],
        );
      }));

    test('I2 one successor: a held proposal does not count until approved; approving it after another landed is conflict', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'library', sessionId: 's1' });
        const a = await me.remember({ body: 'Release train leaves on Friday', scope: 'shared' });
        const proposal = await agent.remember({
          body: 'Release train leaves on Monday',
          scope: 'shared',
          supersedes: a.id,
        });
        assert.equal(proposal.state, 'held');
        assert.equal((await me.get(a.id)).state, 'active', 'a held proposal supersedes nothing yet');
        const b = await me.remember({
          body: 'Release train leaves on Thursday',
          scope: 'shared',
          supersedes: a.id,
        });
        assert.equal(b.state, 'active');
        const e = await expectError(me.approve({ id: proposal.id }), 'conflict', 'late approval');
        assert.equal(e.details.winner, b.id);
        assert.equal((await me.get(proposal.id)).state, 'held');
        assert.equal((await me.get(a.id)).supersededBy, b.id);
      }));

    test('I2 one successor: approving a held key write after a human wrote the key is conflict naming the holder', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:bot'));
        const a = await agent.remember({
          body: 'Billing contact is Bob',
          scope: 'shared',
          key: 'acme.billing',
        });
        assert.equal(a.state, 'held');
        await me.approve({ id: a.id });
        const proposal = await agent.remember({
          body: 'Billing contact is Carol',
          scope: 'shared',
          key: 'acme.billing',
        });
        assert.equal(proposal.state, 'held');
        const b = await me.remember({
          body: 'Billing contact is Dave',
          scope: 'shared',
          key: 'acme.billing',
        });
        const e = await expectError(me.approve({ id: proposal.id }), 'conflict');
        assert.equal(e.details.winner, b.id);
        assert.deepEqual(
          (await me.list({ key: 'acme.billing' })).map((m) => m.id),
          [b.id],
        );
      }));
  });
}
