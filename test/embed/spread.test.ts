/** Near-repeats spread out of a fused ranking's head (src/embed/spread.ts), a different memory moved up past them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fusable } from '../../src/embed/hybrid.ts';
import { spread } from '../../src/embed/spread.ts';

const candidate = (id: string, body: string, score: number): Fusable => ({
  memory: { id, scope: 'shared', body },
  score,
  why: { matched: [], text: 0, trustWeight: 1, confidenceWeight: 1, recencyWeight: 1 },
});

const retro = (n: number) => `Sprint ${n} retro: pairing helped new hires; estimates were far off again`;

test('a memory unlike the ones above it moves up past their near-repeats; the best keeps first place', () => {
  const fused = [
    candidate('a1', retro(1), 1),
    candidate('a2', retro(2), 0.96),
    candidate('a3', retro(3), 0.95),
    candidate('a4', retro(4), 0.94),
    candidate('a5', retro(5), 0.93),
    candidate('b', 'Services are named after what they do, in kebab-case', 0.9),
  ];
  const out = spread(fused);
  assert.deepEqual(
    out.map((c) => c.memory.id),
    ['a1', 'b', 'a2', 'a3', 'a4', 'a5'],
  );
  assert.equal(out[0]!.score, 1, 'the first place is not weighed down');
  assert.equal(out[1]!.score, 0.9, 'a memory unlike the others keeps its score');
  assert.ok(
    out[2]!.score < 0.9 && out[2]!.score > 0.96 * 0.8,
    'a near-repeat is weighed down, by at most a fifth',
  );
  for (let i = 1; i < out.length; i++)
    assert.ok(out[i]!.score <= out[i - 1]!.score, 'scores follow the order');
});

test('control: memories that do not repeat each other keep their order and scores', () => {
  const bodies = [
    'Sprint 1 retro: pairing helped new hires',
    'The billing database reached 140 GB after usage-based invoicing launched',
    'Feature flags must be removed within 30 days of full rollout',
    'Engineering laptops are MacBook Pros with 32 GB of memory',
    'Time off is requested in BambooHR at least two weeks ahead',
    'New services are named after what they do, in kebab-case',
  ];
  const scores = [1, 0.96, 0.95, 0.94, 0.93, 0.9];
  const out = spread(bodies.map((b, i) => candidate(`m${i}`, b, scores[i]!)));
  assert.deepEqual(
    out.map((c) => c.memory.id),
    ['m0', 'm1', 'm2', 'm3', 'm4', 'm5'],
  );
  assert.ok(
    out.every((c, i) => c.score > scores[i]! * 0.95),
    'little shared wording, little weight lost',
  );
});
