/**
 * Every command against malformed, oversized, wrongly typed and hostile input: a clear error class on stderr,
 * the matching exit code, and a store left exactly as it was (I7, I11). The wide table runs through `runCli`
 * in this process (NUL bytes cannot cross a process boundary); a sample runs through the real executable.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { type CliResult, cli, cliInProcess, ok, openProbe, snapshot, withTempHome } from './helpers.ts';

type ErrorClass = keyof typeof EXIT_CODES;

interface Case {
  name: string;
  args: string[];
  /** The class the call must fail with; `search` means results or invalid_input, never anything else (I11). */
  expect: ErrorClass | 'search';
  /** For `search` cases: a memory the query's words must find, so "no results" cannot pass by accident. */
  finds?: 'acme';
  input?: string;
}

const NO_MEMORY = 'mem_0000000000000000000000';
const HOSTILE_IDS = [
  '../../etc/passwd',
  "mem_'; DROP TABLE memories;--",
  'mem_0000000000000000000000; DELETE FROM events',
  '%00',
  'mem_\u0000000000000000000000000',
  'MEM_0000000000000000000000',
  'x'.repeat(5000),
];
// Assembled at run time, so no credential-shaped literal sits in the repository.
const FAKE_TOKEN = 'gh' + 'p_' + 'Zq8Lm2Xv7Rt4Yw9Bn3Kp6Hd1Fs5Gj0Ac2Ue8'.slice(0, 36);

