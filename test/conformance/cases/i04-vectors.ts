/**
 * I4 scope on the vector path: the scan is restricted to the caller's scopes before ranking, so no score a
 * caller sees depends on memories it cannot read. Run with a deterministic word embedder on every backend.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger } from '../../../src/index.ts';
import { WordEmbedder } from '../../support/word-embedder.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { buildPolicy, manualClock } from '../helpers.ts';

const TWO_AGENTS = buildPolicy({
  principals: {
    'agent:a': { roles: ['reader', 'writer'], grants: ['agent:a:rw'] },
    'agent:b': { roles: ['reader', 'writer'], grants: ['agent:b:rw'] },
  },
  default: 'allow',
});

/** What agent:a sees for a query that shares no word with its memories, only synonyms (vectors alone find it). */
async function aSees(ledger: Ledger, query: string) {
  const r = await ledger.as(ledger.principal('agent:a')).search({ query });
  return {
    vectors: r.vectors,
    hits: r.hits.map((h) => ({ body: h.memory.body, score: h.score, vector: h.why.vector })),
  };
}

async function writeA(ledger: Ledger): Promise<void> {
  const a = ledger.as(ledger.principal('agent:a'));
  await a.remember({ body: 'The wombat habitat survey starts Monday', scope: 'agent:a' });
  await a.remember({ body: 'Wombat burrow near the creek', scope: 'agent:a' });
  await a.remember({ body: 'Budget review is on Friday', scope: 'agent:a' });
}

/** agent:a's memories embedded, then five of agent:b's written and still queued. */
async function fiveQueuedForB(ledger: Ledger) {
  await writeA(ledger);
  await ledger.embedPending();
  const b = ledger.as(ledger.principal('agent:b'));
  for (let i = 0; i < 5; i++) await b.remember({ body: `Marsupial den note ${i}`, scope: 'agent:b' });
  return { a: ledger.as(ledger.principal('agent:a')), b };
}

