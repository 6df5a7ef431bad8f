/** The CLI end to end, as a user runs it: every verb through the real executable on a fresh home each test. */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { cli, cliInProcess, ok, snapshot, withTempHome } from './helpers.ts';

// Actions run the executable; many checks of the state they left run the same `runCli` in this process,
// which keeps the suite quick on two cores without changing what is checked.
const look = cliInProcess;

const NO_MEMORY = 'mem_0000000000000000000000';

/** `remember` with `--json`, returning the WriteResult; through the executable when `spawned`. */
async function remember(
  home: string,
  text: string,
  args: string[] = [],
  env?: Record<string, string>,
  spawned = false,
) {
  const run = spawned ? cli : look;
  return ok(await run(home, ['remember', text, ...args, '--json'], { env }), `remember ${text}`).json();
}

test('init creates the home and is idempotent; help lists every command', () =>
  withTempHome(async (home) => {
    const first = ok(await cli(home, ['init']));
    assert.match(first.stdout, /created/);
    assert.match(first.stdout, /policy\.json/);
    const again = ok(await look(home, ['init', '--json'])).json();
    assert.equal(again.created, false, 'the second init finds the home');
    assert.equal(again.home, home);
    assert.deepEqual(
      again.files.map((f: { path: string }) => f.path.split('/').at(-1)),
      ['memory.db', 'audit.db', 'policy.json'],
    );
    const help = ok(await cli(home, ['help']));
    for (const name of ['remember', 'review approve', 'erase', 'audit', 'demo'])
      assert.match(help.stdout, new RegExp(name));
    assert.match(ok(await look(home, ['help', 'review', 'approve'])).stdout, /--body/);
  }));

test('I3 current means current: supersede by key and by --supersedes; search, get and list return the current version', () =>
  withTempHome(async (home) => {
    const pro = await remember(
      home,
      'Acme is on the Pro plan',
      ['--key', 'acme.plan', '--subject', 'company:acme'],
      undefined,
      true,
    );
    assert.equal(pro.state, 'active');
    const human = ok(await cli(home, ['remember', 'Deploys are frozen on Fridays', '--kind', 'decision']));
    assert.match(human.stdout, /^mem_\w{22}\s+active/);

    const found = ok(await cli(home, ['search', 'acme plan']));
    assert.match(found.stdout, /id\s+scope\s+kind\s+trust\s+score\s+body/, 'a readable table');
    assert.ok(found.stdout.includes(pro.id) && found.stdout.includes('Acme is on the Pro plan'));

    const enterprise = await remember(home, 'Acme moved to the Enterprise plan', ['--key', 'acme.plan']);
    assert.equal(enterprise.supersedes, pro.id, 'writing the key supersedes its holder');
    const hits = ok(await cli(home, ['search', 'acme plan', '--json'])).json().hits;
    assert.deepEqual(
      hits.map((h: { memory: { id: string } }) => h.memory.id),
      [enterprise.id],
      'only the current version is found',
    );

    const card = await remember(home, 'Acme pays by card');
    const wire = await remember(home, 'Acme pays by wire transfer', ['--supersedes', card.id]);
    assert.equal(wire.supersedes, card.id);

    const old = ok(await look(home, ['get', pro.id, '--json'])).json();
    assert.equal(old.state, 'superseded');
    assert.equal(old.supersededBy, enterprise.id);
    const shown = ok(await cli(home, ['get', pro.id])).stdout;
    assert.match(shown, /superseded by\s+mem_/);
    assert.match(shown, /recorded\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ by human:/);

    const current = ok(await cli(home, ['list', '--json']))
      .json()
      .map((m: { id: string }) => m.id);
    assert.ok(
      current.includes(enterprise.id) && current.includes(wire.id),
      'control: current versions are listed',
    );
    assert.ok(!current.includes(pro.id) && !current.includes(card.id), 'superseded versions are not');
    const superseded = ok(await look(home, ['list', '--state', 'superseded', '--json'])).json();
    assert.deepEqual(superseded.map((m: { id: string }) => m.id).sort(), [pro.id, card.id].sort());

    // I12: as of the moment the Pro plan landed, it was what we believed.
    const asOf = ok(await look(home, ['search', 'acme plan', '--as-of', old.activeFrom, '--json'])).json();
    assert.deepEqual(
      asOf.hits.map((h: { memory: { id: string } }) => h.memory.id),
      [pro.id],
    );

    const retracted = ok(
      await cli(home, ['retract', wire.id, '--reason', 'we stopped invoicing Acme', '--json']),
    ).json();
    assert.equal(retracted.state, 'retracted');
    const pays = ok(await look(home, ['search', 'pays', '--json'])).json().hits;
    assert.equal(pays.length, 0, 'a retracted memory is no longer found');
  }));

