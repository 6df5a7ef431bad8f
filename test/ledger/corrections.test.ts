/**
 * The correction feed: a reviewer's edit or rejection of an agent's write reaches that agent (latest per key
 * or kind), within its grants (I4), never for a human's own write, gone with an erasure (I9), and surfaced by
 * the MCP search_memory tool.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { principalLabel } from '../../src/index.ts';
import { buildTools } from '../../src/surfaces/mcp/tools.ts';
import { expectError, principal } from '../conformance/helpers.ts';
import { plantCorrection, withLedger } from './helpers.ts';

test('an edit in review is a correction for the agent: key, the corrected version, who and when; approving as proposed is not', () =>
  withLedger(async ({ me, bot }) => {
    const asIs = await bot.remember({ body: 'Acme is on the Pro plan', scope: 'shared', key: 'acme.plan' });
    await me.approve({ id: asIs.id });
    assert.deepEqual(await bot.corrections(), [], 'control: approved as proposed, nothing to correct');

    const wrong = await bot.remember({ body: 'Acme is on the Free plan', scope: 'shared', key: 'acme.plan' });
    const edited = await me.approve({
      id: wrong.id,
      body: 'Acme is on the Enterprise plan',
      note: 'they upgraded',
    });
    const [c, ...rest] = await bot.corrections();
    assert.equal(rest.length, 0);
    assert.ok(c);
    assert.equal(c.action, 'edited');
    assert.equal(c.scope, 'shared');
    assert.equal(c.key, 'acme.plan');
    assert.equal(c.agent, 'agent:bot');
    assert.equal(c.proposalId, wrong.id);
    assert.equal(c.correctedId, edited.id);
    assert.equal(c.corrected?.body, 'Acme is on the Enterprise plan');
    assert.equal(c.reason, 'they upgraded');
    assert.equal(c.by, principalLabel(me.principal));
    assert.match(c.at, /^\d{4}-\d\d-\d\dT/);
    const events = (await me.history(wrong.id)).events.filter((e) => e.type === 'corrected');
    assert.equal(events.length, 1, 'a corrected event on the proposal');
    assert.equal(events[0]?.id, c.id);
    assert.deepEqual(events[0]?.detail, { action: 'edited', agent: 'agent:bot', correctedAs: edited.id });
  }));

test('a rejection is a correction with its reason and no corrected version', () =>
  withLedger(async ({ me, bot }) => {
    const r = await bot.remember({ body: 'Deploys run on Fridays', scope: 'shared', kind: 'decision' });
    await me.reject({ id: r.id, reason: 'deploys are frozen on Fridays' });
    const [c] = await bot.corrections();
    assert.equal(c?.action, 'rejected');
    assert.equal(c?.key, null);
    assert.equal(c?.kind, 'decision');
    assert.equal(c?.reason, 'deploys are frozen on Fridays');
    assert.equal(c?.corrected, null);
    assert.equal(c?.correctedId, null);
  }));

test('older corrections for the same key drop out; other keys and kinds stay', () =>
  withLedger(async ({ me, bot }) => {
    const first = await bot.remember({ body: 'Timezone is UTC', scope: 'shared', key: 'user.tz' });
    await me.reject({ id: first.id, reason: 'not UTC' });
    const second = await bot.remember({ body: 'Timezone is CET', scope: 'shared', key: 'user.tz' });
    await me.approve({ id: second.id, body: 'Timezone is Europe/Paris' });
    const other = await bot.remember({ body: 'Editor is vim', scope: 'shared', key: 'user.editor' });
    await me.reject({ id: other.id, reason: 'uses emacs' });
    const note1 = await bot.remember({ body: 'Standup at 9', scope: 'shared', kind: 'note' });
    await me.reject({ id: note1.id, reason: 'standup moved' });
    const note2 = await bot.remember({ body: 'Standup at 10', scope: 'shared', kind: 'note' });
    await me.reject({ id: note2.id, reason: 'no standup any more' });

    const list = await bot.corrections();
    assert.deepEqual(
      list.map((c) => [c.key ?? c.kind, c.action, c.reason ?? c.corrected?.body]),
      [
        ['note', 'rejected', 'no standup any more'],
        ['user.editor', 'rejected', 'uses emacs'],
        ['user.tz', 'edited', 'Timezone is Europe/Paris'],
      ],
      'newest first, one per key or kind',
    );
    assert.equal((await bot.corrections({ limit: 1 })).length, 1);
  }));

test('I4 scope: corrections in a scope the caller may not read are not returned, and asking for that scope is refused', () =>
  withLedger(async ({ ledger, me }) => {
    const ann = ledger.as(ledger.principal('agent:ann'));
    const own = await ann.remember({ body: 'Ann keeps drafts in /tmp', scope: 'agent:ann' });
    await me.reject({ id: own.id, reason: 'drafts go in the repo', expect: 'active' });
    const shared = await ann.remember({ body: 'Release day is Monday', scope: 'shared' });
    await me.reject({ id: shared.id, reason: 'release day is Tuesday' });

    // A person who reads shared but not agent:ann sees Ann's shared correction only.
    const sam = ledger.as(principal('human', 'sam', { roles: ['reader'], grants: ['shared:r'] }));
    assert.deepEqual(
      (await sam.corrections({ agent: 'agent:ann' })).map((c) => c.scope),
      ['shared'],
      'control: the shared one is visible; the one in agent:ann is not',
    );
    await expectError(sam.corrections({ scopes: ['agent:ann'] }), 'permission');
    assert.deepEqual((await ann.corrections()).map((c) => c.scope).sort(), ['agent:ann', 'shared']);
  }));

test('by default an agent sees corrections of its own writes; a person sees every agent’s', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const ann = ledger.as(ledger.principal('agent:ann'));
    const a = await ann.remember({ body: 'Ann thinks the office is closed', scope: 'shared' });
    const b = await bot.remember({ body: 'Bot thinks the office is open', scope: 'shared' });
    await me.reject({ id: a.id, reason: 'it is open' });
    await me.reject({ id: b.id, reason: 'it is closed on Sundays' });
    assert.deepEqual(
      (await bot.corrections()).map((c) => c.agent),
      ['agent:bot'],
    );
    assert.deepEqual(
      (await ann.corrections()).map((c) => c.agent),
      ['agent:ann'],
    );
    assert.deepEqual((await me.corrections()).map((c) => c.agent).sort(), ['agent:ann', 'agent:bot']);
    assert.deepEqual(
      (await me.corrections({ agent: 'agent:ann' })).map((c) => c.agent),
      ['agent:ann'],
    );
  }));

test('a person’s own write, edited or rejected by a reviewer, is not an agent correction; the same for an agent is', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const wes = ledger.as(principal('human', 'wes', { roles: ['reader', 'writer'], grants: ['shared:rw'] }));
    const mine = await wes.remember({ body: 'Lunch is at noon', scope: 'shared' });
    await me.reject({ id: mine.id, reason: 'lunch is at one', expect: 'active' });
    assert.deepEqual(await me.corrections(), []);
    const theirs = await bot.remember({ body: 'Lunch is at eleven', scope: 'shared' });
    await me.reject({ id: theirs.id, reason: 'lunch is at one' });
    assert.equal((await me.corrections()).length, 1, 'control: the agent’s is');
  }));

test('an edited version that was replaced later is no longer offered as the corrected value (I3)', () =>
  withLedger(async ({ me, bot }) => {
    const wrong = await bot.remember({ body: 'Office is in Berlin', scope: 'shared', key: 'office' });
    await me.approve({ id: wrong.id, body: 'Office is in Hamburg' });
    assert.equal((await bot.corrections())[0]?.corrected?.body, 'Office is in Hamburg', 'control');
    await me.remember({ body: 'Office is in Munich', scope: 'shared', key: 'office' });
    const [c] = await bot.corrections();
    assert.equal(c?.corrected, null);
    assert.ok(c?.correctedId, 'the id stays, for history');
  }));

test('I9 erasure removes the corrections of what it erased; the others stay', () =>
  withLedger(async ({ me, bot }) => {
    const about = await bot.remember({
      body: 'Alice lives in Paris',
      scope: 'shared',
      key: 'alice.city',
      subjects: ['person:alice@example.com'],
    });
    await me.reject({ id: about.id, reason: 'Alice lives in Lyon' });
    const other = await bot.remember({ body: 'Bob lives in Rome', scope: 'shared', key: 'bob.city' });
    await me.reject({ id: other.id, reason: 'Bob lives in Milan' });
    assert.equal((await bot.corrections()).length, 2, 'control');
    await me.erase({ subject: 'person:alice@example.com' });
    assert.deepEqual(
      (await bot.corrections()).map((c) => c.key),
      ['bob.city'],
    );
  }));

test('I10 a secret a reviewer pastes into a reason is refused, and one planted below the guard is masked in the feed', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const token = `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;
    const r = await bot.remember({ body: 'CI uses the old token', scope: 'shared' });
    await expectError(me.reject({ id: r.id, reason: `use ${token} instead` }), 'invalid_input');
    assert.deepEqual(await bot.corrections(), [], 'the refused rejection recorded nothing');
    await plantCorrection(ledger, await me.get(r.id), `use ${token} instead`);
    const [c] = await bot.corrections();
    assert.ok(c?.reason);
    assert.ok(!c.reason.includes(token));
    assert.match(c.reason, /^use /, 'control: the rest of the reason is there');
  }));

test('the MCP search_memory tool lists the caller’s latest corrections beside its results', () =>
  withLedger(async ({ me, bot }) => {
    const search = buildTools({ defaultScope: 'agent:bot', project: 'project:x' }).find(
      (t) => t.name === 'search_memory',
    )!;
    const quiet = await search.run(bot, { query: 'timezone', scopes: ['shared'] });
    assert.equal(quiet.corrections, undefined, 'control: nothing corrected yet');
    assert.doesNotMatch(String(quiet.next), /corrected/);

    const wrong = await bot.remember({ body: 'Timezone is UTC', scope: 'shared', key: 'user.tz' });
    await me.approve({ id: wrong.id, body: 'Timezone is Europe/Paris' });
    const out = await search.run(bot, { query: 'timezone', scopes: ['shared'] });
    assert.match(String(out.next), /Reviewers corrected earlier proposals of yours/);
    const [c] = out.corrections as { key: string; action: string; corrected_body: string }[];
    assert.equal(c?.key, 'user.tz');
    assert.equal(c?.action, 'edited');
    assert.equal(c?.corrected_body, 'Timezone is Europe/Paris');
  }));

test('corrections by named scope: none where the agent has none, though another agent has one there; its own where it has one', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const ann = ledger.as(ledger.principal('agent:ann'));
    const mine = await ann.remember({ body: 'Ann says the demo is on Friday', scope: 'shared' });
    await me.reject({ id: mine.id, reason: 'it is on Thursday' });
    const theirs = await bot.remember({ body: 'Bot says the build is green', scope: 'project:web' });
    await me.reject({ id: theirs.id, reason: 'it is red' });
    // Another agent's correction in project:web is not Ann's: her search there lists none.
    assert.deepEqual(await ann.corrections({ scopes: ['project:web'] }), []);
    assert.deepEqual(
      (await ann.corrections({ scopes: ['project:web', 'shared'] })).map((c) => c.proposalId),
      [mine.id],
      'control: her own correction, in the other named scope, is listed',
    );
    assert.deepEqual(
      (await bot.corrections({ scopes: ['project:web'] })).map((c) => c.proposalId),
      [theirs.id],
    );
  }));