/** Cases parameterised on the seeded memories' ids. */
function cases(ids: { acme: string; alice: string; held: string; dir: string; garbage: string }): Case[] {
  const c = (name: string, args: string[], expect: Case['expect'], extra: Partial<Case> = {}): Case => ({
    name,
    args,
    expect,
    ...extra,
  });
  const agent = ['--as', 'agent:bot'];
  const byId = (command: string[], rest: string[] = []): Case[] =>
    HOSTILE_IDS.map((id) =>
      c(
        `${command.join(' ')} ${JSON.stringify(id.slice(0, 30))}`,
        [...command, id, ...rest],
        'invalid_input',
      ),
    );
  return [
    // the command line itself
    c('an unknown command', ['frobnicate'], 'invalid_input'),
    c('a command word alone', ['review'], 'invalid_input'),
    c('an unknown option', ['list', '--bogus'], 'invalid_input'),
    c('an invalid principal', ['list', '--as', 'robot:x'], 'invalid_input'),
    c('an empty principal id', ['list', '--as', 'agent:'], 'invalid_input'),
    c('a principal with a path', ['list', '--as', 'agent:../../x'], 'invalid_input'),
    // init, reindex, stats, export, demo
    c('init with an argument', ['init', 'now'], 'invalid_input'),
    c('reindex with an argument', ['reindex', 'all'], 'invalid_input'),
    c('reindex as an agent', ['reindex', ...agent], 'permission'),
    c('stats with an argument', ['stats', 'x'], 'invalid_input'),
    c('stats as an agent', ['stats', ...agent], 'permission'),
    c('export with an argument', ['export', 'x'], 'invalid_input'),
    c(
      'export --out into a missing directory',
      ['export', '--out', join(ids.dir, 'no', 'x.jsonl')],
      'not_found',
    ),
    c('export --out without a value', ['export', '--out'], 'invalid_input'),
    c('demo with an argument', ['demo', 'now'], 'invalid_input'),
    // remember
    c('remember without text', ['remember'], 'invalid_input'),
    c('remember with two texts', ['remember', 'a', 'b'], 'invalid_input'),
    c('remember an empty body', ['remember', ''], 'invalid_input'),
    c('remember a 9,000-character body', ['remember', 'x'.repeat(9000)], 'invalid_input'),
    c('remember --value that is not JSON', ['remember', 'x', '--value', '{plan: pro'], 'invalid_input'),
    c('remember --value without a value', ['remember', 'x', '--value'], 'invalid_input'),
    c(
      'remember an oversized --value',
      ['remember', 'x', '--value', JSON.stringify('v'.repeat(17_000))],
      'invalid_input',
    ),
    c('remember --confidence abc', ['remember', 'x', '--confidence', 'abc'], 'invalid_input'),
    c('remember --confidence 2', ['remember', 'x', '--confidence', '2'], 'invalid_input'),
    c('remember an unknown scope form', ['remember', 'x', '--scope', 'team:x'], 'invalid_input'),
    c('remember a scope with a NUL', ['remember', 'x', '--scope', 'user:a\u0000b'], 'invalid_input'),
    c('remember a scope with a path', ['remember', 'x', '--scope', 'user:../../etc'], 'invalid_input'),
    c('remember an unknown kind', ['remember', 'x', '--kind', 'opinion'], 'invalid_input'),
    c('remember a path-shaped key', ['remember', 'x', '--key', '../../etc/passwd'], 'invalid_input'),
    c('remember a subject without a type', ['remember', 'x', '--subject', 'alice'], 'invalid_input'),
    c(
      'remember 40 subjects',
      ['remember', 'x', ...Array.from({ length: 40 }, (_, i) => ['--subject', `person:p${i}`]).flat()],
      'invalid_input',
    ),
    c('remember --valid-from yesterday', ['remember', 'x', '--valid-from', 'yesterday'], 'invalid_input'),
    c(
      'remember valid-to before valid-from',
      ['remember', 'x', '--valid-from', '2025-02-01', '--valid-to', '2025-01-01'],
      'invalid_input',
    ),
    c(
      'remember --source-url of 600 characters',
      ['remember', 'x', '--source-url', `https://x.example/${'a'.repeat(600)}`],
      'invalid_input',
    ),
    // I11: times Date.parse would shift or guess, and bodies with nothing visible in them
    ...[
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '0000-01-01',
      '2024-05-01T24:00Z',
      '2024-05-01T10:00',
    ].flatMap((t) => [
      c(`I11 remember --valid-from ${t}`, ['remember', 'x', '--valid-from', t], 'invalid_input'),
      c(`I11 remember --valid-to ${t}`, ['remember', 'x', '--valid-to', t], 'invalid_input'),
      c(`I11 search --as-of ${t}`, ['search', 'acme', '--as-of', t], 'invalid_input'),
      c(`I11 search --valid-at ${t}`, ['search', 'acme', '--valid-at', t], 'invalid_input'),
      c(`I11 list --as-of ${t}`, ['list', '--as-of', t], 'invalid_input'),
      c(`I11 list --valid-at ${t}`, ['list', '--valid-at', t], 'invalid_input'),
      c(`I11 audit --since ${t}`, ['audit', '--since', t], 'invalid_input'),
      c(`I11 audit --failures --since ${t}`, ['audit', '--failures', '--since', t], 'invalid_input'),
      c(
        `I11 review approve --valid-from ${t}`,
        ['review', 'approve', ids.held, '--valid-from', t],
        'invalid_input',
      ),
    ]),
    ...[' ', '\t\n', '\u200b', '\u200b\u2060\ufeff\u00ad', '\u202e\u2066', '\u3000'].flatMap((body) => [
      c(`I11 remember the body ${JSON.stringify(body)}`, ['remember', body], 'invalid_input'),
      c(
        `I11 review approve --body ${JSON.stringify(body)}`,
        ['review', 'approve', ids.held, '--body', body],
        'invalid_input',
      ),
    ]),
    c(
      'I11 remember a --value 3,000 levels deep',
      ['remember', 'x', '--value', `${'['.repeat(3000)}1${']'.repeat(3000)}`],
      'invalid_input',
    ),
    c(
      'I11 search with nine --kind',
      ['search', 'acme', ...Array(9).fill(['--kind', 'fact']).flat()],
      'invalid_input',
    ),
    c('I10 remember a credential', ['remember', `deploy with ${FAKE_TOKEN} please`], 'invalid_input'),
    c('remember --supersedes a path', ['remember', 'x', '--supersedes', '../../etc/passwd'], 'invalid_input'),
    c('remember --supersedes an unknown id', ['remember', 'x', '--supersedes', NO_MEMORY], 'not_found'),
    c(
      'remember --supersedes across scopes',
      ['remember', 'x', '--supersedes', ids.acme, '--scope', 'project:x'],
      'invalid_input',
    ),
    c('remember --supersedes a held write', ['remember', 'x', '--supersedes', ids.held], 'conflict'),
    c(
      'I4 remember as an agent into user:alice',
      ['remember', 'x', '--scope', 'user:alice', ...agent],
      'permission',
    ),
    // search
    c('search without a query', ['search'], 'invalid_input'),
    c('search with two queries', ['search', 'acme', 'plan'], 'invalid_input'),
    c('search --limit abc', ['search', 'acme', '--limit', 'abc'], 'invalid_input'),
    c('search --limit 0', ['search', 'acme', '--limit', '0'], 'invalid_input'),
    c('search --limit -1', ['search', 'acme', '--limit', '-1'], 'invalid_input'),
    c('search --limit 1.5', ['search', 'acme', '--limit', '1.5'], 'invalid_input'),
    c('search --limit 100000', ['search', 'acme', '--limit', '100000'], 'invalid_input'),
    c('search an unknown scope form', ['search', 'acme', '--scope', 'team:x'], 'invalid_input'),
    c('search an unknown kind', ['search', 'acme', '--kind', 'gossip'], 'invalid_input'),
    c('search --as-of nonsense', ['search', 'acme', '--as-of', 'last tuesday'], 'invalid_input'),
    c('search --valid-at nonsense', ['search', 'acme', '--valid-at', '2025-13-45'], 'invalid_input'),
    c('search a 1,001-character query', ['search', 'acme '.repeat(200) + 'x'], 'invalid_input'),
    c('I4 search user:alice as an agent', ['search', 'tea', '--scope', 'user:alice', ...agent], 'permission'),
    // get, history
    c('get without an id', ['get'], 'invalid_input'),
    c('get two ids', ['get', ids.acme, ids.acme], 'invalid_input'),
    ...byId(['get']),
    c('get an unknown id', ['get', NO_MEMORY], 'not_found'),
    c('I4 get user:alice as an agent', ['get', ids.alice, ...agent], 'not_found'),
    ...byId(['history']),
    c('history an unknown id', ['history', NO_MEMORY], 'not_found'),
    c('I4 history of user:alice as an agent', ['history', ids.alice, ...agent], 'not_found'),
    // list
    c('list with an argument', ['list', 'everything'], 'invalid_input'),
    c('list an unknown state', ['list', '--state', 'deleted'], 'invalid_input'),
    c('list --limit abc', ['list', '--limit', 'abc'], 'invalid_input'),
    c('list --subject without a type', ['list', '--subject', 'alice'], 'invalid_input'),
    c('I4 list user:alice as an agent', ['list', '--scope', 'user:alice', ...agent], 'permission'),
    // retract, confirm
    c('retract without --reason', ['retract', ids.acme], 'invalid_input'),
    c('retract with an empty --reason', ['retract', ids.acme, '--reason', ''], 'invalid_input'),
    c(
      'retract with a 1,001-character reason',
      ['retract', ids.acme, '--reason', 'r'.repeat(1001)],
      'invalid_input',
    ),
    ...byId(['retract'], ['--reason', 'r']),
    c('retract an unknown id', ['retract', NO_MEMORY, '--reason', 'r'], 'not_found'),
    c(
      "retract a person's memory as an agent",
      ['retract', ids.acme, '--reason', 'r', ...agent],
      'permission',
    ),
    c('confirm without an id', ['confirm'], 'invalid_input'),
    ...byId(['confirm']),
    c('confirm an unknown id', ['confirm', NO_MEMORY], 'not_found'),
    c('confirm a held write', ['confirm', ids.held], 'conflict'),
    c('I7 confirm as an agent', ['confirm', ids.acme, ...agent], 'permission'),
    // review
    c('review list with an argument', ['review', 'list', 'all'], 'invalid_input'),
    c('review list --limit abc', ['review', 'list', '--limit', 'abc'], 'invalid_input'),
    c('review list an unknown scope form', ['review', 'list', '--scope', 'team:x'], 'invalid_input'),
    c('review list as an agent', ['review', 'list', ...agent], 'permission'),
    c('review approve without an id', ['review', 'approve'], 'invalid_input'),
    ...byId(['review', 'approve']),
    c('review approve an unknown id', ['review', 'approve', NO_MEMORY], 'not_found'),
    c('review approve an active memory', ['review', 'approve', ids.acme], 'conflict'),
    c(
      'review approve --value that is not JSON',
      ['review', 'approve', ids.held, '--value', 'nope'],
      'invalid_input',
    ),
    c(
      'review approve a path-shaped --key',
      ['review', 'approve', ids.held, '--key', '../x'],
      'invalid_input',
    ),
    c(
      'review approve a 9,000-character --body',
      ['review', 'approve', ids.held, '--body', 'b'.repeat(9000)],
      'invalid_input',
    ),
    c('I7 review approve as an agent', ['review', 'approve', ids.held, ...agent], 'permission'),
    c('review reject without --reason', ['review', 'reject', ids.held], 'invalid_input'),
    ...byId(['review', 'reject'], ['--reason', 'r']),
    c(
      'I7 review reject as an agent',
      ['review', 'reject', ids.held, '--reason', 'r', ...agent],
      'permission',
    ),
    // erase
    c('erase without --subject', ['erase', '--yes'], 'invalid_input'),
    c('erase without --yes', ['erase', '--subject', 'person:alice@example.com'], 'invalid_input'),
    c('erase a subject without a type', ['erase', '--subject', 'alice', '--yes'], 'invalid_input'),
    c('erase with a positional', ['erase', 'person:alice@example.com', '--yes'], 'invalid_input'),
    c(
      'I7 erase as an agent',
      ['erase', '--subject', 'person:alice@example.com', '--yes', ...agent],
      'permission',
    ),
    // audit
    c('audit --outcome maybe', ['audit', '--outcome', 'maybe'], 'invalid_input'),
    c('audit --class nope', ['audit', '--class', 'nope'], 'invalid_input'),
    c('audit --limit abc', ['audit', '--limit', 'abc'], 'invalid_input'),
    c('audit --limit 0', ['audit', '--limit', '0'], 'invalid_input'),
    c('audit as an agent', ['audit', ...agent], 'permission'),
    c('audit --failures as an agent', ['audit', '--failures', ...agent], 'permission'),
    // import
    c('import without a file', ['import'], 'invalid_input'),
    c('import a missing file', ['import', join(ids.dir, 'missing.jsonl')], 'not_found'),
    c('import a directory', ['import', ids.dir], 'invalid_input'),
    c('import lines that are not memories', ['import', ids.garbage], 'invalid_input'),
    c('import hostile lines from stdin', ['import', '-'], 'invalid_input', {
      input: `{"type":"memory","memory":{"id":"../../etc/passwd"}}\n\u0000\u0000\n${'['.repeat(5000)}\n{"type":"rejection"}\n`,
    }),
    // I11: query text is data. Any words give results, nothing gives invalid_input, never a crash.
    ...[
      '"',
      '""',
      '*',
      '()',
      '-',
      'NEAR',
      'a OR',
      'AND OR NOT',
      'col:x',
      '🙂🙂',
      'a'.repeat(100),
      "'; DROP TABLE memories;--",
      '\u0000',
      'שלום עולם',
      'café ☕ naïve',
      '^acme',
    ].map((q) => c(`I11 search ${JSON.stringify(q.slice(0, 20))}`, ['search', q], 'search')),
    ...[
      '"acme',
      'acme*',
      'NEAR(acme plan)',
      'acme OR',
      'scope:acme',
      '{acme}',
      'acme\u0000plan',
      '\u202eacme',
      'ACME   plan!!',
      'acme AND NOT plan',
    ].map((q) =>
      c(`I11 search ${JSON.stringify(q)} finds the acme memory`, ['search', q], 'search', { finds: 'acme' }),
    ),
  ];
}