test('history reads the same chain from either end, oldest first, with both clocks and every event', () =>
  withTempHome(async (home) => {
    const first = await remember(home, 'The office is in Leeds', [
      '--key',
      'office.city',
      '--valid-from',
      '2020-01-01',
    ]);
    const second = await remember(home, 'The office moved to York', [
      '--key',
      'office.city',
      '--valid-from',
      '2024-06-01',
    ]);
    const fromOld = ok(await look(home, ['history', first.id, '--json'])).json();
    const fromNew = ok(await look(home, ['history', second.id, '--json'])).json();
    const ids = (h: { versions: { id: string }[] }) => h.versions.map((v) => v.id);
    assert.deepEqual(ids(fromOld), [first.id, second.id]);
    assert.deepEqual(ids(fromNew), ids(fromOld));
    assert.equal(fromOld.current, second.id);
    assert.deepEqual(
      fromOld.events.map((e: { type: string }) => e.type),
      // The first write to a key claims it for the person who wrote it; the second, by the same person, keeps it.
      ['appended', 'claimed', 'superseded', 'appended'],
    );
    const text = ok(await cli(home, ['history', second.id])).stdout;
    const versions = text.slice(text.indexOf('versions, oldest first'));
    assert.ok(versions.indexOf(first.id) < versions.indexOf(second.id), 'versions oldest first');
    assert.match(text, /valid from 2020-01-01 00:00:00Z/);
    assert.match(text, /recorded \d{4}-/);
    assert.match(text, /superseded\s+mem_\w+\s+by=/);
    const missing = await look(home, ['history', NO_MEMORY, '--json']);
    assert.equal(missing.code, EXIT_CODES.not_found);
  }));

