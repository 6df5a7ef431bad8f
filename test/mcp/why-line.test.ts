/**
 * search_memory's one line of why a hit is there, as the agent reads it: the words, the meaning, the turn a reply
 * answers, a named time it falls in, the newer of a question about now; never "matched by stem" for a hit that
 * matched no word at all.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SearchHit } from '../../src/index.ts';
import { hitView } from '../../src/surfaces/mcp/render.ts';
import { memoryFixture } from '../support/memory-fixture.ts';

const memory = memoryFixture({
  kind: 'episode',
  body: 'Lisbon, in the old tram depot',
  provenance: { principal: 'agent:bot', principalKind: 'agent', surface: 'mcp' },
});

const why = (w: Partial<SearchHit['why']>): string =>
  hitView({
    memory,
    score: 0.5,
    why: {
      matched: [],
      text: 0,
      trust: 'accepted',
      trustWeight: 0.85,
      confidenceWeight: 1,
      recencyWeight: 1,
      ...w,
    },
  }).why;

test('the why line names the words, the meaning, the turn a reply answers, the time and the present', () => {
  assert.equal(why({ matched: ['okapi', 'offsite'], text: 1 }), 'matched okapi, offsite');
  assert.equal(why({ matched: ['okapi'], text: 0.5, vector: 0.4321 }), 'matched okapi; meaning 0.43');
  assert.equal(why({ vector: 0.51 }), 'matched by meaning 0.51');
  assert.equal(why({ text: 0.3 }), 'matched by stem', 'a text score with no whole word: its stem');
  // A reply ranked for its hit matched nothing itself: it says which turn it answers, not "stem".
  assert.equal(why({ replyTo: 'mem_01m8bbbbbbbbbbbbbbbbbbbb' }), 'the reply to mem_01m8bbbbbbbbbbbbbbbbbbbb');
  assert.equal(
    why({ replyTo: 'mem_01m8bbbbbbbbbbbbbbbbbbbb', vector: 0.2 }),
    'the reply to mem_01m8bbbbbbbbbbbbbbbbbbbb',
    'a reply’s weak cosine is not why it is there',
  );
  const time = { expression: 'last month', from: 'a', to: 'b', weight: 1.5 };
  assert.equal(
    why({ matched: ['okapi'], text: 1, time: { ...time, match: 'recorded' } }),
    'matched okapi; in "last month"',
  );
  assert.equal(
    why({ matched: ['okapi'], text: 1, time: { ...time, match: 'outside', weight: 1 } }),
    'matched okapi',
    'control: outside the time, nothing said',
  );
  assert.equal(
    why({ matched: ['okapi'], text: 1, present: { expression: 'now', weight: 1.5 } }),
    'matched okapi; newer, for "now"',
  );
  assert.equal(
    why({ matched: ['okapi'], text: 1, present: { expression: 'now', weight: 1 } }),
    'matched okapi',
  );
  // The query's own words come back inert: a line break in the expression cannot start a line.
  assert.doesNotMatch(
    why({ matched: ['x'], text: 1, time: { ...time, expression: 'before\nApril', match: 'valid' } }),
    /\n/,
  );
});
