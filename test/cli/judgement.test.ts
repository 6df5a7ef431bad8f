/**
 * I7 only humans judge, on the command line: every judging verb refuses the local operator in a coding agent's
 * environment or without a terminal on stdin, and works for a person at a real pseudo-terminal or for a script
 * that presents a human token. `--as human:NAME` names only yourself; doubt stays open to agents.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import { localOperator } from '../../src/policy/identity.ts';
import { AGENT_ENV_MARKERS } from '../../src/surfaces/cli/agent-env.ts';
import { COMMANDS } from '../../src/surfaces/cli/commands/index.ts';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { filesContaining } from '../conformance/helpers.ts';
import { writeWorkspace } from '../workspace/snapshot-helpers.ts';
import {
  BIN,
  type CliResult,
  cleanEnv,
  cli,
  cliInProcess,
  isJudging,
  ok,
  openProbe,
  pty,
  withTempHome,
} from './helpers.ts';

const ME = localOperator().id;
const OTHER = ME === 'ann' ? 'bea' : 'ann';

interface Fixtures {
  active: string;
  held: string;
  heldToo: string;
  subject: string;
  tokenId: string;
  doubted: string;
  rejected: string;
  restoreFile: string;
  targetId: string;
  workspace: string;
  behaviorFile: string;
}

/** One memory or token for each judging verb to act on, written through the library. */
async function seed(home: string): Promise<Fixtures> {
  const ledger = openLedger({ home });
  try {
    const me = ledger.as(ledger.operator());
    const bot = ledger.as(ledger.principal('agent:bot'));
    const active = (await bot.remember({ body: 'The bot lints with biome', scope: 'agent:bot' })).id;
    const held = (await bot.remember({ body: 'Shared proposal one', scope: 'shared' })).id;
    const heldToo = (await bot.remember({ body: 'Shared proposal two', scope: 'shared' })).id;
    await bot.remember({ body: 'The bot builds with tsc', scope: 'agent:bot', key: 'build.tool' });
    await me.remember({ body: 'Deploys happen on Tuesdays', scope: 'shared', key: 'deploy.day' });
    const subject = 'person:zed@example.com';
    await me.remember({ body: 'Zed prefers email', scope: 'shared', subjects: [subject] });
    const doubted = (await bot.remember({ body: 'The bot caches in /tmp', scope: 'agent:bot' })).id;
    await bot.doubt({ id: doubted, reason: 'the cache moved' });
    const rejected = (await bot.remember({ body: 'Shared proposal three', scope: 'shared' })).id;
    await me.reject({ id: rejected, reason: 'not so' });
    await writeWorkspace(ledger, 'agent:bot', 'CREATE TABLE t (id INTEGER PRIMARY KEY, subject TEXT)');
    const restoreFile = join(home, 'restore.jsonl');
    writeFileSync(restoreFile, `${JSON.stringify({ body: 'Restored by a person', scope: 'shared' })}\n`);
    const target = await me.notify('add-webhook', {
      url: 'https://hooks.example.com/seed',
      secretEnv: 'SEED_SECRET',
    });
    const behavior = (name: string) => ({
      name,
      prompt: 'Summarise.',
      triggers: [{ type: 'event' }],
      reads: { scopes: ['shared'] },
      writes: { kinds: ['note'], scopes: ['shared'] },
    });
    await me.behaviors.add(behavior('seeded'));
    const behaviorFile = join(home, 'added.json');
    writeFileSync(behaviorFile, JSON.stringify(behavior('added')));
    const tokens = openTokenStore(home);
    try {
      const tokenId = (await tokens.create({ name: 'old-bot', kind: 'agent' })).id;
      return {
        active,
        held,
        heldToo,
        subject,
        tokenId,
        doubted,
        rejected,
        restoreFile,
        targetId: target.id,
        workspace: 'agent:bot',
        behaviorFile,
      };
    } finally {
      tokens.close();
    }
  } finally {
    ledger.close();
  }
}

