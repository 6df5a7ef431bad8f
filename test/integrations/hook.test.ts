/**
 * `memledger hook claude-code|codex` as the agents run it: a child process with the hook's JSON on stdin. It
 * prints the form the hook expects, skips resumed sessions, injects per prompt only when asked, syncs the
 * finished transcript, and on any failure exits 0, prints nothing and leaves an audit record (I8).
 */
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { DEFAULT_POLICY_DOCUMENT, type Ledger, openLedger, parsePolicy } from '../../src/index.ts';
import { cli } from '../cli/helpers.ts';
import { cc, type World, withWorld, writeClaudeTranscript } from '../feeds/fixtures.ts';

const hookInput = (world: World, fields: Record<string, unknown>) =>
  JSON.stringify({
    session_id: 'session-42',
    transcript_path: join(world.claudeProjects, 'x', 'session-42.jsonl'),
    cwd: world.repo,
    permission_mode: 'default',
    ...fields,
  });

const runHook = (
  world: World,
  agent: string,
  input: string,
  args: string[] = [],
  env: Record<string, string> = {},
) => cli(world.home, ['hook', agent, ...args], { input, env: { HOME: world.userHome, ...env } });

/** Reviewed memories of the repository's project, a held proposal there, and one of another project. */
async function seed(ledger: Ledger): Promise<void> {
  const me = ledger.as(ledger.operator());
  await me.remember({
    body: 'Deploys go through the staging branch first.',
    scope: 'project:acme-api',
    kind: 'preference',
  });
  await me.remember({
    body: 'The invoices table is owned by the billing service.',
    scope: 'project:acme-api',
  });
  const agent = ledger.as(ledger.principal('agent:claude-code'));
  const held = await agent.remember({
    body: 'Staging is deprecated, deploy straight to prod.',
    scope: 'project:acme-api',
  });
  assert.equal(held.state, 'held');
  await me.remember({ body: 'The marketing site deploys from Netlify.', scope: 'project:website' });
}

function additionalContext(stdout: string, event: string): string {
  const parsed = JSON.parse(stdout) as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  assert.deepEqual(Object.keys(parsed), ['hookSpecificOutput']);
  assert.equal(parsed.hookSpecificOutput.hookEventName, event);
  return parsed.hookSpecificOutput.additionalContext;
}

/** The audit, read with the default policy so a broken policy.json cannot hide it. */
async function auditOf(home: string, operation: string) {
  const l = openLedger({ home, policy: parsePolicy(DEFAULT_POLICY_DOCUMENT) });
  try {
    return await l.as(l.operator()).audit({ operation });
  } finally {
    l.close();
  }
}

