/**
 * A feed sync that fails is audited as a failure with its class and counts (I8): `upstream` for the source (a
 * folder gone, a write the store could not make), `invalid_input` for damaged source data, `internal` for our
 * bugs; `audit --failures` lists it and the CLI exits with the class. A healthy sync is audited as ok. And
 * `feeds add` refuses a folder that is not there, a file, or one it cannot read, adding nothing.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { syncFeed, type Writer } from '../../src/feeds/sync.ts';
import { type AuditRecord, MemoryError, openLedger } from '../../src/index.ts';
import { cli, ok } from '../cli/helpers.ts';
import { cc, type World, withWorld, writeClaudeTranscript } from './fixtures.ts';

const run = (world: World, args: string[]) =>
  cli(world.home, [...args, '--json'], { env: { HOME: world.userHome } });

/** The `feeds.sync` records, oldest first, read through a ledger opened for the purpose. */
async function syncRecords(home: string): Promise<AuditRecord[]> {
  const ledger = openLedger({ home });
  try {
    return (await ledger.as(ledger.operator()).audit({ operation: 'feeds.sync' })).reverse();
  } finally {
    ledger.close();
  }
}

const summary = (r: AuditRecord) => [(r.argsPreview as { name?: string }).name, r.outcome, r.failureClass];

function transcript(world: World, sessionId: string, claims: string[]): string {
  return writeClaudeTranscript({
    projects: world.claudeProjects,
    sessionId,
    cwd: world.repo,
    lines: claims.map(cc.user),
  });
}

test('I8 audit: a feed whose folder was removed fails upstream, audited with its counts and listed by audit --failures; exit 6', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    transcript(world, 's1', ['We use pnpm, never npm.']);
    const notes = join(world.root, 'notes');
    mkdirSync(notes);
    writeFileSync(join(notes, 'AGENTS.md'), '- Always run the linter before pushing.\n');
    ok(await run(world, ['feeds', 'add', 'claude-code']));
    ok(await run(world, ['feeds', 'add', 'folder', '--name', 'notes', '--path', notes]));
    ok(await run(world, ['feeds', 'sync', '--all']));
    rmSync(notes, { recursive: true });
    transcript(world, 's2', ['Never commit directly to main.']);

    const r = await run(world, ['feeds', 'sync', '--all']);
    assert.equal(r.code, 6, r.stderr);
    assert.equal(r.error().class, 'upstream');
    const reports = r.json().reports as { feed: string; written: number; errorClass: string | null }[];
    assert.deepEqual(
      reports.map((x) => [x.feed, x.written, x.errorClass]),
      [
        ['claude-code', 1, null],
        ['notes', 0, 'upstream'],
      ],
      'control: the healthy feed synced in the same run',
    );

    const records = await syncRecords(world.home);
    assert.deepEqual(records.map(summary), [
      ['claude-code', 'ok', null],
      ['notes', 'ok', null],
      ['claude-code', 'ok', null],
      ['notes', 'error', 'upstream'],
    ]);
    const gone = records.at(-1)!;
    assert.match(gone.message ?? '', /folder .*notes is gone/);
    assert.deepEqual(gone.argsPreview, {
      name: 'notes',
      read: 0,
      written: 0,
      failed: 0,
      refused: 0,
      duplicates: 0,
      skipped: 0,
      stopped: true,
    });
    assert.deepEqual(
      (records.at(-2)!.argsPreview as { read: number; written: number }).written,
      1,
      'the ok record counts what it wrote',
    );
    const failures = ok(await run(world, ['audit', '--failures'])).json().failures as {
      operation: string;
      failureClass: string;
      count: number;
    }[];
    assert.deepEqual(
      failures.filter((f) => f.operation === 'feeds.sync').map((f) => [f.failureClass, f.count]),
      [['upstream', 1]],
    );
  }));

