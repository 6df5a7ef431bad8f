/**
 * Model-free retrieval on a small conversational home: session neighbours grouped under hits and placed in
 * context within the budget, marked as neighbours; a question below the memory that answers it; content-free
 * turns kept out of the top ten; the time a query names as a preference, shown in `why`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMemoryError } from '../../src/model/errors.ts';
import { fixtureClock, REFERENCE, recordAt, UNRELATED, writeFixture } from '../store/retrieval-fixture.ts';
import { withLedger } from './helpers.ts';

async function withFixture(fn: (h: Awaited<ReturnType<typeof setup>>) => Promise<void>): Promise<void> {
  const clock = fixtureClock();
  await withLedger(async (h) => fn(await setup(h, clock)), { now: clock.now });
}

async function setup(
  h: Parameters<Parameters<typeof withLedger>[0]>[0],
  clock: ReturnType<typeof fixtureClock>,
) {
  const ids = await writeFixture(h.ledger, clock);
  const id = (label: string) => ids.get(label)!;
  const label = (memoryId: string | undefined) => [...ids].find(([, v]) => v === memoryId)?.[0];
  return { ...h, id, label };
}

test('search groups the turns before and after a hit in its session under it, only when asked', async () => {
  await withFixture(async ({ me, id, label }) => {
    const found = await me.search({ query: 'wombat checkout test keep failing', neighbours: true });
    const ask = found.hits.find((h) => h.memory.id === id('ask'));
    assert.ok(ask, 'control: the question is found');
    assert.equal(label(ask.neighbours?.after?.id), 'answer');
    assert.equal(ask.neighbours?.before, null, 'the first turn of its session has none before it');
    const solo = found.hits.find((h) => h.memory.id === id('july'));
    assert.deepEqual(
      solo?.neighbours,
      { before: null, after: null },
      'a write alone in its session has none',
    );
    const plain = await me.search({ query: 'wombat checkout test keep failing' });
    assert.ok(
      plain.hits.every((h) => h.neighbours === undefined),
      'without the option, hits carry none',
    );
  });
});

test('context places a hit’s neighbours beside it, marked, and the block stays within the budget', async () => {
  await withFixture(async ({ me, id }) => {
    const block = await me.context({ task: 'why does the wombat checkout test keep failing', budget: 600 });
    assert.ok(block.tokens <= 600, `${block.tokens} tokens within 600`);
    const at = block.items.findIndex((i) => i.memory.id === id('ask'));
    assert.ok(at >= 0, 'control: the question is in the block');
    // The answer matches no word of the task: it is there as the question's next turn.
    assert.equal(block.items[at + 1]?.memory.id, id('answer'));
    assert.equal(block.items[at + 1]?.why, `neighbour: the turn after ${id('ask')}`);
    assert.ok(block.markdown.includes('each worker gets its own port'));
    // Neighbours compete for the budget like any item: a tight block stays within it, skipping what does not fit.
    for (const budget of [300, 150]) {
      const tight = await me.context({ task: 'why does the wombat checkout test keep failing', budget });
      assert.ok(tight.tokens <= budget, `${tight.tokens} tokens within ${budget}`);
      assert.ok(tight.skipped > 0, `control: the ${budget}-token block had to leave candidates out`);
    }
    const off = await me.context({
      task: 'why does the wombat checkout test keep failing',
      neighbours: false,
    });
    assert.ok(
      !off.items.some((i) => i.memory.id === id('answer')),
      'with neighbours off, the answer is not found',
    );
    assert.ok(
      off.items.some((i) => i.memory.id === id('ask')),
      'control: the question still is',
    );
  });
});

test('a question ranks below a memory that answers it with the same words', async () => {
  await withFixture(async ({ me, id }) => {
    const found = await me.search({ query: 'wombat checkout test failing' });
    const rank = (label: string) => found.hits.findIndex((h) => h.memory.id === id(label));
    assert.ok(rank('ask') >= 0 && rank('july') >= 0, 'control: both are found');
    assert.ok(rank('july') < rank('ask'), 'the statement ranks above the question that repeats the query');
    assert.equal(found.hits[rank('ask')]?.why.shape, 'question');
    assert.equal(found.hits[rank('july')]?.why.shape, undefined);
  });
});

test('content-free turns ("ok", "thanks!") do not fill the top ten, and are still found after the rest', async () => {
  await withFixture(async ({ me, label }) => {
    const found = await me.search({ query: 'Priya', limit: 30 });
    const labels = found.hits.map((h) => label(h.memory.id) ?? '?');
    const chatter = labels.filter((l) => l.startsWith('chatter-') || l === 'thanks');
    const firstChatter = labels.findIndex((l) => chatter.includes(l));
    const contentful = labels.filter((l) => !chatter.includes(l));
    assert.equal(chatter.length, 13, 'control: every content-free turn is still found');
    assert.ok(contentful.length >= 5, 'control: the turns with content are found');
    assert.ok(
      firstChatter >= contentful.length,
      `every turn with content ranks above the chatter: ${labels}`,
    );
    assert.equal(found.hits[firstChatter]?.why.shape, 'content-free');
  });
});

test('a time in the query is a preference shown in why, resolved against the reference time', async () => {
  await withFixture(async ({ me, id, label }) => {
    const found = await me.search({ query: 'what was wrong with the wombat checkout test last month' });
    assert.deepEqual(found.time, {
      expression: 'last month',
      from: '2025-08-01T00:00:00.000Z',
      to: '2025-09-01T00:00:00.000Z',
    });
    assert.ok(
      !found.terms.includes('month') && !found.terms.includes('last'),
      'the expression is not searched',
    );
    const top = found.hits.filter((h) => h.why.shape === undefined)[0];
    assert.equal(label(top?.memory.id), 'sep', 'control: without a time the newest statement would lead');
    const ask = found.hits.find((h) => h.memory.id === id('ask'));
    assert.equal(ask?.why.time?.match, 'recorded');
    assert.equal(ask?.why.time?.weight, 1.5);
    // A preference, not a filter: memories outside the interval are still returned.
    assert.ok(found.hits.some((h) => h.memory.id === id('july') && h.why.time?.match === 'outside'));

    const july = await me.search({ query: 'wombat checkout test in July' });
    assert.equal(label(july.hits[0]?.memory.id), 'july');
    const asked = await me.search({
      query: 'wombat checkout test last month',
      referenceTime: '2025-08-20T00:00:00Z',
    });
    assert.equal(asked.time?.from, '2025-07-01T00:00:00.000Z', 'relative to the reference time given');
    assert.equal(label(asked.hits[0]?.memory.id), 'july');
    assert.equal(REFERENCE.slice(0, 10), '2025-09-30');
  });
});

test('why.matched names the query words a memory holds, inflected, accented, in its key and subjects, and not one found only inside another word', () =>
  withLedger(async ({ me }) => {
    const { id } = await me.remember({
      body: 'Les déploiements de Zoë replan the rollout',
      scope: 'shared',
      key: 'acme.rollouts',
      subjects: ['company:acme'],
    });
    const found = await me.search({ query: 'deploiement rollouts acme plan', scopes: ['shared'] });
    const hit = found.hits.find((h) => h.memory.id === id);
    assert.ok(hit, 'control: the memory is found');
    // "plan" is inside "replan" only: the index does not match it there, and neither does why.
    assert.deepEqual(hit.why.matched, ['deploiement', 'rollouts', 'acme']);
  }));

test('an event the query names ("after the move") is looked up by its words; its time is the preference, its memory the anchor', async () => {
  const clock = fixtureClock();
  await withLedger(
    async ({ ledger, me }) => {
      const at = recordAt(clock, me);
      for (const [i, body] of UNRELATED.entries()) await at(`2025-05-0${i + 1}T09:00:00.000Z`, body);
      const before = await at('2025-06-02T09:00:00.000Z', 'The lab phones keep dropping off the wifi');
      const move = await at('2025-06-30T09:00:00.000Z', 'We move the office to Harbour Works today');
      const after = await at('2025-07-07T09:00:00.000Z', 'The lab phones cannot reach the wifi runner');
      clock.set(REFERENCE);
      const later = await me.search({ query: 'lab phones wifi after the move' });
      assert.deepEqual(later.time, {
        expression: 'after the move',
        from: '2025-06-30T09:00:00.001Z',
        to: '9999-12-31T23:59:59.999Z',
        anchor: move.id,
      });
      assert.equal(later.hits[0]?.memory.id, after.id, 'the memory after the event leads');
      assert.ok(!later.terms.includes('after'), 'the relation word is not searched; the event’s are');
      assert.ok(later.terms.includes('move'));
      assert.equal(later.hits[0]?.why.time?.match, 'recorded');
      const earlier = await me.search({ query: 'lab phones wifi before the move' });
      assert.equal(earlier.time?.to, '2025-06-30T09:00:00.000Z');
      assert.equal(
        earlier.hits[0]?.memory.id,
        before.id,
        'control: before the event, the earlier memory leads',
      );
      // No memory holds the event's words: no time, and search is as without the phrase.
      const none = await me.search({ query: 'lab phones wifi after the wombat parade' });
      assert.equal(none.time, undefined);
      // "looks after" is a verb, not a time.
      assert.equal((await me.search({ query: 'who looks after the lab phones' })).time, undefined);
      // An event of one word too long to search leaves nothing to search: invalid_input, not a search for
      // "the" (which every memory here holds) with one of them as the anchor.
      await assert.rejects(me.search({ query: `after the ${'x'.repeat(300)}` }), (e) =>
        isMemoryError(e, 'invalid_input'),
      );
      // I4: an event only another scope holds is not an anchor for a caller who cannot read it.
      const secret = await at('2025-05-01T09:00:00.000Z', 'The ops reorg finished', 'user:ops');
      clock.set(REFERENCE);
      const reader = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
      const blind = await reader.search({ query: 'lab phones wifi since the reorg', scopes: ['shared'] });
      assert.equal(blind.time, undefined, 'the reorg is in a scope the reader cannot read');
      const ops = await me.search({ query: 'lab phones wifi since the reorg' });
      assert.equal(ops.time?.anchor, secret.id, 'control: a reader of that scope gets the anchor');
    },
    { now: clock.now },
  );
});
