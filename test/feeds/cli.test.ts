/** `memledger feeds add | list | sync | remove` as a cron line runs them: JSON out, exit codes that mean something. */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, ok } from '../cli/helpers.ts';
import { cc, type World, withWorld, writeClaudeTranscript } from './fixtures.ts';

const run = (world: World, args: string[]) =>
  cli(world.home, [...args, '--json'], { env: { HOME: world.userHome } });

test('feeds add takes the default path under HOME; sync --all reads into review; a second sync changes nothing', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    writeClaudeTranscript({
      projects: world.claudeProjects,
      sessionId: 's1',
      cwd: world.repo,
      lines: [cc.user('We use pnpm, never npm.'), cc.user("Let me know when you're done.")],
    });
    const added = ok(await run(world, ['feeds', 'add', 'claude-code'])).json();
    assert.deepEqual(
      [added.name, added.connector, added.config.path],
      ['claude-code', 'claude-code', world.claudeProjects],
    );
    const listed = ok(await run(world, ['feeds', 'list'])).json();
    assert.deepEqual(
      listed.feeds.map((f: { name: string }) => f.name),
      ['claude-code'],
    );

    const first = ok(await run(world, ['feeds', 'sync', '--all'])).json();
    assert.equal(first.reports.length, 1);
    assert.deepEqual(
      [
        first.reports[0].written,
        first.reports[0].held,
        first.reports[0].droppedNoise,
        first.reports[0].error,
      ],
      [1, 1, 1, null],
    );
    const second = ok(await run(world, ['feeds', 'sync', 'claude-code'])).json();
    assert.deepEqual([second.reports[0].entries, second.reports[0].written], [0, 0]);
    const queue = ok(await run(world, ['review', 'list'])).json() as { body: string; trust: string }[];
    assert.deepEqual(
      queue.map((m) => [m.body, m.trust]),
      [['We use pnpm, never npm.', 'unverified']],
    );
    const after = ok(await run(world, ['feeds', 'list'])).json();
    assert.equal(after.feeds[0].stats.written, 1);
    assert.equal(after.feeds[0].stats.syncs, 2);
    assert.notEqual(after.feeds[0].lastSyncAt, null);
  }));

test('refusals carry their class: unknown connector 2, an agent adding a feed 3, an unknown feed 4, a taken name 5', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    assert.equal((await run(world, ['feeds', 'add', 'slack'])).code, 2);
    assert.equal((await run(world, ['feeds', 'add', 'codex', '--scope', 'team:x'])).code, 2);
    const agent = await cli(world.home, ['feeds', 'add', 'codex', '--as', 'agent:claude-code', '--json'], {
      env: { HOME: world.userHome },
    });
    assert.equal(agent.code, 3, agent.stderr);
    assert.equal((await run(world, ['feeds', 'sync', 'nope'])).code, 4);
    ok(await run(world, ['feeds', 'add', 'codex']));
    const twice = await run(world, ['feeds', 'add', 'codex']);
    assert.equal(twice.code, 5);
    assert.equal(twice.error().class, 'conflict');
  }));

test('a feed that fails is reported with exit code 6 after the others sync; remove takes it away', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    writeClaudeTranscript({
      projects: world.claudeProjects,
      sessionId: 's1',
      cwd: world.repo,
      lines: [cc.user('Never push on Fridays.')],
    });
    ok(await run(world, ['feeds', 'add', 'claude-code']));
    const broken = join(world.root, 'broken');
    mkdirSync(broken);
    ok(await run(world, ['feeds', 'add', 'folder', '--name', 'notes', '--path', broken]));
    // `feeds add` refuses a file; one that replaces the folder afterwards fails the sync instead.
    rmSync(broken, { recursive: true });
    writeFileSync(broken, 'a file, not a folder');
    const r = await run(world, ['feeds', 'sync', '--all']);
    assert.equal(r.code, 6);
    const reports = r.json().reports as { feed: string; written: number; error: string | null }[];
    assert.deepEqual(
      reports.map((x) => [x.feed, x.written, x.error === null]),
      [
        ['claude-code', 1, true],
        ['notes', 0, false],
      ],
    );
    assert.match(r.error().message, /notes/);
    ok(await run(world, ['feeds', 'remove', 'notes']));
    rmSync(broken);
    assert.equal(ok(await run(world, ['feeds', 'sync', '--all'])).code, 0);
  }));

test('I13 two processes syncing one feed at once write each item once between them', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    const claims: string[] = [];
    for (let i = 0; i < 12; i++) {
      const lines = [
        `We use tool-${i}a for builds.`,
        `Never deploy service-${i} on Fridays.`,
        `I prefer module-${i} over the old one.`,
      ];
      claims.push(...lines);
      writeClaudeTranscript({
        projects: world.claudeProjects,
        sessionId: `s${i}`,
        cwd: world.repo,
        lines: lines.map(cc.user),
      });
    }
    ok(await run(world, ['feeds', 'add', 'claude-code']));
    const [a, b] = await Promise.all([
      run(world, ['feeds', 'sync', '--all']),
      run(world, ['feeds', 'sync', '--all']),
    ]);
    const reports = [ok(a).json().reports[0], ok(b).json().reports[0]];
    assert.equal(
      reports[0].written + reports[1].written,
      claims.length,
      'every claim written by exactly one process',
    );
    assert.equal(
      reports[0].corroborated + reports[1].corroborated,
      0,
      'a repeated item is not corroboration',
    );
    const queue = ok(await run(world, ['review', 'list', '--limit', '200'])).json() as { body: string }[];
    assert.deepEqual(queue.map((m) => m.body).sort(), [...claims].sort());
  }));
