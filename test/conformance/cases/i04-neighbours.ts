/**
 * I4 scope for session neighbours: a turn the caller cannot read is never shown or hinted, not grouped under a
 * search hit and not placed in a context block, while a caller who can read it gets it in the same place.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { principal, uniqueWord } from '../helpers.ts';

/** Three turns of one session: shared, then a private user:ops turn, then shared again. */
async function conversation(ledger: Ledger) {
  const word = uniqueWord('nb');
  const hidden = uniqueWord('hidden');
  const writer = ledger.as(principal('human', 'writer'), { surface: 'library', sessionId: `conv-${word}` });
  const ask = await writer.remember({
    body: `Priya: where do the ${word} credentials live now?`,
    scope: 'shared',
  });
  const secret = await writer.remember({
    body: `Elena: in the ops vault under ${hidden}`,
    scope: 'user:ops',
  });
  const thanks = await writer.remember({ body: 'Marco: got it, sorted for the release', scope: 'shared' });
  for (const w of [ask, secret, thanks]) assert.equal(w.state, 'active');
  const reader = (grants: string[]) =>
    ledger.as(principal('human', `reader-${grants.length}`, { roles: ['reader'], grants }), {
      surface: 'library',
    });
  return {
    word,
    hidden,
    ids: { ask: ask.id, secret: secret.id, thanks: thanks.id },
    limited: reader(['shared:r']),
    full: reader(['shared:r', 'user:ops:r']),
  };
}

export function neighbourScopeCases(factory: ConformanceFactory): void {
  describe('I4 scope: session neighbours', () => {
    test('I4 scope: search never groups a neighbour the caller cannot read under a hit; a reader of it gets it', async () => {
      await withHome(factory, async (h) => {
        const c = await conversation(h.ledger);
        const limited = await c.limited.search({ query: `${c.word} credentials`, neighbours: true });
        assert.equal(limited.hits[0]?.memory.id, c.ids.ask, 'control: the question is found');
        // The turn after it that this reader may see is the next readable one, as if the private turn were never said.
        assert.equal(limited.hits[0]?.neighbours?.after?.id, c.ids.thanks);
        const text = JSON.stringify(limited);
        assert.ok(
          !text.includes(c.ids.secret) && !text.includes(c.hidden),
          'no id, no word of the private turn',
        );

        const full = await c.full.search({ query: `${c.word} credentials`, neighbours: true });
        assert.equal(
          full.hits[0]?.neighbours?.after?.id,
          c.ids.secret,
          'control: a reader of user:ops gets it',
        );
        assert.equal(full.hits[0]?.neighbours?.before, null);
      });
    });

    test('I4 scope: context never places a neighbour the caller cannot read; a reader of it gets it marked', async () => {
      await withHome(factory, async (h) => {
        const c = await conversation(h.ledger);
        const limited = await c.limited.context({ task: `${c.word} credentials`, budget: 1500 });
        const ids = limited.items.map((i) => i.memory.id);
        assert.ok(ids.includes(c.ids.ask), 'control: the question is in the block');
        assert.ok(!ids.includes(c.ids.secret));
        assert.ok(!limited.markdown.includes(c.hidden) && !limited.markdown.includes(c.ids.secret));
        const marked = limited.items.find((i) => i.memory.id === c.ids.thanks);
        assert.match(
          marked?.why ?? '',
          /^neighbour: the turn after /,
          'the readable next turn stands beside it',
        );

        const full = await c.full.context({ task: `${c.word} credentials`, budget: 1500 });
        const shown = full.items.find((i) => i.memory.id === c.ids.secret);
        assert.equal(
          shown?.why,
          `neighbour: the turn after ${c.ids.ask}`,
          'control: a reader of user:ops gets it',
        );
        assert.ok(full.markdown.includes(c.hidden));
      });
    });
  });
}
