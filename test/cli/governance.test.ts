/**
 * The governance and context commands as a user runs them: claim, release, corrections, policy show and
 * check (including an invalid policy file), and context with its budget and session.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { cli, cliInProcess, ok, withTempHome } from './helpers.ts';

const run = cliInProcess;
const AS_BOT = ['--as', 'agent:bot'];

test('I6 I7 claim and release: a person owns and lets go of a key; an agent cannot; the agent’s write follows', () =>
  withTempHome(async (home) => {
    ok(await run(home, ['remember', 'Build uses node 22', '--scope', 'agent:bot', '--key', 'build.node']));
    const held = ok(
      await run(home, [
        'remember',
        'Build uses node 24',
        '--scope',
        'agent:bot',
        '--key',
        'build.node',
        ...AS_BOT,
        '--json',
      ]),
    ).json();
    assert.equal(held.state, 'held', 'control: claimed by the person who wrote it');
    const list = ok(await run(home, ['review', 'list', '--json'])).json();
    assert.match(list[0].owner, /^human:/, 'the review item names the owner');

    const refused = await run(home, [
      'release',
      '--scope',
      'agent:bot',
      '--key',
      'build.node',
      ...AS_BOT,
      '--json',
    ]);
    assert.equal(refused.code, EXIT_CODES.permission);
    assert.match(refused.error().message, /only a human may release a claim/);

    const released = ok(await cli(home, ['release', '--scope', 'agent:bot', '--key', 'build.node']));
    assert.match(released.stdout, /build\.node in agent:bot is no longer claimed \(was human:.+\)/);
    const lands = ok(
      await run(home, [
        'remember',
        'Build uses node 24.1',
        '--scope',
        'agent:bot',
        '--key',
        'build.node',
        ...AS_BOT,
        '--json',
      ]),
    ).json();
    assert.equal(lands.state, 'active');

    const claimed = ok(
      await run(home, ['claim', '--scope', 'agent:bot', '--key', 'build.node', '--json']),
    ).json();
    assert.equal(claimed.changed, true);
    assert.equal(claimed.holder, lands.id);
    assert.match(
      ok(await run(home, ['claim', '--scope', 'agent:bot', '--key', 'build.node'])).stdout,
      /already claimed/,
    );

    const missing = await run(home, ['claim', '--scope', 'shared', '--json']);
    assert.equal(missing.code, EXIT_CODES.invalid_input);
    assert.match(missing.error().message, /needs --scope S and --key K/);
    const nothing = await run(home, ['claim', '--scope', 'shared', '--key', 'no.value', '--json']);
    assert.equal(nothing.code, EXIT_CODES.not_found);
  }));

test('corrections: a reviewer’s edit and rejection are listed for the agent, latest per key', () =>
  withTempHome(async (home) => {
    const propose = async (body: string, extra: string[] = []) =>
      ok(await run(home, ['remember', body, '--scope', 'shared', ...extra, ...AS_BOT, '--json'])).json().id;
    const tz = await propose('Timezone is UTC', ['--key', 'user.tz']);
    ok(await run(home, ['review', 'approve', tz, '--body', 'Timezone is Europe/Paris']));
    const day = await propose('Deploys run on Fridays', ['--kind', 'decision']);
    ok(await run(home, ['review', 'reject', day, '--reason', 'frozen Fridays']));

    const mine = ok(await run(home, ['corrections', ...AS_BOT, '--json'])).json();
    assert.deepEqual(
      mine.map((c: { action: string; key: string | null }) => [c.action, c.key]),
      [
        ['rejected', null],
        ['edited', 'user.tz'],
      ],
    );
    const table = ok(await cli(home, ['corrections'])).stdout;
    assert.match(table, /when\s+agent\s+scope\s+key or kind\s+action\s+now \/ reason/);
    assert.match(table, /agent:bot\s+shared\s+user\.tz\s+edited by human:\S+\s+Timezone is Europe\/Paris/);
    assert.match(table, /\(decision\)\s+rejected by human:\S+\s+frozen Fridays/);
    assert.match(table, /2 corrections/);
    // Another agent has none of its own.
    assert.deepEqual(ok(await run(home, ['corrections', '--as', 'agent:ann', '--json'])).json(), []);
  }));

test('policy show prints the effective policy and its file', () =>
  withTempHome(async (home) => {
    // A read on a home that is not there creates nothing (test/cli/homes.test.ts): set it up first.
    ok(await cli(home, ['init']));
    const shown = ok(await cli(home, ['policy', 'show'])).stdout;
    assert.ok(shown.includes(join(home, 'policy.json')), shown);
    assert.match(shown, /\(file\)/);
    assert.match(shown, /ownership\s+hold/);
    assert.match(shown, /1\s+humans-land\s+principal human:\*\s+allow/);
    assert.match(shown, /agent:\*\s+reader, writer\s+agent:\{self\}:rw, shared:rw, project:\*:rw/);
    const json = ok(await run(home, ['policy', 'show', '--json'])).json();
    assert.equal(json.path, join(home, 'policy.json'));
    assert.equal(json.policy.rules.length, 3);
  }));

test('I6 policy check explains which rule applies and why, with the ownership step when a claim holds the key', () =>
  withTempHome(async (home) => {
    ok(await run(home, ['remember', 'Acme is on the Pro plan', '--scope', 'shared', '--key', 'acme.plan']));
    const owned = ok(
      await cli(home, ['policy', 'check', '--as', 'agent:bot', '--scope', 'shared', '--key', 'acme.plan']),
    ).stdout;
    assert.match(
      owned,
      /a write by agent:bot of a fact in shared \(key acme\.plan\) IS HELD FOR REVIEW \(ownership\)/,
    );
    assert.match(owned, /grants\s+ok\s+grant shared:rw allows writing shared/);
    assert.match(owned, /ownership\s+hold\s+key acme\.plan in shared is claimed by human:/);

    const free = ok(
      await run(home, [
        'policy',
        'check',
        '--as',
        'agent:bot',
        '--scope',
        'shared',
        '--kind',
        'note',
        '--json',
      ]),
    ).json();
    assert.equal(free.action, 'hold');
    assert.equal(free.rule, 'agent-elsewhere-held');
    assert.deepEqual(
      free.steps.map((s: { step: string; outcome: string }) => `${s.step}:${s.outcome}`),
      ['principal:ok', 'grants:ok', 'ownership:skip', 'rule:no match', 'rule:no match', 'rule:hold'],
    );
    const own = ok(await run(home, ['policy', 'check', ...AS_BOT, '--scope', 'agent:bot', '--json'])).json();
    assert.equal(own.action, 'allow');
    assert.equal(own.rule, 'agent-own-scope');
    const person = ok(
      await run(home, ['policy', 'check', '--scope', 'shared', '--key', 'acme.plan', '--json']),
    ).json();
    assert.equal(person.action, 'allow', 'a person is not held by ownership');
    const outside = ok(
      await run(home, ['policy', 'check', ...AS_BOT, '--scope', 'user:alice', '--json']),
    ).json();
    assert.equal(outside.action, 'deny');
    assert.equal(outside.rule, 'grants');

    const noScope = await run(home, ['policy', 'check', '--json']);
    assert.equal(noScope.code, EXIT_CODES.invalid_input);
    assert.match(noScope.error().message, /needs --scope/);
    const badKind = await run(home, ['policy', 'check', '--scope', 'shared', '--kind', 'gossip', '--json']);
    assert.equal(badKind.code, EXIT_CODES.invalid_input);
  }));

test('policy check and show on an invalid policy file print the precise problem as invalid_input', () =>
  withTempHome(async (home) => {
    ok(await run(home, ['init']));
    writeFileSync(
      join(home, 'policy.json'),
      JSON.stringify({ version: 1, rules: [{ name: 'x', action: 'maybe' }], ownership: 'sometimes' }),
    );
    const human = await cli(home, ['policy', 'check', '--scope', 'shared']);
    assert.equal(human.code, EXIT_CODES.invalid_input);
    assert.match(
      human.stderr,
      /^memledger: invalid_input: .*policy\.json is invalid: rules\.0\.action: .*"allow"\|"hold"\|"deny".*; ownership: /,
    );
    const json = await run(home, ['policy', 'show', '--json']);
    assert.equal(json.code, EXIT_CODES.invalid_input);
    assert.equal(json.error().class, 'invalid_input');
    assert.match(json.error().message, /policy\.json is invalid: rules\.0\.action/);
    writeFileSync(join(home, 'policy.json'), '{ not json');
    const broken = await run(home, ['policy', 'check', '--scope', 'shared', '--json']);
    assert.equal(broken.code, EXIT_CODES.invalid_input);
    assert.match(broken.error().message, /policy\.json is not valid JSON/);
  }));

test('context prints the block on stdout and a summary on stderr; --json has the items; a session is not shown twice', () =>
  withTempHome(async (home) => {
    ok(await run(home, ['remember', 'The deploy script lives in scripts/deploy.sh', '--scope', 'shared']));
    ok(await run(home, ['remember', 'Always tag releases', '--scope', 'shared', '--kind', 'preference']));
    const block = ok(await cli(home, ['context', 'fix the deploy script', ...AS_BOT, '--budget', '600']));
    assert.match(block.stdout, /^<memledger-context>\n/);
    assert.match(block.stdout, /## Rules people confirmed[\s\S]*Always tag releases/);
    assert.match(block.stdout, /## Relevant to the task[\s\S]*scripts\/deploy\.sh/);
    assert.match(block.stdout, /<\/memledger-context>\n$/);
    assert.match(block.stderr, /^2 items, \d+ of 600 tokens\n$/);

    const first = ok(await run(home, ['context', 'deploy', '--session', 'abc', '--json'])).json();
    assert.equal(first.items.length, 2);
    assert.ok(first.tokens <= 1500 && first.budget === 1500);
    const again = ok(await run(home, ['context', 'deploy', '--session', 'abc', '--json'])).json();
    assert.equal(again.items.length, 0);
    assert.equal(again.suppressed, 2);
    const viaEnv = ok(
      await run(home, ['context', 'deploy', '--json'], { env: { MEMLEDGER_SESSION_ID: 'abc' } }),
    ).json();
    assert.equal(viaEnv.suppressed, 2, 'MEMLEDGER_SESSION_ID names the session too');

    for (const budget of ['50', '20001', 'lots']) {
      const r = await run(home, ['context', '--budget', budget, '--json']);
      assert.equal(r.code, EXIT_CODES.invalid_input, budget);
    }
    const outside = await run(home, ['context', '--scope', 'user:alice', ...AS_BOT, '--json']);
    assert.equal(outside.code, EXIT_CODES.permission);
  }));