export function vectorScopeCases(factory: ConformanceFactory): void {
  describe('I4 scope on the vector path', () => {
    test('I4 scope: a caller’s vector scores are identical whether or not another scope holds many similar memories', async () => {
      const start = '2025-06-01T10:00:00Z';
      const quiet = await withHome(
        factory,
        async ({ ledger }) => {
          await writeA(ledger);
          await ledger.embedPending();
          return aSees(ledger, 'marsupial den');
        },
        { policy: TWO_AGENTS, now: manualClock(start).now, semantic: { embedder: new WordEmbedder() } },
      );
      const crowded = await withHome(
        factory,
        async ({ ledger }) => {
          await writeA(ledger);
          const b = ledger.as(ledger.principal('agent:b'));
          for (let i = 0; i < 60; i++) {
            await b.remember({ body: `Wombat habitat marsupial den note ${i}`, scope: 'agent:b' });
          }
          await ledger.embedPending();
          // Control: agent:b's own memories are there, found by the same query.
          const theirs = await b.search({ query: 'marsupial den' });
          assert.ok(theirs.hits.length >= 5, 'control: agent:b finds its similar memories');
          assert.ok(theirs.hits.every((h) => h.memory.scope === 'agent:b'));
          return aSees(ledger, 'marsupial den');
        },
        { policy: TWO_AGENTS, now: manualClock(start).now, semantic: { embedder: new WordEmbedder() } },
      );
      assert.equal(quiet.vectors?.used, true);
      assert.ok(quiet.hits.length >= 2, 'the synonyms find agent:a’s wombat memories by vector');
      assert.ok(quiet.hits.every((h) => /wombat/i.test(h.body)));
      assert.deepEqual(crowded, quiet, 'same hits, same scores, same similarities');
    });

    test('I4 scope: a two-part question ranked part by part scores alike whether or not another scope is crowded', async () => {
      const start = '2025-06-01T10:00:00Z';
      const question = 'where is the marsupial den, and when is the budget review';
      const options = {
        policy: TWO_AGENTS,
        now: manualClock(start).now,
        semantic: { embedder: new WordEmbedder() },
      };
      const quiet = await withHome(
        factory,
        async ({ ledger }) => {
          await writeA(ledger);
          await ledger.embedPending();
          return aSees(ledger, question);
        },
        options,
      );
      const crowded = await withHome(
        factory,
        async ({ ledger }) => {
          await writeA(ledger);
          const b = ledger.as(ledger.principal('agent:b'));
          for (let i = 0; i < 30; i++) {
            await b.remember({ body: `Marsupial den note ${i}`, scope: 'agent:b' });
            await b.remember({ body: `Budget review note ${i}`, scope: 'agent:b' });
          }
          await ledger.embedPending();
          const theirs = await b.search({ query: question });
          assert.ok(theirs.hits.length >= 5, 'control: agent:b finds its own similar memories');
          return aSees(ledger, question);
        },
        options,
      );
      // Both parts' answers are agent:a's: the wombat memories by vector, the budget review by its words.
      assert.ok(quiet.hits.some((h) => /wombat/i.test(h.body)));
      assert.ok(quiet.hits.some((h) => h.body === 'Budget review is on Friday'));
      assert.deepEqual(crowded, quiet, 'same hits, same scores, same similarities');
    });

    test('I4 scope: a scope’s best text score, read when few scopes are searched, counts readable memories only', async () => {
      const policy = buildPolicy({
        principals: {
          'agent:a': { roles: ['reader', 'writer'], grants: ['agent:a:rw', 'project:p:rw'] },
          'agent:b': { roles: ['reader', 'writer'], grants: ['agent:b:rw'] },
        },
        default: 'allow',
      });
      const options = {
        policy,
        now: manualClock('2025-06-01T10:00:00Z').now,
        semantic: { embedder: new WordEmbedder() },
      };
      const query = 'wombat habitat survey rota';
      const writeBoth = async (ledger: Ledger) => {
        await writeA(ledger);
        const a = ledger.as(ledger.principal('agent:a'));
        await a.remember({ body: 'Survey rota for the project team', scope: 'project:p' });
        await a.remember({ body: 'Project kettle descaling is monthly', scope: 'project:p' });
      };
      const seen = (ledger: Ledger) =>
        ledger
          .as(ledger.principal('agent:a'))
          .search({ query, scopes: ['agent:a', 'project:p'] })
          .then((r) => r.hits.map((h) => ({ body: h.memory.body, score: h.score, vector: h.why.vector })));
      const quiet = await withHome(
        factory,
        async ({ ledger }) => {
          await writeBoth(ledger);
          await ledger.embedPending();
          return seen(ledger);
        },
        options,
      );
      const crowded = await withHome(
        factory,
        async ({ ledger }) => {
          await writeBoth(ledger);
          const b = ledger.as(ledger.principal('agent:b'));
          for (let i = 0; i < 20; i++) {
            await b.remember({ body: `Wombat habitat survey rota ${i}`, scope: 'agent:b' });
          }
          await ledger.embedPending();
          // Control: agent:b's memories hold every word of the query and are found by agent:b.
          const theirs = await b.search({ query, scopes: ['agent:b'] });
          assert.ok(theirs.hits.length >= 5 && theirs.hits.every((h) => h.memory.scope === 'agent:b'));
          return seen(ledger);
        },
        options,
      );
      assert.ok(
        quiet.some((h) => h.body === 'Survey rota for the project team'),
        'both scopes answer',
      );
      assert.ok(quiet.some((h) => /wombat/i.test(h.body)));
      assert.deepEqual(crowded, quiet, 'same hits, same scores, same similarities');
    });

    test('I4 scope: a search reports and catches up on its own scopes’ queue only, never another scope’s', async () => {
      const embedder = new WordEmbedder();
      await withHome(
        factory,
        async ({ ledger }) => {
          const { a, b } = await fiveQueuedForB(ledger);
          await a.remember({ body: 'Wombat census next week', scope: 'agent:a' });
          const before = embedder.texts;
          const mine = await a.search({ query: 'marsupial den' });
          // agent:a's own new memory is embedded with the query (2 texts), agent:b's five are not touched.
          assert.equal(embedder.texts - before, 2, 'the query and agent:a’s one queued memory');
          assert.equal(mine.vectors?.pending, 0);
          assert.ok(
            mine.hits.some((h) => h.memory.body === 'Wombat census next week' && h.why.vector !== undefined),
          );
          assert.ok(mine.hits.every((h) => h.memory.scope === 'agent:a'));
          // Control: agent:b's five were still queued; its own search (another query: agent:a's is cached) embeds
          // them with its query and finds them.
          const at = embedder.texts;
          const theirs = await b.search({ query: 'marsupial den notes' });
          assert.equal(embedder.texts - at, 6, 'control: the query and agent:b’s five queued memories');
          assert.equal(theirs.vectors?.pending, 0);
          assert.equal(theirs.hits.length, 5);
        },
        { policy: TWO_AGENTS, semantic: { embedder } },
      );
    });

    test('I4 scope: the pending count a search reports is of its own scopes, not of what another scope wrote', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const { a, b } = await fiveQueuedForB(ledger);
          const quiet = await a.search({ query: 'marsupial den' });
          assert.equal(
            quiet.vectors?.pending,
            0,
            'agent:b’s five queued memories are not counted for agent:a',
          );
          // A held memory of agent:a's scope waits for its vector too, but no search finds it: not counted.
          const held = await a.remember({
            body: 'We decided on wombat fencing',
            kind: 'decision',
            scope: 'agent:a',
          });
          assert.equal(held.state, 'held', 'setup: the policy holds decisions');
          assert.equal((await a.search({ query: 'wombat fencing' })).vectors?.pending, 0);
          await a.remember({ body: 'Wombat census next week', scope: 'agent:a' });
          const own = await a.search({ query: 'marsupial den' });
          assert.equal(own.vectors?.pending, 1, 'control: agent:a’s own queued memory is counted');
          // Control: agent:b's search counts its five.
          const theirs = await b.search({ query: 'marsupial den' });
          assert.equal(theirs.vectors?.pending, 5);
        },
        {
          policy: buildPolicy({
            principals: {
              'agent:a': { roles: ['reader', 'writer'], grants: ['agent:a:rw'] },
              'agent:b': { roles: ['reader', 'writer'], grants: ['agent:b:rw'] },
            },
            rules: [{ name: 'decisions wait for a person', when: { kind: 'decision' }, action: 'hold' }],
            default: 'allow',
          }),
          semantic: { embedder: new WordEmbedder(), catchUp: 0 },
        },
      ));

    test('I4 scope: a vector search never returns a memory of a scope the caller cannot read', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          await writeA(ledger);
          const b = ledger.as(ledger.principal('agent:b'));
          await b.remember({ body: 'Marsupial den census by b', scope: 'agent:b' });
          await ledger.embedPending();
          const a = await ledger.as(ledger.principal('agent:a')).search({ query: 'marsupial den census' });
          assert.ok(a.hits.length > 0, 'control: agent:a finds its own');
          assert.ok(a.hits.every((h) => h.memory.scope === 'agent:a'));
          const mine = await b.search({ query: 'marsupial den census' });
          assert.deepEqual(
            mine.hits.map((h) => h.memory.scope),
            ['agent:b'],
          );
        },
        { policy: TWO_AGENTS, semantic: { embedder: new WordEmbedder() } },
      ));
  });
}
