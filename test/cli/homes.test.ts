/**
 * What the CLI says about a data directory that is not what the user meant: a read on a home that does not exist
 * says so and creates nothing (init and writes create it), a memory.db or audit.db that is not a database is named
 * with what to do (upstream, exit 6, no stack trace, the file left as it was), a mistyped command gets the
 * nearest one, and --version prints the version.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { cli, ok } from './helpers.ts';

async function inTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-homes-'));
  try {
    await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const READS: string[][] = [
  ['search', 'staging database'],
  ['get', 'mem_0000000000000000000000000'],
  ['history', 'mem_0000000000000000000000000'],
  ['list'],
  ['context', 'deploy'],
  ['export'],
  ['audit'],
  ['stats'],
  ['review', 'list'],
  ['policy', 'show'],
  ['corrections'],
  ['token', 'list'],
  ['feeds', 'list'],
];

describe('a home that does not exist', () => {
  test('a read says there is no data directory there, exits not_found, and creates nothing', () =>
    inTemp(async (dir) => {
      const home = join(dir, 'typo-home');
      for (const args of READS) {
        const r = await cli(home, [...args, '--json']);
        assert.equal(r.code, EXIT_CODES.not_found, `${args.join(' ')}: ${r.stderr}`);
        const error = r.error();
        assert.equal(error.class, 'not_found');
        assert.ok(error.message.includes(home), `${args.join(' ')} names the home`);
        assert.match(error.message, /memledger init/);
        assert.ok(!existsSync(home), `${args.join(' ')} created nothing`);
      }
      assert.deepEqual(readdirSync(dir), [], 'not a file anywhere');
    }));

  test('control: init and a first write create the home, and the same reads then answer', () =>
    inTemp(async (dir) => {
      const byInit = join(dir, 'by-init');
      ok(await cli(byInit, ['init', '--json']));
      assert.ok(existsSync(join(byInit, 'memory.db')));
      ok(await cli(byInit, ['search', 'staging database', '--json']));
      const byWrite = join(dir, 'by-write');
      ok(await cli(byWrite, ['remember', 'The staging database is db-2', '--scope', 'shared', '--json']));
      const hits = ok(await cli(byWrite, ['search', 'staging database', '--json'])).json();
      assert.equal(JSON.stringify(hits).includes('db-2'), true, 'the write is found');
    }));
});

describe('a damaged database file', () => {
  for (const file of ['memory.db', 'audit.db']) {
    test(`${file} full of garbage is named with what to do: upstream, exit 6, no stack trace, the file untouched`, () =>
      inTemp(async (dir) => {
        const home = join(dir, 'home');
        ok(await cli(home, ['remember', 'The staging database is db-2', '--scope', 'shared']));
        const path = join(home, file);
        const garbage = Buffer.alloc(8192, 'not a database at all ');
        for (const p of [path, `${path}-wal`, `${path}-shm`]) rmSync(p, { force: true });
        writeFileSync(path, garbage);

        const r = await cli(home, ['search', 'staging']);
        assert.equal(r.code, EXIT_CODES.upstream, r.stderr);
        assert.ok(r.stderr.includes(path), 'names the file');
        assert.match(r.stderr, /not a readable SQLite database/);
        assert.match(r.stderr, /backup|move it aside/);
        assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
        assert.doesNotMatch(r.stderr, /internal/);
        assert.equal(r.stdout, '');
        assert.deepEqual(readFileSync(path), garbage, 'the file is left as it was');

        const json = await cli(home, ['search', 'staging', '--json']);
        assert.equal(json.code, EXIT_CODES.upstream);
        assert.equal(json.error().class, 'upstream');
      }));
  }
});

describe('mistyped commands', () => {
  const cases: [string[], string][] = [
    [['serach', 'x'], 'search'],
    [['stat'], 'stats'],
    [['reveiw', 'list'], 'review list'],
    [['review', 'aprove', 'x'], 'review approve'],
    [['tokn', 'create'], 'token create'],
  ];
  for (const [args, meant] of cases) {
    test(`memledger ${args.join(' ')} asks: did you mean ${meant}?`, () =>
      inTemp(async (dir) => {
        const r = await cli(join(dir, 'h'), args);
        assert.equal(r.code, EXIT_CODES.invalid_input);
        assert.ok(r.stderr.includes(`did you mean ${meant}?`), r.stderr);
      }));
  }

  test('a word near no command gets no guess (negative), only the pointer to help', () =>
    inTemp(async (dir) => {
      const r = await cli(join(dir, 'h'), ['frobnicate']);
      assert.equal(r.code, EXIT_CODES.invalid_input);
      assert.doesNotMatch(r.stderr, /did you mean/);
      assert.match(r.stderr, /memledger help/);
    }));
});

test('--version and -v print the version of package.json, also as JSON', () =>
  inTemp(async (dir) => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    const home = join(dir, 'h');
    assert.equal(ok(await cli(home, ['--version'])).stdout, `memledger ${version}\n`);
    assert.equal(ok(await cli(home, ['-v'])).stdout, `memledger ${version}\n`);
    assert.deepEqual(ok(await cli(home, ['--version', '--json'])).json(), { version });
    assert.ok(!existsSync(home), 'asking the version creates nothing');
  }));
