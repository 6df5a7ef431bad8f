/** I7 only humans judge: confirm, approve, reject and erase need a human with the role; edits land as a new version. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LedgerSession } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { buildPolicy, expectError, principal, storeCounts } from '../helpers.ts';

// Non-humans with every role and every grant: kind alone must stop them.
const POWERFUL = buildPolicy({
  principals: {
    'agent:*': { roles: ['reader', 'writer', 'reviewer', 'admin'], grants: ['*:rw'] },
    'service:*': { roles: ['reader', 'writer', 'reviewer', 'admin'], grants: ['*:rw'] },
  },
  rules: [
    { name: 'humans-land', when: { principal: 'human:*' }, action: 'allow' },
    { name: 'own-scope', when: { scope: 'agent:{self}' }, action: 'allow' },
  ],
  default: 'hold',
});

async function verdictsRefused(judge: LedgerSession, ids: { held: string; active: string }): Promise<void> {
  await expectError(judge.approve({ id: ids.held }), 'permission', 'approve');
  await expectError(
    judge.approve({ id: ids.held, body: 'Edited by a machine' }),
    'permission',
    'approve with edits',
  );
  await expectError(judge.reject({ id: ids.held, reason: 'machine says no' }), 'permission', 'reject');
  await expectError(judge.confirm({ id: ids.active }), 'permission', 'confirm');
  await expectError(judge.erase({ subject: 'person:gus@example.com' }), 'permission', 'erase');
}

export function humansJudgeCases(factory: ConformanceFactory): void {
  describe('I7 only humans judge', () => {
    test('I7 only humans judge: an agent with every role cannot approve, reject, confirm or erase, even its own write', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const agent = ledger.as(ledger.principal('agent:bot'));
          const held = await agent.remember({
            body: 'Agent proposes a shared fact',
            scope: 'shared',
            subjects: ['person:gus@example.com'],
          });
          const active = await agent.remember({ body: 'Agent fact in its own scope', scope: 'agent:bot' });
          assert.deepEqual([held.state, active.state], ['held', 'active']);
          const counts = await storeCounts(ledger);
          await verdictsRefused(agent, { held: held.id, active: active.id });
          assert.deepEqual(await storeCounts(ledger), counts);
          const me = ledger.as(ledger.operator());
          assert.equal((await me.get(held.id)).state, 'held');
          assert.equal((await me.get(active.id)).trust, 'accepted');
          // Control: a human reviewer can.
          assert.equal((await me.approve({ id: held.id })).state, 'active');
        },
        { policy: POWERFUL },
      ));

    test('I7 only humans judge: a service with every role cannot judge either', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const agent = ledger.as(ledger.principal('agent:bot'));
          const held = await agent.remember({ body: 'Proposal awaiting a person', scope: 'shared' });
          const active = await me.remember({ body: 'A human fact', scope: 'shared' });
          await verdictsRefused(ledger.as(ledger.principal('service:sync')), {
            held: held.id,
            active: active.id,
          });
          assert.equal((await me.get(held.id)).state, 'held');
        },
        { policy: POWERFUL },
      ));

    test('I7 only humans judge: a human without the reviewer role cannot approve, reject or confirm', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:bot'));
        const held = await agent.remember({ body: 'Needs a reviewer', scope: 'shared' });
        const me = ledger.as(ledger.operator());
        const active = await me.remember({ body: 'Needs a confirmer', scope: 'shared' });
        const intern = ledger.as(principal('human', 'intern', { roles: ['reader', 'writer'] }));
        await expectError(intern.approve({ id: held.id }), 'permission', 'approve');
        await expectError(intern.reject({ id: held.id, reason: 'nope' }), 'permission', 'reject');
        await expectError(intern.confirm({ id: active.id }), 'permission', 'confirm');
        await expectError(intern.erase({ subject: 'person:gus@example.com' }), 'permission', 'erase');
        assert.equal((await me.get(held.id)).state, 'held');
        const reviewer = ledger.as(principal('human', 'rita', { roles: ['reader', 'writer', 'reviewer'] }));
        assert.equal((await reviewer.approve({ id: held.id })).state, 'active', 'control: a reviewer can');
      }));

    test('I7 only humans judge: approving with edits lands the edited version; the proposal stays in history, superseded by it', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'mcp', sessionId: 'proposer' });
        const me = ledger.as(ledger.operator(), { surface: 'http', sessionId: 'review' });
        const proposal = await agent.remember({ body: 'The launch is on May 3', scope: 'shared' });
        const edited = await me.approve({
          id: proposal.id,
          body: 'The launch is on May 5',
          note: 'checked the calendar',
        });
        assert.notEqual(edited.id, proposal.id);
        assert.equal(edited.state, 'active');
        const landed = await me.get(edited.id);
        assert.equal(landed.body, 'The launch is on May 5');
        assert.equal(landed.editOf, proposal.id);
        assert.equal(landed.provenance.principal, `human:${ledger.operator().id}`);
        const original = await me.get(proposal.id);
        assert.equal(original.body, 'The launch is on May 3');
        assert.equal(original.state, 'superseded');
        assert.equal(original.supersededBy, edited.id);
        const h = await me.history(proposal.id);
        assert.deepEqual(h.versions.map((v) => v.id).sort(), [proposal.id, edited.id].sort());
        assert.equal(h.current, edited.id);
        assert.ok(h.events.some((e) => e.type === 'approved' && e.memoryId === proposal.id));
      }));

    test('I7 only humans judge: approving an edited proposal to a key replaces the holder and keeps every version', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:bot'));
        const me = ledger.as(ledger.operator());
        const holder = await me.remember({ body: 'Acme pays by card', scope: 'shared', key: 'acme.payment' });
        const proposal = await agent.remember({
          body: 'Acme pays by wire',
          scope: 'shared',
          key: 'acme.payment',
        });
        assert.equal(proposal.state, 'held');
        const edited = await me.approve({ id: proposal.id, body: 'Acme pays by wire transfer, net 30' });
        assert.equal(edited.state, 'active');
        assert.deepEqual(
          (await me.list({ key: 'acme.payment' })).map((m) => m.body),
          ['Acme pays by wire transfer, net 30'],
        );
        const h = await me.history(holder.id);
        const byId = new Map(h.versions.map((v) => [v.id, v]));
        assert.equal(byId.get(holder.id)?.state, 'superseded');
        assert.equal(byId.get(proposal.id)?.state, 'superseded');
        assert.equal(byId.get(proposal.id)?.supersededBy, edited.id);
        assert.equal(byId.get(edited.id)?.state, 'active');
      }));
  });
}