/** Every call in --json mode, so the error arrives as `{"error":{...}}` on stderr. */
const asJson = (args: string[]): string[] => [...args, '--json'];

function assertRefused(r: CliResult, expected: ErrorClass, allowStdout: boolean): void {
  assert.equal(
    r.code,
    EXIT_CODES[expected],
    `exit code for ${expected}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`,
  );
  const error = r.error();
  assert.equal(error.class, expected, error.message);
  assert.ok(error.message.length > 10, 'a message a person can act on');
  assert.ok(!/internal error|TypeError|ReferenceError|at \//.test(r.stderr), r.stderr);
  if (!allowStdout) assert.equal(r.stdout, '', 'nothing on stdout when a call fails');
}

test('I11 bad input: every command refuses malformed, oversized and hostile input with a clear class and leaves the store unchanged', (t) =>
  withTempHome(async (home) => {
    const seed = async (args: string[]) =>
      ok(await cliInProcess(home, asJson(args)), args.join(' ')).json().id;
    const acme = await seed([
      'remember',
      'Acme is on the Pro plan',
      '--key',
      'acme.plan',
      '--subject',
      'company:acme',
    ]);
    const alice = await seed([
      'remember',
      'Alice likes green tea',
      '--scope',
      'user:alice',
      '--subject',
      'person:alice@example.com',
    ]);
    const held = await seed(['remember', 'The beta ships in June', '--scope', 'shared', '--as', 'agent:bot']);
    const dir = join(home, 'files');
    mkdirSync(dir);
    const garbage = join(dir, 'garbage.jsonl');
    writeFileSync(
      garbage,
      'not json\n{"type":"memory","memory":{}}\n{"type":"rejection","rejection":{"scope":"shared"}}\n',
    );
    const probe = openProbe(home);
    t.after(() => probe.close());
    const before = await probe.state();
    for (const k of cases({ acme, alice, held, dir, garbage })) {
      await t.test(k.name, async () => {
        const r = await cliInProcess(home, asJson(k.args), { input: k.input });
        if (k.expect === 'search') {
          if (r.code === 0) {
            const ids = r.json().hits.map((h: { memory: { id: string } }) => h.memory.id);
            if (k.finds === 'acme')
              assert.ok(ids.includes(acme), `the query's words find the memory: ${r.stdout}`);
          } else {
            assert.equal(k.finds, undefined, `a query with real words must give results: ${r.stderr}`);
            assertRefused(r, 'invalid_input', false);
          }
        } else {
          assertRefused(r, k.expect, k.args[0] === 'import');
        }
        assert.equal(await probe.state(), before, 'the store is unchanged');
      });
    }
    // Control: the probe does see a change, so "unchanged" above means something.
    await seed(['remember', 'One more memory']);
    assert.notEqual(await probe.state(), before);
  }));

test('bad input through the executable: the exit code and the stderr contract match, in --json and human mode', () =>
  withTempHome(async (home) => {
    const held = ok(
      await cli(home, [
        'remember',
        'The beta ships in June',
        '--as',
        'agent:bot',
        '--scope',
        'shared',
        '--json',
      ]),
    ).json().id;
    const before = await snapshot(home);
    const sample: [string[], ErrorClass][] = [
      [['remember', 'x', '--bogus'], 'invalid_input'],
      [['remember', 'x'.repeat(9000)], 'invalid_input'],
      [['remember', 'x', '--value', 'not json'], 'invalid_input'],
      [['get', "mem_'; DROP TABLE memories;--"], 'invalid_input'],
      [['get', NO_MEMORY], 'not_found'],
      [['search', '"'], 'invalid_input'],
      [['search', 'x', '--limit', 'abc'], 'invalid_input'],
      [['list', '--as', 'robot:x'], 'invalid_input'],
      [['erase', '--subject', 'person:a@example.com'], 'invalid_input'],
    ];
    for (const [args, expected] of sample) {
      const r = await cli(home, asJson(args));
      assertRefused(r, expected, false);
    }
    const human = await cli(home, ['get', '../../etc/passwd']);
    assert.equal(human.code, EXIT_CODES.invalid_input);
    assert.match(human.stderr, /^memledger: invalid_input: not a memory id/);
    assert.equal(human.stdout, '');
    assert.equal(await snapshot(home), before, 'the store is unchanged');
    assert.equal(
      ok(await cli(home, ['review', 'approve', held, '--json'])).json().state,
      'active',
      'control: a person may approve',
    );
  }));

test('I7 only humans judge: an agent is refused review approve, review reject, confirm and erase through the CLI', () =>
  withTempHome(async (home) => {
    const agent = ['--as', 'agent:bot'];
    const held = ok(
      await cli(home, ['remember', 'Acme renews in May', ...agent, '--scope', 'shared', '--json']),
    ).json().id;
    const own = ok(
      await cli(home, [
        'remember',
        'Alice likes tea',
        ...agent,
        '--subject',
        'person:alice@example.com',
        '--json',
      ]),
    ).json().id;
    const before = await snapshot(home);
    for (const args of [
      ['review', 'approve', held],
      ['review', 'approve', held, '--body', 'Acme renews in June'],
      ['review', 'reject', held, '--reason', 'wrong'],
      ['confirm', own],
      ['erase', '--subject', 'person:alice@example.com', '--yes'],
    ]) {
      const r = await cli(home, asJson([...args, ...agent]));
      assertRefused(r, 'permission', false);
      assert.match(r.error().message, /only a human|human/);
    }
    assert.equal(await snapshot(home), before, 'nothing changed');
    // Control: the same calls succeed for a person.
    assert.equal(
      ok(await cli(home, ['review', 'reject', held, '--reason', 'wrong', '--json'])).json().state,
      'rejected',
    );
    assert.equal(
      ok(await cli(home, ['erase', '--subject', 'person:alice@example.com', '--yes', '--json'])).json()
        .erased,
      1,
    );
  }));

test('I11 bad times and invisible bodies through the executable: refused, audited, the store unchanged; valid neighbours land', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    const before = await snapshot(home);
    const refused: string[][] = [
      ['remember', 'x', '--valid-from', '2024-02-30'],
      ['remember', 'x', '--valid-to', '2024-05-01T10:00'],
      ['search', 'x', '--as-of', '0000-01-01'],
      ['audit', '--since', '2023-02-29'],
      ['remember', '\u200b\u2060'],
      ['remember', '   '],
    ];
    for (const args of refused) {
      const r = await cli(home, asJson(args));
      assertRefused(r, 'invalid_input', false);
      if (args.includes('2024-05-01T10:00')) assert.match(r.error().message, /add Z for UTC or an offset/);
    }
    assert.equal(await snapshot(home), before, 'the store is unchanged');
    const ledger = openLedger({ home });
    try {
      const records = await ledger.as(ledger.operator()).audit({ outcome: 'error', limit: 100 });
      assert.equal(
        records.filter((r) => r.failureClass === 'invalid_input' && r.surface === 'cli').length,
        refused.length,
      );
    } finally {
      ledger.close();
    }
    const dated = ok(
      await cli(
        home,
        asJson(['remember', 'Dated', '--valid-from', '2024-02-29', '--valid-to', '2024-05-01T10:00+02:00']),
      ),
    ).json().id;
    const got = ok(await cli(home, asJson(['get', dated]))).json();
    assert.deepEqual([got.validFrom, got.validTo], ['2024-02-29T00:00:00.000Z', '2024-05-01T08:00:00.000Z']);
  }));

