/**
 * I7 only humans judge: confirm, approve, reject and erase need a human with the role; edits land as a new
 * version. Agents may doubt (lower trust, never hide); only a human reviewer restores trust.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LedgerSession } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { buildPolicy, expectError, manualClock, principal, storeCounts, uniqueWord } from '../helpers.ts';

// Credential-shaped text is assembled at run time so no literal sits in the repository for scanners to trip on.
const GITHUB = () => `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;

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

    test('I7 only humans judge: an agent can doubt but never raise trust', () => {
      const clock = manualClock('2025-06-02T09:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const word = uniqueWord('doubt');
          const agent = ledger.as(ledger.principal('agent:bot'));
          // Two memories equal in every ranking input (text length, confidence, time): only trust tells them apart.
          const doubted = await agent.remember({ body: `${word} deploys run alpha`, scope: 'agent:bot' });
          const control = await agent.remember({ body: `${word} deploys run gamma`, scope: 'agent:bot' });
          const before = await agent.search({ query: word });
          assert.equal(before.hits.length, 2);
          assert.equal(before.hits[0]!.score, before.hits[1]!.score, 'control: equal before the doubt');

          const events = (await storeCounts(ledger)).events;
          const r = await agent.doubt({ id: doubted.id, reason: 'the runbook says otherwise' });
          assert.deepEqual(
            [r.state, r.trust, r.previous, r.changed],
            ['active', 'unverified', 'accepted', true],
          );
          const me = ledger.as(ledger.operator());
          const after = await me.get(doubted.id);
          assert.deepEqual([after.state, after.trust], ['active', 'unverified'], 'lowered, not hidden');
          const doubtEvent = (await me.history(doubted.id)).events.find((e) => e.type === 'doubted');
          assert.equal(doubtEvent?.actor, 'agent:bot');
          assert.equal(doubtEvent?.reason, 'the runbook says otherwise');
          assert.equal(doubtEvent?.detail.previousTrust, 'accepted');
          assert.equal((await storeCounts(ledger)).events, events + 1);

          // Doubt again: nothing changes, and it says so.
          const again = await agent.doubt({ id: doubted.id, reason: 'still doubtful' });
          assert.equal(again.changed, false);
          assert.match(again.message, /already unverified/);
          assert.equal((await storeCounts(ledger)).events, events + 1);

          // The agent cannot raise it back, by restoring or by confirming.
          const counts = await storeCounts(ledger);
          await expectError(
            agent.restoreTrust({ id: doubted.id, reason: 'trust me' }),
            'permission',
            'restore',
          );
          await expectError(agent.confirm({ id: doubted.id }), 'permission', 'confirm');
          assert.deepEqual(await storeCounts(ledger), counts);
          assert.equal((await me.get(doubted.id)).trust, 'unverified');

          // Still found, ranked below the otherwise equal accepted memory.
          const ranked = await agent.search({ query: word });
          assert.deepEqual(
            ranked.hits.map((h) => h.memory.id),
            [control.id, doubted.id],
          );
          assert.ok(ranked.hits[1]!.score < ranked.hits[0]!.score);

          // A human reviewer restores what it was, with an event.
          const restored = await me.restoreTrust({ id: doubted.id, reason: 'checked the runbook' });
          assert.deepEqual([restored.trust, restored.changed], ['accepted', true]);
          assert.equal((await me.get(doubted.id)).trust, 'accepted');
          const h = await me.history(doubted.id);
          assert.ok(h.events.some((e) => e.type === 'trust-restored' && e.reason === 'checked the runbook'));
          const [a, b] = (await agent.search({ query: word })).hits;
          assert.equal(a!.score, b!.score, 'equal again once restored');
        },
        { now: clock.now },
      );
    });

    test('I7 only humans judge: a doubted memory a person confirmed stays theirs; a reviewer restores it to confirmed', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:bot'));
        const me = ledger.as(ledger.operator());
        const m = await agent.remember({ body: 'The bot runs nightly at two', scope: 'agent:bot' });
        await me.confirm({ id: m.id });
        assert.equal((await agent.doubt({ id: m.id, reason: 'schedule moved?' })).previous, 'confirmed');
        // Lower trust, same owner: the agent still cannot replace or retract what a person vouched for.
        const replaced = await agent.remember({
          body: 'The bot runs nightly at three',
          scope: 'agent:bot',
          supersedes: m.id,
        });
        assert.equal(replaced.state, 'held');
        await expectError(agent.retract({ id: m.id, reason: 'mine' }), 'permission', 'retract');
        assert.equal((await me.get(m.id)).state, 'active');
        const restored = await me.restoreTrust({ id: m.id, reason: 'still two' });
        assert.equal(restored.trust, 'confirmed');
        assert.equal((await me.get(m.id)).trust, 'confirmed');
      }));

    test('I7 only humans judge: doubt needs a write grant and an active memory, and its reason is guarded', () =>
      withHome(factory, async ({ ledger }) => {
        const agent = ledger.as(ledger.principal('agent:bot'));
        const me = ledger.as(ledger.operator());
        const shared = await me.remember({ body: 'Shared fact an agent may read', scope: 'shared' });
        const held = await agent.remember({ body: 'A proposal awaiting a person', scope: 'shared' });
        const mined = await agent.remember({
          body: 'A mined note, unverified from the start',
          scope: 'agent:bot',
          source: { connector: 'folder', id: 'notes.md#1' },
        });
        const reader = ledger.as(principal('human', 'rhea', { roles: ['reader'], grants: ['shared:r'] }));
        const counts = await storeCounts(ledger);
        await expectError(reader.doubt({ id: shared.id, reason: 'hmm' }), 'permission', 'no write grant');
        await expectError(agent.doubt({ id: held.id, reason: 'hmm' }), 'conflict', 'held');
        await expectError(agent.doubt({ id: shared.id, reason: '' }), 'invalid_input', 'empty reason');
        await expectError(
          agent.doubt({ id: shared.id, reason: `leaked ${GITHUB()}` }),
          'invalid_input',
          'a credential in the reason',
        );
        // Restoring is not vouching: a memory never doubted is not raised.
        await expectError(
          me.restoreTrust({ id: mined.id, reason: 'looks fine' }),
          'conflict',
          'never doubted',
        );
        assert.deepEqual(await storeCounts(ledger), counts);
        assert.equal((await me.get(mined.id)).trust, 'unverified');
        // Control: the same agent doubts the shared memory it may write.
        assert.equal((await agent.doubt({ id: shared.id, reason: 'hmm' })).trust, 'unverified');
      }));
  });
}