test('I5 I6 I7 review: held agent writes are listed, approved with edits, rejected; the rejected claim stays rejected from another session', () =>
  withTempHome(async (home) => {
    const owner = await remember(home, 'Acme is on the Pro plan', ['--key', 'acme.plan']);
    const agent = ['--as', 'agent:bot'];
    const launch = await remember(
      home,
      'The launch is on May 3',
      [...agent, '--scope', 'shared'],
      { MEMLEDGER_SESSION_ID: 'session-1' },
      true,
    );
    assert.equal(launch.state, 'held', 'I6: an agent write to shared waits for review');
    assert.match(launch.reason, /review/);
    const free = await remember(
      home,
      'Acme is on the Free plan',
      [...agent, '--scope', 'shared', '--key', 'acme.plan'],
      { MEMLEDGER_SESSION_ID: 'session-1' },
      true,
    );
    assert.equal(free.state, 'held', 'I6: an agent write to a human-owned key is held');
    const own = await remember(home, 'I keep notes in Markdown', agent);
    assert.equal(own.state, 'active', 'control: an agent lands in its own scope by default');
    assert.equal(ok(await look(home, ['get', own.id, '--json'])).json().scope, 'agent:bot');

    const queue = ok(await look(home, ['review', 'list', '--json'])).json();
    assert.deepEqual(queue.map((m: { id: string }) => m.id).sort(), [launch.id, free.id].sort());
    const table = ok(await cli(home, ['review', 'list'])).stdout;
    assert.match(table, /proposed by/);
    assert.match(table, /agent:bot\s+agent-elsewhere-held\s+The launch is on May 3/);
    assert.equal((await look(home, ['review', 'list', ...agent, '--json'])).code, EXIT_CODES.permission);

    // Approve with an edit: the edited version lands, the proposal stays in its history.
    const edited = ok(
      await cli(home, [
        'review',
        'approve',
        launch.id,
        '--body',
        'The launch is on May 5',
        '--note',
        'checked the calendar',
        '--json',
      ]),
    ).json();
    assert.notEqual(edited.id, launch.id);
    assert.equal(edited.state, 'active');
    const landed = ok(await look(home, ['get', edited.id, '--json'])).json();
    assert.equal(landed.body, 'The launch is on May 5');
    assert.equal(landed.editOf, launch.id);
    const chain = ok(await look(home, ['history', launch.id, '--json'])).json();
    const proposal = chain.versions.find((v: { id: string }) => v.id === launch.id);
    assert.equal(proposal.body, 'The launch is on May 3', 'the original stays in history');
    assert.equal(proposal.state, 'superseded');
    assert.equal(chain.current, edited.id);

    const reason = 'Acme is on Pro; billing confirmed it';
    const rejected = ok(await cli(home, ['review', 'reject', free.id, '--reason', reason, '--json'])).json();
    assert.equal(rejected.state, 'rejected');

    // I5: the same claim, worded a little differently, from another session, lands as rejected and says why.
    const again = await remember(
      home,
      'acme is on the FREE plan!',
      [...agent, '--scope', 'shared', '--key', 'acme.plan'],
      { MEMLEDGER_SESSION_ID: 'session-2' },
      true,
    );
    assert.equal(again.state, 'rejected');
    assert.ok(again.reason.includes(reason), again.reason);
    assert.equal(ok(await look(home, ['get', again.id, '--json'])).json().provenance.sessionId, 'session-2');
    const told = ok(
      await cli(
        home,
        ['remember', 'Acme is on the free plan', ...agent, '--scope', 'shared', '--key', 'acme.plan'],
        {
          env: { MEMLEDGER_SESSION_ID: 'session-3' },
        },
      ),
    );
    assert.match(told.stdout, /rejected/);
    assert.ok(told.stdout.includes(reason), 'the human output gives the reason too');
    const current = ok(await look(home, ['search', 'acme plan', '--json'])).json().hits;
    assert.deepEqual(
      current.map((h: { memory: { id: string } }) => h.memory.id),
      [owner.id],
    );

    // confirm: a person vouches for the agent's own note; only a person can.
    assert.equal((await look(home, ['confirm', own.id, ...agent, '--json'])).code, EXIT_CODES.permission);
    ok(await cli(home, ['confirm', own.id]));
    assert.equal(ok(await look(home, ['get', own.id, '--json'])).json().trust, 'confirmed');
    const late = await look(home, ['confirm', free.id, '--json']);
    assert.equal(late.code, EXIT_CODES.conflict, 'a rejected memory cannot be confirmed');
    assert.equal(late.error().class, 'conflict');
  }));

test('I9 erasure is real: refused without --yes; then gone from search and from every file in the home', () =>
  withTempHome(async (home) => {
    const subject = 'person:alice@example.com';
    const first = await remember(home, 'Alice Zebracorn prefers email', ['--subject', subject]);
    // A later version that forgot to name the subject is still erased: it is the same memory's history.
    await remember(home, 'Alice Zebracorn moved to Lisbon', ['--supersedes', first.id]);
    await remember(home, 'Bob Quokkaful drinks green tea', ['--subject', 'person:bob@example.com']);

    const refused = await cli(home, ['erase', '--subject', subject, '--json']);
    assert.equal(refused.code, EXIT_CODES.invalid_input);
    assert.match(refused.error().message, /--yes/);
    assert.equal(
      ok(await look(home, ['search', 'zebracorn', '--json'])).json().hits.length,
      1,
      'nothing was erased',
    );

    const erased = ok(await cli(home, ['erase', '--subject', subject, '--yes', '--json'])).json();
    assert.equal(erased.erased, 2);
    assert.equal(erased.checkpointed, true);
    assert.match(
      ok(await look(home, ['erase', '--subject', 'person:carol@example.com', '--yes'])).stdout,
      /erased 0 versions/,
    );

    assert.equal(ok(await look(home, ['search', 'zebracorn', '--json'])).json().hits.length, 0);
    assert.equal(ok(await look(home, ['search', 'quokkaful', '--json'])).json().hits.length, 1, 'control');
    const tomb = ok(await look(home, ['get', first.id, '--json'])).json();
    assert.equal(tomb.state, 'erased');
    assert.equal(tomb.body, '');

    // The bytes: no file in the home (databases, write-ahead logs, audit, policy) holds the erased text.
    let control = 0;
    for (const name of readdirSync(home)) {
      const bytes = readFileSync(join(home, name)).toString('latin1').toLowerCase();
      assert.ok(!bytes.includes('zebracorn'), `${name} still holds the erased text`);
      assert.ok(!bytes.includes('alice@example.com'), `${name} still holds the erased subject`);
      if (bytes.includes('quokkaful')) control++;
    }
    assert.ok(control > 0, 'control: the text that was not erased is on disk');
  }));