test('I11 import of a 5 MB line between two good lines: the good lines land, the long one is reported by its number, exit 2, audited', () =>
  withTempHome(async (home) => {
    const source = join(home, 'source');
    ok(await cli(source, ['remember', 'Otters sleep holding hands']));
    ok(await cli(source, ['remember', 'Beavers build dams at night']));
    const exported = join(home, 'export.jsonl');
    ok(await cli(source, ['export', '--out', exported]));
    const [header, first, second] = readFileSync(exported, 'utf8').trim().split('\n');
    const file = join(home, 'long-line.jsonl');
    const long = `{"type":"memory","memory":{"body":"${'x'.repeat(5_000_000)}"}}`;
    writeFileSync(file, `${header}\n${first}\n${long}\n${second}\n`);
    const target = join(home, 'target');
    ok(await cli(target, ['init']));
    const r = await cli(target, ['import', file, '--json'], { timeoutMs: 60_000 });
    assert.equal(r.code, EXIT_CODES.invalid_input, r.stderr);
    const result = r.json();
    assert.equal(result.imported, 2);
    assert.deepEqual(
      result.failed.map((f: { line: number; class: string }) => [f.line, f.class]),
      [[3, 'invalid_input']],
    );
    assert.match(
      result.failed[0].message,
      new RegExp(`line 3 is ${long.length} bytes, over the 4 MiB limit`),
    );
    assert.match(r.error().message, /line 3/);
    const ledger = openLedger({ home: target });
    try {
      const me = ledger.as(ledger.operator());
      assert.deepEqual((await me.list({ limit: 10 })).map((m) => m.body).sort(), [
        'Beavers build dams at night',
        'Otters sleep holding hands',
      ]);
      const imports = await me.audit({ operation: 'import', limit: 10 });
      assert.ok(
        imports.some((a) => a.outcome === 'error' && a.failureClass === 'invalid_input'),
        'the refusal is audited',
      );
    } finally {
      ledger.close();
    }
  }));