/** Every judging verb, with arguments that succeed on a fresh seed. */
function verbs(f: Fixtures): { name: string; args: string[]; operation?: string }[] {
  return [
    { name: 'confirm', args: ['confirm', f.active] },
    { name: 'review approve', args: ['review', 'approve', f.held] },
    { name: 'review reject', args: ['review', 'reject', f.heldToo, '--reason', 'not so'] },
    { name: 'claim', args: ['claim', '--scope', 'agent:bot', '--key', 'build.tool'] },
    { name: 'release', args: ['release', '--scope', 'shared', '--key', 'deploy.day'] },
    { name: 'erase', args: ['erase', '--subject', f.subject, '--yes'] },
    { name: 'token create', args: ['token', 'create', '--name', 'new-bot', '--kind', 'agent'] },
    { name: 'token revoke', args: ['token', 'revoke', f.tokenId] },
    { name: 'trust restore', args: ['trust', 'restore', f.doubted, '--reason', 'checked'] },
    { name: 'review unreject', args: ['review', 'unreject', f.rejected, '--reason', 'it is so after all'] },
    { name: 'workspace reset', args: ['workspace', 'reset', f.workspace] },
    // A behavior decides what agents are handed and may write: only a person with the admin role defines one.
    { name: 'behaviors add', args: ['behaviors', 'add', f.behaviorFile] },
    { name: 'behaviors disable', args: ['behaviors', 'disable', 'seeded'] },
    // A restore brings other people's verdicts: it judges; a plain import does not (checked below).
    { name: 'import --restore', args: ['import', f.restoreFile, '--restore'], operation: 'import' },
    // Notification targets decide who may judge from Slack: configuring them is an admin's judgement too.
    {
      name: 'notify add-webhook',
      args: ['notify', 'add-webhook', 'https://hooks.example.com/new', '--secret-env', 'NEW_SECRET'],
    },
    {
      name: 'notify add-slack',
      args: ['notify', 'add-slack', '--url-env', 'SLACK_URL', '--signing-secret-env', 'SLACK_SIGNING'],
    },
    { name: 'notify remove', args: ['notify', 'remove', f.targetId] },
  ];
}

/** The memory store's state and the token table: what a refused verdict must leave as it was. */
async function everything(home: string): Promise<string> {
  const probe = openProbe(home);
  const tokens = openTokenStore(home);
  try {
    const ledger = openLedger({ home });
    const behaviors = await ledger.store.behaviors.list().finally(() => ledger.close());
    return JSON.stringify({
      state: await probe.state(),
      tokens: tokens.list({ includeRevoked: true }),
      behaviors,
    });
  } finally {
    tokens.close();
    probe.close();
  }
}

/** The effects a successful run of every verb leaves, read through the library. */
async function assertAllJudged(home: string, f: Fixtures, by: string): Promise<void> {
  const ledger: Ledger = openLedger({ home });
  try {
    const me = ledger.as(ledger.operator());
    const confirmed = await me.get(f.active);
    assert.deepEqual([confirmed.trust, confirmed.confirmedBy], ['confirmed', by]);
    assert.equal((await me.get(f.held)).state, 'active');
    assert.equal((await me.get(f.heldToo)).state, 'rejected');
    assert.equal((await ledger.store.claimFor('agent:bot', 'build.tool'))?.owner, by);
    assert.equal(await ledger.store.claimFor('shared', 'deploy.day'), null);
    assert.equal((await me.search({ query: 'Zed prefers email' })).hits.length, 0);
    assert.equal((await me.get(f.doubted)).trust, 'accepted');
    assert.equal(await ledger.store.workspaces.meta(f.workspace), null, 'the workspace was reset');
    assert.equal(
      (
        await ledger
          .as(ledger.principal('agent:bot'))
          .remember({ body: 'Shared proposal three', scope: 'shared' })
      ).state,
      'held',
      'unrejected: the claim is reviewed as any write again',
    );
    assert.equal((await me.search({ query: 'restored by a person' })).hits.length, 1, 'restored');
    const targets = await me.notify('list', {});
    assert.deepEqual(
      targets.map((t) => t.kind).sort(),
      ['slack', 'webhook'],
      'notify added two, removed one',
    );
    assert.ok(!targets.some((t) => t.id === f.targetId), 'notify removed the seeded target');
    assert.equal((await me.behaviors.show('added')).version, 1, 'behavior defined');
    assert.notEqual((await me.behaviors.show('seeded')).disabledAt, null, 'behavior disabled');
    const tokens = openTokenStore(home);
    try {
      const all = await tokens.list({ includeRevoked: true });
      assert.ok(all.find((t) => t.id === f.tokenId)?.revokedAt !== null, 'revoked');
      assert.ok(
        all.some((t) => t.principal === 'agent:new-bot'),
        'created',
      );
    } finally {
      tokens.close();
    }
  } finally {
    ledger.close();
  }
}