describe('hook claude-code', () => {
  test("SessionStart prints hookSpecificOutput.additionalContext with the project's reviewed memories only (I3, I4)", () =>
    withWorld(async (world, ledger) => {
      await seed(ledger);
      const r = await runHook(
        world,
        'claude-code',
        hookInput(world, { hook_event_name: 'SessionStart', source: 'startup' }),
      );
      assert.deepEqual([r.code, r.stderr], [0, '']);
      const context = additionalContext(r.stdout, 'SessionStart');
      assert.match(context, /<memledger-context>/);
      assert.match(context, /Deploys go through the staging branch first/);
      assert.match(context, /invoices table is owned by the billing service/);
      assert.doesNotMatch(context, /deploy straight to prod/, 'I3: a held proposal is not shown');
      assert.doesNotMatch(context, /Netlify/, 'I4: another project is not shown');
      const [record] = await ledger.as(ledger.operator()).audit({ operation: 'context', limit: 1 });
      assert.deepEqual(
        [record?.principal, record?.surface, record?.sessionId],
        ['agent:claude-code', 'hook', 'session-42'],
      );
    }));

  test('a resumed session is skipped: nothing printed; control: a cleared one gets context again', () =>
    withWorld(async (world, ledger) => {
      await seed(ledger);
      const resumed = await runHook(
        world,
        'claude-code',
        hookInput(world, { hook_event_name: 'SessionStart', source: 'resume' }),
      );
      assert.deepEqual([resumed.code, resumed.stdout, resumed.stderr], [0, '', '']);
      const cleared = await runHook(
        world,
        'claude-code',
        hookInput(world, { hook_event_name: 'SessionStart', source: 'clear' }),
      );
      assert.match(additionalContext(cleared.stdout, 'SessionStart'), /staging branch/);
    }));

  test('per-prompt injection is opt-in: nothing by default, relevant memories with --per-prompt or the variable', () =>
    withWorld(async (world, ledger) => {
      await seed(ledger);
      const input = hookInput(world, {
        hook_event_name: 'UserPromptSubmit',
        prompt: 'who owns the invoices table?',
      });
      const off = await runHook(world, 'claude-code', input);
      assert.deepEqual([off.code, off.stdout], [0, '']);
      const on = await runHook(world, 'claude-code', input, ['--per-prompt']);
      assert.match(additionalContext(on.stdout, 'UserPromptSubmit'), /billing service/);
      const byEnv = await runHook(
        world,
        'claude-code',
        hookInput(world, {
          hook_event_name: 'UserPromptSubmit',
          prompt: 'who owns the invoices table?',
          session_id: 'other',
        }),
        [],
        { MEMLEDGER_HOOK_PER_PROMPT: '1' },
      );
      assert.match(additionalContext(byEnv.stdout, 'UserPromptSubmit'), /billing service/);
    }));

  test('I8 audit: an internal failure exits 0, prints nothing, and is recorded; control: the same call works once fixed', () =>
    withWorld(async (world, ledger) => {
      await seed(ledger);
      const input = hookInput(world, { hook_event_name: 'SessionStart', source: 'startup' });
      ledger.close();
      writeFileSync(join(world.home, 'policy.json'), '{ this is not json');
      const broken = await runHook(world, 'claude-code', input);
      assert.deepEqual([broken.code, broken.stdout, broken.stderr], [0, '', '']);
      const records = await auditOf(world.home, 'hook.claude-code');
      assert.equal(records.length, 1);
      assert.deepEqual(
        [records[0]?.outcome, records[0]?.failureClass, records[0]?.surface, records[0]?.tool],
        ['error', 'invalid_input', 'hook', 'hook.SessionStart'],
      );
      assert.match(records[0]?.message ?? '', /policy\.json/);
      writeFileSync(join(world.home, 'policy.json'), JSON.stringify(DEFAULT_POLICY_DOCUMENT));
      const fixed = await runHook(world, 'claude-code', input);
      assert.match(additionalContext(fixed.stdout, 'SessionStart'), /staging branch/);
    }));

  test('I8 audit: unreadable transcripts at session end, or input that is not JSON, exit 0 silently with a record', () =>
    withWorld(async (world, ledger) => {
      await ledger.as(ledger.operator()).feedAdd({
        name: 'claude',
        connector: 'claude-code',
        config: { path: world.claudeProjects },
      });
      rmSync(world.claudeProjects, { recursive: true });
      writeFileSync(world.claudeProjects, 'not a directory');
      const end = await runHook(
        world,
        'claude-code',
        hookInput(world, { hook_event_name: 'SessionEnd', reason: 'exit' }),
      );
      assert.deepEqual([end.code, end.stdout, end.stderr], [0, '', '']);
      const garbage = await runHook(world, 'claude-code', '{"hook_event_name": "SessionStart", ');
      assert.deepEqual([garbage.code, garbage.stdout, garbage.stderr], [0, '', '']);
      const records = await ledger.as(ledger.operator()).audit({ operation: 'hook.claude-code' });
      assert.deepEqual(
        records.map((r) => [r.tool, r.failureClass]),
        [
          ['hook.unknown', 'invalid_input'],
          ['hook.SessionEnd', 'upstream'],
        ],
      );
      assert.match((await ledger.as(ledger.operator()).feedGet('claude')).lastError ?? '', /cannot read/);
    }));

  test('a data directory that cannot be opened: exit 0 and silence all the same', () =>
    withWorld(async (world) => {
      const file = join(world.root, 'a-file');
      writeFileSync(file, 'x');
      const r = await cli(join(file, 'memledger'), ['hook', 'claude-code'], {
        input: hookInput(world, { hook_event_name: 'SessionStart', source: 'startup' }),
        env: { HOME: world.userHome },
      });
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
    }));

  test('SessionEnd syncs that transcript and its subagents into review when a claude-code feed exists', () =>
    withWorld(async (world, ledger) => {
      const ended = writeClaudeTranscript({
        projects: world.claudeProjects,
        sessionId: 'ended',
        cwd: world.repo,
        lines: [cc.user('We use pnpm, never npm.')],
      });
      writeClaudeTranscript({
        projects: world.claudeProjects,
        sessionId: 'ended',
        agentId: 'sub1',
        cwd: world.repo,
        lines: [cc.assistant('I chose ripgrep over grep because it respects .gitignore.')],
      });
      writeClaudeTranscript({
        projects: world.claudeProjects,
        sessionId: 'still-running',
        cwd: world.repo,
        lines: [cc.user('Never push on Fridays.')],
      });
      const input = hookInput(world, {
        hook_event_name: 'SessionEnd',
        reason: 'exit',
        transcript_path: ended,
        session_id: 'ended',
      });
      const withoutFeed = await runHook(world, 'claude-code', input);
      assert.deepEqual([withoutFeed.code, withoutFeed.stdout], [0, '']);
      const me = ledger.as(ledger.operator());
      assert.deepEqual(await me.reviewList(), [], 'control: no feed, nothing read');
      await me.feedAdd({ name: 'claude', connector: 'claude-code', config: { path: world.claudeProjects } });
      const r = await runHook(world, 'claude-code', input);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, '', '']);
      assert.deepEqual(
        (await me.reviewList()).map((m) => m.body).sort(),
        ['I chose ripgrep over grep because it respects .gitignore.', 'We use pnpm, never npm.'],
        'the other session is left for its own end (or feeds sync)',
      );
    }));
});

describe('hook codex', () => {
  test('SessionStart prints the JSON form Codex validates; resume is skipped', () =>
    withWorld(async (world, ledger) => {
      await seed(ledger);
      const r = await runHook(
        world,
        'codex',
        hookInput(world, { hook_event_name: 'SessionStart', source: 'startup', model: 'gpt-5-codex' }),
      );
      assert.equal(r.code, 0);
      assert.match(additionalContext(r.stdout, 'SessionStart'), /staging branch/);
      const resumed = await runHook(
        world,
        'codex',
        hookInput(world, { hook_event_name: 'SessionStart', source: 'resume' }),
      );
      assert.equal(resumed.stdout, '');
    }));
});