test(
  'I11 import /dev/zero stops cleanly with a message, exits 2, is audited, and writes nothing',
  { skip: !existsSync('/dev/zero') && 'no /dev/zero on this system', timeout: 60_000 },
  () =>
    withTempHome(async (home) => {
      ok(await cli(home, ['init']));
      const before = await snapshot(home);
      const r = await cli(home, ['import', '/dev/zero', '--json'], { timeoutMs: 30_000 });
      assert.equal(r.code, EXIT_CODES.invalid_input, `exit ${r.code}: ${r.stderr}`);
      assert.match(r.error().message, /binary data \(NUL bytes\) with no line end.*reading stopped/);
      assert.equal(r.json().imported, 0);
      assert.equal(await snapshot(home), before, 'nothing was written');
      const ledger = openLedger({ home });
      try {
        const [last] = await ledger
          .as(ledger.operator())
          .audit({ operation: 'import', outcome: 'error', limit: 1 });
        assert.equal(last?.failureClass, 'invalid_input');
      } finally {
        ledger.close();
      }
      // Control: a binary file with line ends is read to its end, each line refused on its own.
      const binary = join(home, 'binary.bin');
      writeFileSync(binary, Buffer.from([0xff, 0xfe, 0x00, 0x0a, 0x80, 0x0a, 0x7b, 0x0a]));
      const b = await cli(home, ['import', binary, '--json'], { timeoutMs: 30_000 });
      assert.equal(b.code, EXIT_CODES.invalid_input);
      assert.deepEqual(
        b.json().failed.map((f: { line: number }) => f.line),
        [1, 2, 3],
      );
    }),
);