/** The newest audit record of an operation, read by the operator. */
async function lastAudit(home: string, operation: string) {
  const ledger = openLedger({ home });
  try {
    return (await ledger.as(ledger.operator()).audit({ operation, limit: 1 }))[0];
  } finally {
    ledger.close();
  }
}

const expectRefused = (r: CliResult, what: string): { class: string; message: string } => {
  assert.equal(r.code, EXIT_CODES.permission, `${what}: exit ${r.code}\n${r.stdout}${r.stderr}`);
  const error = r.error();
  assert.equal(error.class, 'permission', what);
  return error;
};

test('I7 the judging verbs are the verdicts, claims, erasure, token management, trust restore and notification targets', async () => {
  const judging: string[] = [];
  for (const entry of COMMANDS) if (await isJudging(entry.name.split(' '))) judging.push(entry.name);
  const expected = verbs({
    active: '',
    held: '',
    heldToo: '',
    subject: '',
    tokenId: '',
    doubted: '',
    rejected: '',
    restoreFile: '',
    targetId: '',
    workspace: '',
    behaviorFile: '',
  }).filter((v) => v.operation === undefined);
  assert.deepEqual(judging.sort(), expected.map((v) => v.name).sort());
  assert.ok(!(await isJudging(['doubt'])), 'doubt only lowers trust: agents may run it');
  assert.ok(await isJudging(['import', 'f.jsonl', '--restore']), 'a restore brings verdicts: it judges');
  assert.ok(!(await isJudging(['import', 'f.jsonl'])), 'a plain import is new writes by the importer');
});

test('I7 every judging verb is refused in every agent environment, even at a terminal: exit 3, nothing written, audited', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    const before = await everything(home);
    const environments = [
      ...AGENT_ENV_MARKERS.map((m) => ({ variable: m.variable.replace(/\*$/, 'MODEL'), as: [] as string[] })),
      // A process configured as an agent is one, whoever it then claims to be.
      { variable: 'MEMLEDGER_PRINCIPAL', as: ['--as', `human:${ME}`] },
    ];
    for (const { variable, as } of environments) {
      const value = variable === 'MEMLEDGER_PRINCIPAL' ? 'agent:bot' : 'value-zq81-secretish';
      for (const verb of verbs(f)) {
        const what = `${verb.name} with ${variable}`;
        const r = await cliInProcess(home, [...verb.args, ...as, '--json'], {
          env: { [variable]: value },
          terminal: true,
          humanToken: false,
        });
        const error = expectRefused(r, what);
        assert.match(error.message, /refuses verdicts from an agent environment/, what);
        assert.ok(error.message.includes(`${variable} is set`), `${what}: names the variable`);
        assert.ok(!error.message.includes(value), `${what}: never its value`);
        assert.match(error.message, /--token/, `${what}: says what to do instead`);
        const record = await lastAudit(home, verb.operation ?? verb.name.replace(' ', '.'));
        assert.deepEqual(
          [record?.outcome, record?.failureClass, record?.principal],
          ['error', 'permission', `human:${ME}`],
          what,
        );
        assert.ok(record?.message?.includes(`${variable} is set`), `${what}: the audit keeps why`);
      }
    }
    assert.equal(await everything(home), before, 'nothing was written by any refused verdict');
  }));