test('I9 erase --principal: --preview shows what would go and changes nothing; --yes takes exactly that agent’s writes', () =>
  withTempHome(async (home) => {
    await remember(home, 'Scout saw the wombatine', ['--as', 'agent:scout'], undefined, true);
    await remember(
      home,
      'Scout heard the wombatine',
      ['--as', 'agent:scout', '--scope', 'shared'],
      undefined,
      true,
    );
    await remember(home, 'People call it the wombatine', ['--scope', 'shared']);
    const preview = ok(
      await cli(home, ['erase', '--principal', 'agent:scout', '--preview', '--json']),
    ).json();
    assert.deepEqual([preview.selector, preview.total], ['principal', 2]);
    assert.match(
      ok(await look(home, ['erase', '--principal', 'agent:scout', '--preview'])).stdout,
      /nothing was erased/,
    );
    assert.equal(
      ok(await look(home, ['list', '--state', 'held', '--state', 'active', '--json'])).json().length,
      3,
    );
    const two = await cli(home, [
      'erase',
      '--principal',
      'agent:scout',
      '--session',
      's1',
      '--yes',
      '--json',
    ]);
    assert.equal(two.code, EXIT_CODES.invalid_input, 'exactly one selector');
    const erased = ok(await cli(home, ['erase', '--principal', 'agent:scout', '--yes', '--json'])).json();
    assert.deepEqual([erased.selector, erased.erased, erased.checkpointed], ['principal', 2, true]);
    const left = ok(await look(home, ['list', '--state', 'held', '--state', 'active', '--json'])).json();
    assert.deepEqual(
      left.map((m: { body: string }) => m.body),
      ['People call it the wombatine'],
      'control: the person’s memory stays',
    );
  }));

test('I8 everything is audited: allowed and refused calls, with their class; --failures counts them', () =>
  withTempHome(async (home) => {
    const kept = await remember(home, 'The audit never holds this sentence');
    const refusedAgent = await cli(home, ['review', 'approve', kept.id, '--as', 'agent:bot', '--json']);
    assert.equal(refusedAgent.code, EXIT_CODES.permission);
    assert.equal(
      (await cli(home, ['erase', '--subject', 'person:x@example.com'])).code,
      EXIT_CODES.invalid_input,
    );
    assert.equal((await cli(home, ['remember', 'text', '--bogus'])).code, EXIT_CODES.invalid_input);
    assert.equal((await look(home, ['get', '../../etc/passwd'])).code, EXIT_CODES.invalid_input);

    const records = ok(await cli(home, ['audit', '--json'])).json().records;
    const seen = (op: string, outcome: string, cls: string | null, principal?: string) =>
      records.filter(
        (r: { operation: string; outcome: string; failureClass: string | null; principal: string }) =>
          r.operation === op &&
          r.outcome === outcome &&
          r.failureClass === cls &&
          (principal === undefined || r.principal === principal),
      ).length;
    assert.equal(seen('remember', 'ok', null), 1, 'control: the allowed write');
    assert.equal(seen('review.approve', 'error', 'permission', 'agent:bot'), 1, 'the refused approval, once');
    assert.equal(seen('erase', 'error', 'invalid_input'), 1, 'erase without --yes, refused by the CLI, once');
    assert.equal(seen('remember', 'error', 'invalid_input'), 1, 'an unknown option, refused before any call');
    assert.equal(seen('get', 'error', 'invalid_input'), 1, 'a path-shaped id');
    assert.ok(records.every((r: { surface: string }) => r.surface === 'cli'));
    assert.ok(!JSON.stringify(records).includes('never holds this'), 'no memory content in the audit');

    const table = ok(await cli(home, ['audit'])).stdout;
    assert.match(table, /time\s+principal\s+surface\s+operation\s+outcome\s+class/);
    assert.match(table, /agent:bot\s+cli\s+review\.approve\s+error\s+permission/);

    const failures = ok(await look(home, ['audit', '--failures', '--json'])).json().failures;
    const count = (op: string, cls: string) =>
      failures.find(
        (f: { operation: string; failureClass: string }) => f.operation === op && f.failureClass === cls,
      )?.count;
    assert.equal(count('review.approve', 'permission'), 1);
    assert.equal(count('erase', 'invalid_input'), 1);
    assert.match(ok(await cli(home, ['audit', '--failures'])).stdout, /permission\s+review\.approve\s+1/);

    const agentOnly = ok(await look(home, ['audit', '--principal', 'agent:bot', '--json'])).json().records;
    assert.ok(
      agentOnly.length >= 1 && agentOnly.every((r: { principal: string }) => r.principal === 'agent:bot'),
    );
    const permission = ok(
      await look(home, ['audit', '--outcome', 'error', '--class', 'permission', '--json']),
    ).json();
    assert.deepEqual(
      permission.records.map((r: { operation: string }) => r.operation),
      ['review.approve'],
    );
  }));

