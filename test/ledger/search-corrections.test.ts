/**
 * search with `withCorrections`: the caller's latest corrections come back from the search call itself, the
 * same as a separate `corrections()` call returns them, in one audited call, and only the caller's own (I4);
 * MCP's search_memory shows exactly what its former two-call lookup (correctionsFor) showed.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { correctionsFor } from '../../src/surfaces/mcp/context-block.ts';
import { buildTools } from '../../src/surfaces/mcp/tools.ts';
import { withLedger } from './helpers.ts';

test('search withCorrections returns what corrections() returns for the same scopes; without it, none', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const other = ledger.as(ledger.principal('agent:other'), { surface: 'library' });
    const tz = await bot.remember({ body: 'The puma timezone is UTC', scope: 'shared', key: 'puma.tz' });
    await me.approve({ id: tz.id, body: 'The puma timezone is Europe/Paris' });
    const plan = await bot.remember({ body: 'Puma is on the free plan', scope: 'shared', key: 'puma.plan' });
    await me.reject({ id: plan.id, reason: 'Puma pays for Pro' });
    // Another agent's correction in the same scope: never the caller's business (I4).
    const theirs = await other.remember({
      body: 'Puma deploys on Fridays',
      scope: 'shared',
      key: 'puma.deploy',
    });
    await me.reject({ id: theirs.id, reason: 'frozen on Fridays' });

    const found = await bot.search({ query: 'puma timezone', scopes: ['shared'], withCorrections: true });
    assert.equal(
      found.hits[0]?.memory.body,
      'The puma timezone is Europe/Paris',
      'control: the search itself',
    );
    assert.deepEqual(found.corrections, await bot.corrections({ scopes: ['shared'], limit: 5 }));
    assert.deepEqual(
      found.corrections?.map((c) => [c.action, c.key, c.agent]),
      [
        ['rejected', 'puma.plan', 'agent:bot'],
        ['edited', 'puma.tz', 'agent:bot'],
      ],
      "the caller's own corrections, newest first; agent:other's rejection is absent",
    );
    const plain = await bot.search({ query: 'puma timezone', scopes: ['shared'] });
    assert.equal(plain.corrections, undefined, 'not asked for, not read');
    assert.deepEqual(plain.hits, found.hits, 'the option changes nothing about the hits');
  }));

test('search_memory: the same output as the former search plus corrections lookup, in one audited call', () =>
  withLedger(async ({ me, bot }) => {
    const tool = buildTools({ defaultScope: 'agent:bot', project: 'project:x' }).find(
      (t) => t.name === 'search_memory',
    )!;
    const wrong = await bot.remember({ body: 'The lynx timezone is UTC', scope: 'shared', key: 'lynx.tz' });
    await me.approve({ id: wrong.id, body: 'The lynx timezone is Europe/Paris' });
    const scopes = ['shared', 'agent:bot'];

    const before = await me.audit({ principal: 'agent:bot', limit: 1000 });
    const out = await tool.run(bot, { query: 'lynx timezone', scopes });
    const after = await me.audit({ principal: 'agent:bot', limit: 1000 });
    const added = after.filter((r) => !before.some((b) => b.id === r.id));
    assert.deepEqual(
      added.map((r) => r.operation),
      ['search'],
      'one audited call, not a search and a corrections call',
    );
    assert.ok(added[0]?.targets.includes(wrong.id), 'the audit names the corrected proposal it showed');

    // What the tool showed before: the separate lookup, with the same session and scopes.
    assert.deepEqual(out.corrections, await correctionsFor(bot, scopes));
    assert.equal((out.corrections as unknown[]).length, 1);
    const hits = (await bot.search({ query: 'lynx timezone', scopes })).hits;
    assert.deepEqual(
      (out.results as { id: string }[]).map((r) => r.id),
      hits.map((h) => h.memory.id),
    );
    assert.match(String(out.next), /Reviewers corrected earlier proposals of yours/);

    // A person's search_memory has no corrections, as before (correctionsFor returns none for a human).
    const mine = await tool.run(me, { query: 'lynx timezone', scopes: ['shared'] });
    assert.equal(mine.corrections, undefined);
    assert.equal((mine.results as unknown[]).length, 1, 'control: the person still finds the memory');
  }));