test('I8 audit: lines that are not JSON are passed over, the rest is read, and the sync is audited invalid_input with the count; exit 2', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    const path = transcript(world, 's1', ['We use pnpm, never npm.']);
    appendFileSync(path, '{"type":"user","message": {"role": "user", "content": "We always\n');
    appendFileSync(
      path,
      `${JSON.stringify({ ...cc.user('Never push on Fridays.'), uuid: 'late-1', sessionId: 's1', cwd: world.repo })}\n`,
    );
    ok(await run(world, ['feeds', 'add', 'claude-code']));

    const r = await run(world, ['feeds', 'sync', 'claude-code']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.error().class, 'invalid_input');
    const [report] = r.json().reports as { written: number; malformed: number; stopped: boolean }[];
    assert.deepEqual(
      [report!.written, report!.malformed, report!.stopped],
      [2, 1, false],
      'the lines around it were read',
    );
    const [record] = (await syncRecords(world.home)).slice(-1);
    assert.deepEqual(summary(record!), ['claude-code', 'error', 'invalid_input']);
    assert.deepEqual(
      [(record!.argsPreview as { read: number }).read, (record!.argsPreview as { failed: number }).failed],
      [2, 1],
    );
    assert.ok(!JSON.stringify(record).includes('We always'), 'no transcript text in the record');

    // Reading the damaged line again cannot mend it: the checkpoint is past it, and the next sync is clean.
    const again = ok(await run(world, ['feeds', 'sync', 'claude-code'])).json();
    assert.deepEqual([again.reports[0].entries, again.reports[0].errorClass], [0, null]);
    assert.deepEqual(summary((await syncRecords(world.home)).at(-1)!), ['claude-code', 'ok', null]);
  }));

test('I8 audit: a sync stopped by a failed write is audited upstream with what it did; our own bug is audited internal', () =>
  withWorld(async (world, ledger) => {
    transcript(world, 'a-session', ['We use pnpm, never npm.']);
    transcript(world, 'b-session', ['Always run the linter before pushing.']);
    const me = ledger.as(ledger.operator());
    await me.feedAdd({ name: 'claude', connector: 'claude-code', config: { path: world.claudeProjects } });
    const writer =
      (failure: Error): Writer =>
      (input, ctx) => {
        if (input.body.startsWith('Always')) throw failure;
        return ledger.as(ledger.principal('agent:claude-code'), ctx).remember(input);
      };
    const busy = await syncFeed(ledger, me, 'claude', {
      writer: writer(new MemoryError('upstream', 'the data directory is busy')),
    });
    assert.deepEqual([busy.errorClass, busy.stopped, busy.written], ['upstream', true, 1]);
    const bug = await syncFeed(ledger, me, 'claude', { writer: writer(new TypeError('x is undefined')) });
    assert.deepEqual([bug.errorClass, bug.stopped, bug.written], ['internal', true, 0]);
    const fixed = await syncFeed(ledger, me, 'claude');
    assert.deepEqual(
      [fixed.errorClass, fixed.written],
      [null, 1],
      'control: the resumed sync writes the rest once',
    );

    const records = (await syncRecords(world.home)).map((r) => [
      r.outcome,
      r.failureClass,
      (r.argsPreview as { written: number }).written,
      (r.argsPreview as { stopped: boolean }).stopped,
    ]);
    assert.deepEqual(records, [
      ['error', 'upstream', 1, true],
      ['error', 'internal', 0, true],
      ['ok', null, 1, false],
    ]);
  }));

test('feeds add refuses a folder that does not exist, a file, or one it cannot read, naming the problem; nothing is added', () =>
  withWorld(async (world, ledger) => {
    ledger.close();
    const file = join(world.root, 'notes.md');
    writeFileSync(file, '- a note\n');
    const cases: [string[], RegExp][] = [
      [['folder', '--path', join(world.root, 'nowhere')], /feed path .*nowhere does not exist/],
      [['folder', '--path', file], /feed path .*notes\.md is a file; a folder feed reads a folder/],
      [['codex'], /feed path .*\.codex\/sessions does not exist/],
    ];
    const locked = join(world.root, 'locked');
    mkdirSync(locked, { mode: 0o000 });
    // root reads any folder, so the unreadable case can only be shown as another user.
    if (process.getuid?.() !== 0)
      cases.push([['folder', '--path', locked], /feed path .*locked is not readable/]);
    rmSync(world.codexSessions, { recursive: true });
    for (const [args, message] of cases) {
      const r = await run(world, ['feeds', 'add', ...args, '--name', 'x']);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.deepEqual(
        [r.error().class, message.test(r.error().message)],
        ['invalid_input', true],
        r.error().message,
      );
    }
    assert.deepEqual(ok(await run(world, ['feeds', 'list'])).json().feeds, [], 'nothing was added');
    const refusals = ok(await run(world, ['audit', '--operation', 'feeds.add'])).json()
      .records as AuditRecord[];
    assert.equal(refusals.length, cases.length, 'each refusal is audited');
    assert.ok(refusals.every((x) => x.outcome === 'error' && x.failureClass === 'invalid_input'));

    const control = ok(await run(world, ['feeds', 'add', 'folder', '--path', world.repo])).json();
    assert.equal(control.config.path, world.repo, 'control: a readable folder is added');
  }));
