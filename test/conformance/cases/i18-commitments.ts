/**
 * I18 nothing acts around the gate, and I5 rejection stands, for commitments and summaries: both are memories
 * written through the one write path, so an agent's in a shared scope waits for review and a rejected one
 * proposed again, by any path, lands rejected and gets no lifecycle or chain link.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, storeCounts } from '../helpers.ts';

export function commitmentGateCases(factory: ConformanceFactory): void {
  describe('I18 commitments and summaries pass the gate', () => {
    test('I18 nothing acts around the gate: an agent’s commitment in shared is held, out of list and context; its own lands', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'), { surface: 'mcp', sessionId: 's1' });
        const held = await agent.commitments.add({
          body: 'Email the whole company about layoffs',
          scope: 'shared',
        });
        const own = await agent.commitments.add({ body: 'Re-index the scout notes', scope: 'agent:scout' });
        assert.equal(held.state, 'held');
        assert.equal(own.state, 'active');
        const listed = (await me.commitments.list()).map((c) => c.id);
        assert.ok(!listed.includes(held.id), 'held: not listed');
        assert.ok(listed.includes(own.id), 'control: the landed one is listed');
        const block = (await agent.context({ task: 'what is next' })).items.map((i) => i.memory.id);
        assert.ok(!block.includes(held.id), 'held: not in context');
        assert.ok(block.includes(own.id), 'control: in context');
        assert.ok(
          (await me.reviewList()).some((m) => m.id === held.id),
          'waiting in the review queue',
        );
      }));

    test('I18 nothing acts around the gate: a commitment or summary carrying a secret is refused and writes nothing', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        await me.summaries.create({ name: 'sec', scope: 'shared' });
        await me.remember({ body: 'A plain note', scope: 'shared' });
        const w = await me.summaries.next({ chain: 'sec' });
        const before = await storeCounts(ledger);
        const key = `AKIA${'Q'.repeat(16)}`;
        await expectError(
          me.commitments.add({ body: `use ${key} to upload`, scope: 'shared' }),
          'invalid_input',
        );
        await expectError(
          me.summaries.add({ chain: 'sec', until: w.until!, body: `key ${key}` }),
          'invalid_input',
        );
        assert.deepEqual(await storeCounts(ledger), before);
        assert.deepEqual((await me.summaries.show('sec')).links, []);
      }));

    test('I5 rejection stands: a rejected commitment re-proposed by another agent, or as a plain memory, lands rejected', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const scout = ledger.as(ledger.principal('agent:scout'), { surface: 'mcp', sessionId: 's1' });
        const first = await scout.commitments.add({ body: 'Promise Acme a free year', scope: 'shared' });
        await me.reject({ id: first.id, reason: 'nobody agreed to that' });
        const miner = ledger.as(ledger.principal('agent:miner'), { surface: 'cli', sessionId: 's2' });
        const again = await miner.commitments.add({
          body: 'promise ACME a free year',
          scope: 'shared',
          due: '2031-01-01',
        });
        assert.equal(again.state, 'rejected');
        assert.equal(again.commitment, null);
        const plain = await miner.remember({
          body: 'Promise Acme a free year.',
          scope: 'shared',
          kind: 'commitment',
        });
        assert.equal(plain.state, 'rejected');
        const control = await me.commitments.add({ body: 'Send Acme the usual terms', scope: 'shared' });
        const listed = (await me.commitments.list()).map((c) => c.id);
        assert.deepEqual(listed, [control.id]);
        const block = (await me.context({ task: 'acme free year' })).items.map((i) => i.memory.id);
        assert.ok(!block.includes(again.id) && !block.includes(plain.id), 'withheld from context');
        assert.ok(block.includes(control.id), 'control in context');
      }));

    test('I5 rejection stands: a rejected summary proposed again lands rejected and links nothing', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const scout = ledger.as(ledger.principal('agent:scout'));
        await me.summaries.create({ name: 'week', scope: 'shared' });
        await me.remember({ body: 'The office closes early on Friday', scope: 'shared' });
        const w = await scout.summaries.next({ chain: 'week' });
        const held = await scout.summaries.add({
          chain: 'week',
          until: w.until!,
          body: 'The office is closing',
        });
        assert.equal(held.state, 'held');
        await me.reject({ id: held.id, reason: 'it is not closing, it closes early' });
        const again = await scout.summaries.add({
          chain: 'week',
          until: w.until!,
          body: 'the office is closing',
        });
        assert.equal(again.state, 'rejected');
        const control = await me.summaries.add({
          chain: 'week',
          until: w.until!,
          body: 'Friday: the office closes early',
        });
        assert.equal(control.state, 'active');
        const view = await me.summaries.show('week');
        assert.equal(view.latest?.id, control.id);
        assert.ok(!view.links.some((l) => l.memoryId === again.id), 'the rejected one is no link');
      }));
  });
}
