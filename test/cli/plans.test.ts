/** `memledger commitments` and `memledger summaries`, spawned as a user runs them, on a fresh home. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli, ok, snapshot, withTempHome } from './helpers.ts';

test('commitments from the CLI: add with due and trigger, an agent’s held in shared, move, show the lifecycle', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    const added = ok(
      await cli(home, [
        'commitments',
        'add',
        'Send Acme the renewal quote',
        '--due',
        '2031-03-01',
        '--when',
        'acme renewal',
        '--json',
      ]),
    ).json<{
      id: string;
      state: string;
      commitment: { status: string; due: string; triggers: { words: string[] } };
    }>();
    assert.equal(added.state, 'active');
    assert.equal(added.commitment.due, '2031-03-01T00:00:00.000Z');
    assert.deepEqual(added.commitment.triggers.words, ['acme renewal']);
    const held = ok(
      await cli(home, [
        'commitments',
        'add',
        'Tell everyone the office is closed',
        '--scope',
        'shared',
        '--as',
        'agent:bot',
        '--json',
      ]),
    ).json<{ state: string }>();
    assert.equal(held.state, 'held');
    const listed = ok(await cli(home, ['commitments', 'list', '--json'])).json<{ id: string }[]>();
    assert.deepEqual(
      listed.map((c) => c.id),
      [added.id],
    );
    const table = ok(await cli(home, ['commitments', 'list'])).stdout;
    assert.match(table, /Send Acme the renewal/);
    assert.match(table, /2031-03-01/);
    ok(await cli(home, ['commitments', 'update', added.id, '--status', 'doing']));
    const done = ok(await cli(home, ['commitments', 'update', added.id, '--status', 'done', '--json'])).json<{
      commitment: { completedAt: string };
    }>();
    assert.ok(done.commitment.completedAt !== null);
    const shown = ok(await cli(home, ['commitments', 'show', added.id])).stdout;
    assert.match(shown, /open -> doing/);
    assert.match(shown, /doing -> done/);
    assert.deepEqual(
      ok(await cli(home, ['commitments', 'list', '--status', 'done', '--json']))
        .json<{ id: string }[]>()
        .map((c) => c.id),
      [added.id],
    );
    const before = await snapshot(home);
    const missing = await cli(home, ['commitments', 'update', added.id]);
    assert.equal(missing.code, 2, 'invalid_input without --status');
    const backwards = await cli(home, ['commitments', 'update', added.id, '--status', 'open']);
    assert.equal(backwards.code, 5, 'conflict: done is final');
    const badCron = await cli(home, ['commitments', 'add', 'x', '--schedule', '0 25 * * *']);
    assert.equal(badCron.code, 2);
    assert.equal(await snapshot(home), before, 'the refusals wrote nothing');
  }));

test('summaries from the CLI: create a chain, read the next window, add a summary, list it, nothing new after', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    ok(await cli(home, ['summaries', 'create', 'ops', '--scope', 'project:ops']));
    ok(await cli(home, ['remember', 'Deploys moved to Fridays', '--scope', 'project:ops']));
    const w = ok(await cli(home, ['summaries', 'next', 'ops', '--json'])).json<{
      until: string;
      token: string;
      memories: { body: string }[];
    }>();
    assert.deepEqual(
      w.memories.map((m) => m.body),
      ['Deploys moved to Fridays'],
    );
    const added = ok(
      await cli(home, [
        'summaries',
        'add',
        'ops',
        '--until',
        w.until,
        '--body',
        'Ops: deploys on Fridays',
        '--window',
        w.token,
      ]),
    ).stdout;
    assert.match(added, /summarises 1 memories of ops/);
    assert.match(ok(await cli(home, ['summaries', 'list', 'ops'])).stdout, /latest: Ops: deploys on Fridays/);
    assert.match(ok(await cli(home, ['summaries', 'next', 'ops'])).stdout, /nothing new in ops/);
    const again = await cli(home, ['summaries', 'add', 'ops', '--until', w.until, '--body', 'Twice']);
    assert.equal(again.code, 5, 'the same cutoff twice is a conflict');
    assert.equal((await cli(home, ['summaries', 'next', 'nope'])).code, 4);
  }));

test('commitments update --status cancelled judges: refused from the local operator without a terminal, nothing moved', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    const added = ok(await cli(home, ['commitments', 'add', 'Renew the lease', '--json'])).json<{
      id: string;
    }>();
    const refused = await cli(home, ['commitments', 'update', added.id, '--status', 'cancelled'], {
      humanToken: false,
    });
    assert.equal(refused.code, 3, refused.stderr);
    const moved = await cli(home, ['commitments', 'update', added.id, '--status', 'doing'], {
      humanToken: false,
    });
    assert.equal(moved.code, 0, 'control: a plain move is no verdict');
    const shown = ok(await cli(home, ['commitments', 'show', added.id, '--json'])).json<{
      commitment: { status: string };
    }>();
    assert.equal(shown.commitment.status, 'doing');
  }));