test('I7 every judging verb is refused from a non-interactive stdin, as the defect report ran it', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    const before = await everything(home);
    for (const verb of verbs(f)) {
      const r = await cli(home, [...verb.args, '--json'], { humanToken: false });
      const error = expectRefused(r, verb.name);
      assert.match(error.message, /refuses verdicts from a non-interactive stdin/, verb.name);
      const record = await lastAudit(home, verb.operation ?? verb.name.replace(' ', '.'));
      assert.deepEqual([record?.outcome, record?.failureClass], ['error', 'permission'], verb.name);
    }
    // `CLAUDECODE=1 memledger review approve ID </dev/null`, exactly.
    const line = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BIN, 'review', 'approve', f.held, '--home', home], {
        env: cleanEnv({ CLAUDECODE: '1' }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => {
        stderr += b.toString();
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stderr }));
    });
    assert.equal(line.code, EXIT_CODES.permission);
    assert.match(line.stderr, /agent environment \(CLAUDECODE is set/);
    assert.equal(await everything(home), before);
  }));

test('I7 control: every judging verb works for a person in a real pseudo-terminal (script -qec)', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    for (const verb of verbs(f)) ok(await pty(home, [...verb.args, '--json']), `${verb.name} at a terminal`);
    await assertAllJudged(home, f, `human:${ME}`);
  }));

test('I7 control: a script acting for a person passes a human token, which works in an agent environment without a terminal', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    const tokens = openTokenStore(home);
    const ann = await tokens.create({
      name: OTHER,
      kind: 'human',
      roles: ['reader', 'writer', 'reviewer', 'admin'],
      grants: ['*:rw'],
    });
    tokens.close();
    for (const [i, verb] of verbs(f).entries()) {
      // Alternate the flag and the variable: both are the same credential.
      const byFlag = i % 2 === 0;
      const r = await cli(home, [...verb.args, ...(byFlag ? ['--token', ann.secret] : []), '--json'], {
        env: {
          CLAUDECODE: '1',
          CLAUDE_CODE_ENTRYPOINT: 'cli',
          ...(byFlag ? {} : { MEMLEDGER_TOKEN: ann.secret }),
        },
      });
      ok(r, `${verb.name} with a human token`);
    }
    await assertAllJudged(home, f, `human:${OTHER}`);
    const record = await lastAudit(home, 'review.approve');
    assert.deepEqual([record?.principal, record?.tokenId], [`human:${OTHER}`, ann.id]);
    assert.deepEqual(
      filesContaining(home, ann.secret),
      [],
      'the secret is in no file of the home, audit included',
    );
  }));

test('I7 --as human:other is refused even at a terminal; --as human:$USER is just the operator', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    const before = await everything(home);
    const other = await pty(home, ['review', 'approve', f.held, '--as', `human:${OTHER}`, '--json']);
    assert.match(
      expectRefused(other, '--as human:other').message,
      /acting as another person needs their token/,
    );
    const viaEnv = await pty(home, ['confirm', f.active, '--json'], {
      env: { MEMLEDGER_PRINCIPAL: `human:${OTHER}` },
    });
    expectRefused(viaEnv, 'MEMLEDGER_PRINCIPAL=human:other');
    // Not only for verdicts: no command signs as another person.
    const write = await cliInProcess(home, [
      'remember',
      'Signed as someone else',
      '--as',
      `human:${OTHER}`,
      '--json',
    ]);
    expectRefused(write, 'remember --as human:other');
    const feed = await cliInProcess(home, [
      'feeds',
      'add',
      'folder',
      '--path',
      home,
      '--principal',
      `human:${OTHER}`,
      '--json',
    ]);
    expectRefused(feed, 'a feed writing as another person');
    assert.equal(await everything(home), before);
    // Yourself by name: the same operator, who still needs a terminal for a verdict.
    const bare = await cli(home, ['review', 'approve', f.held, '--as', `human:${ME}`, '--json']);
    assert.match(expectRefused(bare, 'no terminal').message, /non-interactive stdin/);
    ok(await pty(home, ['review', 'approve', f.held, '--as', `human:${ME}`, '--json']), 'as yourself');
    const ledger = openLedger({ home });
    try {
      assert.equal((await ledger.as(ledger.operator()).get(f.held)).confirmedBy, `human:${ME}`);
    } finally {
      ledger.close();
    }
  }));

