/**
 * A query about the present ("now", "these days", "current"): the cue is not searched, and the newest memory of
 * the ranking's head is preferred over an older one on the same topic (search-present.ts). Beside each: the
 * query without the cue (control), and I4: a newer memory in a scope the reader cannot read changes nothing.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { presentCue } from '../../src/ledger/search-present.ts';
import { fixtureClock, REFERENCE, recordAt, UNRELATED } from '../store/retrieval-fixture.ts';
import { withLedger } from './helpers.ts';

test('the present cue: found with what is left to search; words that only contain it are not one', () => {
  assert.deepEqual(presentCue('what dose of ramipril am I on now'), {
    expression: 'now',
    rest: 'what dose of ramipril am I on',
  });
  assert.deepEqual(presentCue('where are preprod secrets kept these days?'), {
    expression: 'these days',
    rest: 'where are preprod secrets kept ?',
  });
  assert.equal(
    presentCue('Granite Insurance current plan and seats')?.rest,
    'Granite Insurance plan and seats',
  );
  assert.equal(presentCue('the latest blood pressure reading')?.rest, 'blood pressure reading');
  assert.equal(presentCue('Currently')?.rest, 'Currently', 'nothing else to search: the query stays whole');
  assert.deepEqual(presentCue('what is the current plan right now'), {
    expression: 'the current',
    rest: 'what is plan',
  });
  assert.equal(presentCue('right now, currently')?.rest, 'right now, currently', 'cues alone stay whole');
  for (const none of [
    'the nowhere project',
    'who knows the snow plan',
    'is the heater still on',
    'a recent change',
  ]) {
    assert.equal(presentCue(none), null, none);
  }
});

test('"now" prefers the newer of two memories on the topic, and is not searched; without it the older leads', async () => {
  const clock = fixtureClock();
  await withLedger(
    async ({ ledger, me }) => {
      const at = recordAt(clock, me);
      for (const [i, body] of UNRELATED.slice(0, 4).entries())
        await at(`2025-03-0${i + 1}T09:00:00.000Z`, body);
      const older = await at('2025-02-02T09:00:00.000Z', 'Ramipril dose: 2.5 mg a day.');
      const newer = await at(
        '2025-05-14T09:00:00.000Z',
        'At the check-up the doctor raised the ramipril dose to 5 mg a day.',
      );
      // A memory that only says "now": the word would match it.
      await at('2025-09-01T09:00:00.000Z', 'The team chat is in Taskboard now');
      clock.set(REFERENCE);

      const plain = await me.search({ query: 'what ramipril dose' });
      assert.equal(
        plain.hits[0]?.memory.id,
        older.id,
        'control: by words alone the shorter, older note leads',
      );
      assert.equal(plain.hits[0]?.why.present, undefined);

      const now = await me.search({ query: 'what ramipril dose now' });
      assert.equal(now.hits[0]?.memory.id, newer.id, 'asked about now, the newer statement leads');
      assert.ok(!now.terms.includes('now'), 'the cue is not searched');
      assert.ok(
        !now.hits.some((h) => /Taskboard/.test(h.memory.body)),
        'so a memory that only says "now" is no hit',
      );
      assert.deepEqual(now.hits[0]?.why.present, { expression: 'now', weight: 1.5 });
      const olderHit = now.hits.find((h) => h.memory.id === older.id);
      assert.equal(olderHit?.why.present?.weight, 1, 'the oldest of the head gains nothing');

      // I4: a newer memory on the topic in a scope the reader cannot read changes no weight the reader sees.
      const reader = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
      const before = await reader.search({ query: 'what ramipril dose now', scopes: ['shared'] });
      await at('2025-09-20T09:00:00.000Z', 'The ramipril dose was set to 10 mg a day', 'user:ops');
      clock.set(REFERENCE);
      const after = await reader.search({ query: 'what ramipril dose now', scopes: ['shared'] });
      assert.deepEqual(
        after.hits.map((h) => [h.memory.id, h.score, h.why.present?.weight]),
        before.hits.map((h) => [h.memory.id, h.score, h.why.present?.weight]),
        'the other scope is absent from the reader’s ranking and from its weights',
      );
      const ops = await me.search({ query: 'what ramipril dose now' });
      assert.match(ops.hits[0]?.memory.body ?? '', /10 mg/, 'control: a reader of that scope gets it first');
    },
    { now: clock.now },
  );
});