test('export and restore round-trip into a second home: the export again differs only in restore stamps; restoring twice changes nothing', () =>
  withTempHome(async (home) =>
    withTempHome(async (second) => {
      const a = await remember(home, 'Acme is on the Pro plan', [
        '--key',
        'acme.plan',
        '--value',
        '{"plan":"pro"}',
      ]);
      await remember(home, 'Acme moved to Enterprise', [
        '--key',
        'acme.plan',
        '--value',
        '{"plan":"enterprise"}',
      ]);
      await remember(home, 'Standups are at 9:30', ['--kind', 'decision', '--valid-from', '2025-01-01']);
      const held = await remember(home, 'The beta ships in June', ['--as', 'agent:bot', '--scope', 'shared']);
      const wrong = await remember(home, 'Acme is on the Free plan', [
        '--as',
        'agent:bot',
        '--scope',
        'shared',
        '--key',
        'acme.plan',
      ]);
      ok(await cli(home, ['review', 'reject', wrong.id, '--reason', 'not true']));
      await remember(home, 'Erin likes long walks', ['--subject', 'person:erin@example.com']);
      ok(await cli(home, ['erase', '--subject', 'person:erin@example.com', '--yes']));

      const out = join(home, 'export.jsonl');
      const written = ok(await cli(home, ['export', '--out', out, '--json'])).json();
      const fileLines = readFileSync(out, 'utf8').trim().split('\n');
      assert.equal(written.lines, fileLines.length);
      const streamed = ok(await cli(home, ['export']))
        .stdout.trim()
        .split('\n');
      assert.deepEqual(streamed.slice(1), fileLines.slice(1), 'stdout and --out carry the same lines');
      assert.equal(JSON.parse(fileLines[0]!).type, 'header');

      const imported = ok(await cli(second, ['import', out, '--restore', '--json'])).json();
      assert.deepEqual(imported.failed, []);
      assert.equal(imported.imported + imported.held + imported.rejected, fileLines.length - 1);

      // An admin's restore brings the history back as it was: exported again, every line is the same but for
      // the header and the stamp each restored event carries (who restored it, when, from which file).
      const unstamped = (lines: string[]) =>
        lines.slice(1).map((l) => {
          const d = JSON.parse(l);
          if (d.type === 'memory') {
            for (const e of d.events) {
              assert.deepEqual(Object.keys(e.detail.restored ?? {}).sort(), ['at', 'by', 'file']);
              assert.equal(e.detail.restored.file, 'export.jsonl');
              delete e.detail.restored;
            }
          }
          return d;
        });
      const original = fileLines.slice(1).map((l) => JSON.parse(l));
      const again = ok(await look(second, ['export']))
        .stdout.trim()
        .split('\n');
      assert.deepEqual(
        unstamped(again),
        original,
        'every memory, event, rejection, claim and erasure survives',
      );
      const types = new Set(original.map((d) => d.type));
      assert.deepEqual([...types].sort(), ['claim', 'erasure', 'memory', 'rejection']);
      const memories = new Map(
        original.filter((d) => d.type === 'memory').map((d) => [d.memory.id, d.memory]),
      );
      assert.equal(memories.get(held.id)?.state, 'held');
      assert.equal(memories.get(a.id)?.state, 'superseded');

      // I5 through restore: the rejection came along, so the claim stays rejected in the new home.
      const rejectedAgain = await remember(second, 'Acme is on the FREE plan', [
        '--as',
        'agent:bot',
        '--scope',
        'shared',
        '--key',
        'acme.plan',
      ]);
      assert.equal(rejectedAgain.state, 'rejected');

      const state = await snapshot(second);
      const twice = ok(
        await cli(second, ['import', '-', '--restore', '--json'], { input: readFileSync(out, 'utf8') }),
      ).json();
      assert.equal(twice.imported, 0);
      assert.equal(twice.skipped, fileLines.length);
      assert.equal(await snapshot(second), state, 'importing twice changes nothing');
    }),
  ));