test('I7 an agent token is refused verdicts by the library; a revoked or unknown token is refused before anything runs', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    const tokens = openTokenStore(home);
    const bot = await tokens.create({ name: 'bot', kind: 'agent', grants: ['agent:{self}:rw', 'shared:rw'] });
    const gone = await tokens.create({ name: OTHER, kind: 'human', roles: ['reviewer'], grants: ['*:rw'] });
    await tokens.revoke(gone.id);
    tokens.close();
    const before = await everything(home);
    const asAgent = await pty(home, ['review', 'approve', f.held, '--token', bot.secret, '--json']);
    assert.match(
      expectRefused(asAgent, 'agent token').message,
      /only a human may approve a write; agent:bot is an agent/,
    );
    const revoked = await cli(home, ['review', 'approve', f.held, '--json'], {
      env: { MEMLEDGER_TOKEN: gone.secret },
    });
    assert.match(
      expectRefused(revoked, 'revoked token').message,
      /^MEMLEDGER_TOKEN: token tok_\w+ was revoked/,
    );
    const unknown = `mlk_${'z'.repeat(43)}`;
    const r = await cli(home, ['confirm', f.active, '--token', unknown, '--json']);
    assert.match(expectRefused(r, 'unknown token').message, /^--token: the bearer token is unknown/);
    assert.ok(!r.stderr.includes(unknown), 'the secret is never echoed');
    const both = await cli(home, ['confirm', f.active, '--token', bot.secret, '--as', 'agent:bot', '--json']);
    assert.equal(both.code, EXIT_CODES.invalid_input);
    assert.equal(await everything(home), before);
    const audited = await lastAudit(home, 'confirm');
    assert.ok(!JSON.stringify(audited).includes('z'.repeat(43)), 'the refused token is not in the audit');
  }));

test('I7 doubt is open to agents, at no terminal and in an agent environment; restoring trust is not', () =>
  withTempHome(async (home) => {
    const f = await seed(home);
    const doubted = ok(
      await cli(
        home,
        ['doubt', f.active, '--reason', 'the lint config changed', '--as', 'agent:bot', '--json'],
        {
          env: { CLAUDECODE: '1' },
        },
      ),
    ).json();
    assert.deepEqual([doubted.state, doubted.trust, doubted.previous], ['active', 'unverified', 'accepted']);
    const again = ok(
      await cli(home, ['doubt', f.active, '--reason', 'still', '--json'], {
        env: { CODEX_SANDBOX: 'seatbelt' },
      }),
    );
    assert.match(again.stdout, /already unverified/);
    const refused = await cli(home, ['trust', 'restore', f.active, '--reason', 'fine', '--json'], {
      env: { CLAUDECODE: '1' },
      humanToken: false,
    });
    expectRefused(refused, 'trust restore in an agent environment');
    const listed = ok(await cliInProcess(home, ['search', 'biome', '--json'])).json();
    assert.equal(listed.hits[0]?.memory.id, f.active, 'control: a doubted memory is still found');
    const restored = ok(await pty(home, ['trust', 'restore', f.active, '--reason', 'fine']));
    assert.match(restored.stdout, /accepted \(was unverified\)/);
  }));

test('I7 the demo gives its verdicts only in its own new home, so it runs in CI and under an agent without a token', () =>
  withTempHome(async (home) => {
    const steps = ok(await cli(home, ['demo', '--json'], { env: { CLAUDECODE: '1' } })).json().steps;
    assert.equal(steps[5].data.state, 'rejected', 'its own rejection landed');
    await withTempHome(async (tokensOnly) => {
      writeFileSync(join(tokensOnly, 'auth.db'), '');
      const r = await cli(tokensOnly, ['demo', '--json']);
      assert.equal(r.code, EXIT_CODES.invalid_input, 'never into a home that holds a ledger or its tokens');
    });
  }));
