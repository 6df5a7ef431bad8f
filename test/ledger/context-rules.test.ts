/**
 * The rules pool's order: confirmed rules holding more of the task's words first (inflections of a word's stem,
 * any case, the key, accented text), newest first among equals; `why` names the words. Each case beside a rule
 * holding none, which must come after them.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { uniqueWord } from '../conformance/helpers.ts';
import { withLedger } from './helpers.ts';

test('rules holding the task words lead the rules pool, matched in any case, by stem, in the key and in accented text', () =>
  withLedger(async ({ me }) => {
    const word = uniqueWord();
    const remember = (body: string, key?: string) =>
      me.remember({ body, scope: 'shared', kind: 'decision', ...(key === undefined ? {} : { key }) });
    const both = await remember(`${word.toUpperCase()} deploys go through the canary`);
    const stem = await remember('Deploying happens on Tuesdays only');
    const keyed = await remember('Ask the owner first', `svc.${word}.policy`);
    const accented = await remember(`Le ${word} est déployé ce soir`);
    // Only its accented word matches: no plain-text shortcut may miss it.
    const accentOnly = await remember('Tout est déployé');
    // Newest: it would lead the pool if the matches did not come first.
    const none = await remember('Lunch is at noon');
    const r = await me.context({ task: `${word} deploying`, scopes: ['shared'], budget: 4000 });
    const rules = r.items.filter((i) => i.pool === 'rules');
    const order = rules.map((i) => i.memory.id);
    // Two words each (newest first), one word each (newest first), then none, though it is the newest of all.
    assert.deepEqual(order, [accented.id, both.id, accentOnly.id, keyed.id, stem.id, none.id]);
    const why = (id: string) => rules.find((i) => i.memory.id === id)!.why;
    assert.equal(why(both.id), `pinned: a confirmed decision; matched ${word}, deploying`);
    assert.equal(why(stem.id), 'pinned: a confirmed decision; matched deploying');
    assert.equal(why(keyed.id), `pinned: a confirmed decision; matched ${word}`);
    assert.equal(why(accented.id), `pinned: a confirmed decision; matched ${word}, deploying`);
    assert.equal(why(accentOnly.id), 'pinned: a confirmed decision; matched deploying');
    assert.equal(why(none.id), 'pinned: a confirmed decision');
  }));