test('import reports failed lines with their numbers and exits invalid_input; export --out never leaves a half file', () =>
  withTempHome(async (home) => {
    await remember(home, 'A memory to export');
    const file = join(home, 'bad.jsonl');
    writeFileSync(file, '{"type":"header","format":"memledger/v1"}\nnot json\n{"type":"memory"}\n');
    const bad = await cli(home, ['import', file, '--json']);
    assert.equal(bad.code, EXIT_CODES.invalid_input);
    const summary = bad.json();
    assert.deepEqual(
      summary.failed.map((f: { line: number }) => f.line),
      [2, 3],
    );
    assert.equal(bad.error().class, 'invalid_input');
    const human = await look(home, ['import', file]);
    assert.match(human.stdout, /read 3 lines: 0 imported/);
    assert.match(human.stdout, /line 2: invalid_input: line is not valid JSON/);

    // The target is a directory: the rename fails, and neither a file nor a temporary is left behind.
    const target = join(home, 'target');
    mkdirSync(target);
    const failed = await cli(home, ['export', '--out', target, '--json']);
    assert.notEqual(failed.code, 0);
    assert.deepEqual(
      readdirSync(home).filter((n) => n.includes('.tmp')),
      [],
    );
    assert.deepEqual(readdirSync(target), []);
    assert.equal(
      (await look(home, ['export', '--out', join(home, 'no', 'such', 'dir.jsonl')])).code,
      EXIT_CODES.not_found,
    );
  }));

test('reindex rebuilds the index from the log and stats counts the home', () =>
  withTempHome(async (home) => {
    await remember(home, 'Kettles boil faster at altitude');
    await remember(home, 'The wiki lives at wiki.example.com', ['--key', 'wiki.url']);
    await remember(home, 'The wiki moved to docs.example.com', ['--key', 'wiki.url']);
    const rebuilt = ok(await cli(home, ['reindex', '--json'])).json();
    assert.equal(rebuilt.indexed, 3, 'every version that was ever current');
    assert.match(ok(await look(home, ['reindex'])).stdout, /reindexed 3/);
    assert.equal(ok(await look(home, ['search', 'wiki', '--json'])).json().hits.length, 1);
    const stats = ok(await look(home, ['stats', '--json'])).json();
    assert.equal(stats.memories, 3);
    assert.deepEqual(stats.byState, { active: 2, superseded: 1 });
    assert.equal(stats.scopes, 1);
    assert.ok(stats.files['memory.db'] > 0 && stats.files['audit.db'] > 0);
    const text = ok(await cli(home, ['stats'])).stdout;
    assert.match(text, /memories\s+3: 2 active, 1 superseded/);
  }));

test('demo walks through the ledger in its own home and exits 0', () =>
  withTempHome(async (home) => {
    const shown = ok(await cli(home, ['demo']));
    for (const words of ['supersedes', 'held for review', 'rejected', 'Search again', 'no results']) {
      assert.ok(shown.stdout.includes(words), `the demo says "${words}"`);
    }
    assert.ok(shown.stdout.includes(home));
    assert.equal(
      (await look(home, ['demo', '--json'])).code,
      EXIT_CODES.invalid_input,
      'never into a home with data',
    );
    await withTempHome(async (other) => {
      const steps = ok(await cli(other, ['demo', '--json'])).json().steps;
      assert.equal(steps.length, 9);
      assert.ok(steps.every((s: { title: string; said: string[] }) => s.title !== '' && s.said.length > 0));
      const rejected = steps[5].data;
      assert.equal(rejected.state, 'rejected');
      assert.equal(steps[8].data.hits.length, 0, 'the erased person is gone');
      assert.equal(steps[7].data.bytesFound, 0);
    });
  }));
