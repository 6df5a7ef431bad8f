/**
 * Behaviors through the CLI, spawned as a user runs it: a TOML definition added by the operator, a window
 * claimed and completed as an agent, `behaviors run --exec` with a tiny node script as the command (finishing,
 * failing and timing out), `behaviors runs`, and two `memledger scheduler` processes on one home firing a
 * schedule window exactly once.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openLedger } from '../../src/index.ts';
import { localOperator } from '../../src/policy/identity.ts';
import { cli, ok, withTempHome } from '../cli/helpers.ts';

const CMD = `"${process.execPath}" "${fileURLToPath(new URL('./fixtures/digest-cmd.js', import.meta.url))}"`;

const DEFINITION = `
name = "digest"
prompt = "Summarise the new decisions for the team."
settleSeconds = 0
[[triggers]]
type = "event"
kinds = ["decision"]
[[triggers]]
type = "schedule"
cron = "0 9 * * *"
timezone = "Europe/Berlin"
[reads]
scopes = ["shared"]
[writes]
kinds = ["note"]
scopes = ["agent:runner"]
`;

const AGENT = ['--as', 'agent:runner'];

test('behaviors CLI: add a TOML file, next and complete as an agent, runs shows what it consumed and wrote', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    const file = join(home, 'digest.toml');
    writeFileSync(file, DEFINITION);
    const added = ok(await cli(home, ['behaviors', 'add', file]));
    assert.match(added.stdout, /behavior digest is at version 1/);
    // An agent may not define one (I7); the admin control above did.
    const refused = await cli(home, ['behaviors', 'add', file, '--json', ...AGENT]);
    assert.notEqual(refused.code, 0);
    assert.equal(refused.error().class, 'permission');

    const d = ok(
      await cli(home, [
        'remember',
        '--scope',
        'shared',
        '--kind',
        'decision',
        'We ship on Fridays',
        '--json',
      ]),
    ).json();
    const w = ok(await cli(home, ['behaviors', 'next', 'digest', '--json', ...AGENT])).json();
    assert.equal(w.prompt, 'Summarise the new decisions for the team.');
    assert.deepEqual(
      w.events.map((e: { memory: { id: string } }) => e.memory.id),
      [d.id],
    );
    const outputs = join(home, 'outputs.json');
    writeFileSync(
      outputs,
      JSON.stringify({
        token: w.token,
        outputs: [{ scope: 'agent:runner', kind: 'note', body: 'Fridays.' }],
      }),
    );
    const done = ok(
      await cli(home, ['behaviors', 'complete', w.run, '--outputs', outputs, '--json', ...AGENT]),
    ).json();
    assert.equal(done.consumed, 1);
    assert.equal(done.outputs[0].state, 'active');
    assert.equal(
      ok(await cli(home, ['behaviors', 'next', 'digest', '--json', ...AGENT])).stdout.trim(),
      'null',
    );

    const runs = ok(await cli(home, ['behaviors', 'runs', 'digest', '--json'])).json();
    assert.equal(runs.runs[0].state, 'finished');
    assert.equal(runs.runs[0].consumed.length, 1);
    assert.equal(runs.runs[0].outputs[0].id, done.outputs[0].id);
    const table = ok(await cli(home, ['behaviors', 'runs', 'digest'])).stdout;
    assert.match(table, new RegExp(`${w.run}.*finished`));
    assert.match(ok(await cli(home, ['behaviors', 'list'])).stdout, /digest\s+1\s+event, schedule\s+enabled/);
  }));

test('behaviors CLI: run --exec runs a command per window; a failing or timing-out command fails the run and links nothing', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    const file = join(home, 'digest.toml');
    writeFileSync(file, DEFINITION);
    ok(await cli(home, ['behaviors', 'add', file]));
    ok(await cli(home, ['remember', '--scope', 'shared', '--kind', 'decision', 'Reviews within a day']));

    const failing = await cli(home, ['behaviors', 'run', 'digest', '--exec', CMD, '--json', ...AGENT], {
      env: { FAIL: '1' },
    });
    assert.notEqual(failing.code, 0);
    assert.equal(failing.json().runs[0].outcome, 'failed');
    assert.match(failing.json().runs[0].failure, /exited with 3/);
    const hanging = await cli(
      home,
      ['behaviors', 'run', 'digest', '--exec', CMD, '--timeout', '1', '--json', ...AGENT],
      {
        env: { HANG: '1' },
      },
    );
    assert.equal(hanging.json().runs[0].outcome, 'failed');
    assert.match(hanging.json().runs[0].failure, /timed out/);

    const ran = ok(await cli(home, ['behaviors', 'run', 'digest', '--exec', CMD, '--json', ...AGENT])).json();
    assert.equal(ran.runs.length, 1);
    assert.equal(ran.runs[0].outcome, 'finished');
    assert.equal(ran.runs[0].events, 1, 'the failed runs linked nothing: the event was shown again');
    const note = ok(await cli(home, ['get', ran.runs[0].outputs[0].id, '--json'])).json();
    assert.equal(note.body, 'Digest of 1 events and 0 fired windows: Reviews within a day');
    assert.equal(note.provenance.runId, ran.runs[0].run);
    assert.equal(
      ok(await cli(home, ['behaviors', 'run', 'digest', '--exec', CMD])).stdout,
      'nothing outstanding\n',
    );
  }));

test('behaviors CLI: two scheduler processes on one home fire a schedule window exactly once', () =>
  withTempHome(async (home) => {
    // Defined long ago by the library's clock, so the latest yearly instant falls after the definition.
    const ledger = openLedger({ home, now: () => '2020-01-01T00:00:00.000Z' });
    await ledger.as(localOperator()).behaviors.add({
      name: 'yearly',
      prompt: 'Review the year.',
      triggers: [{ type: 'schedule', cron: '0 0 1 1 *', timezone: 'UTC' }],
      reads: { scopes: ['shared'] },
      writes: { kinds: ['note'], scopes: ['agent:runner'] },
    });
    ledger.close();
    const [a, b] = await Promise.all([
      cli(home, ['scheduler', '--once', '--json']),
      cli(home, ['scheduler', '--once', '--json']),
    ]);
    assert.equal(
      ok(a).json().fired + ok(b).json().fired,
      1,
      'one process fired it, the other found it fired',
    );
    const w = ok(await cli(home, ['behaviors', 'next', 'yearly', '--json', ...AGENT])).json();
    assert.equal(w.fired.length, 1);
    assert.equal(w.fired[0].trigger, 'schedule');
    assert.match(w.fired[0].at, /^\d{4}-01-01T00:00:00\.000Z$/);
    ok(await cli(home, ['scheduler', '--once']));
    // Leased: the same window is not handed out twice; once finished it is consumed for good.
    assert.equal(
      ok(await cli(home, ['behaviors', 'next', 'yearly', '--json', ...AGENT])).stdout.trim(),
      'null',
    );
  }));
