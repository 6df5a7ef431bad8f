/**
 * The CLI's choice of store: `--store` (a path or a URL) and MEMLEDGER_STORE beside `--home` and MEMLEDGER_HOME,
 * the missing-home rule under either name, and `memledger migrate` (on a home built at an old schema version by
 * the real migrations; on a URL through a registered backend, in process).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, describe, test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { backendFor, type StoreBackend, registerBackend } from '../../src/store/backend.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { MEMORY_MIGRATIONS } from '../../src/store/sqlite/migrations/index.ts';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { runCli } from '../../src/surfaces/cli/main.ts';
import { BIN, cleanEnv } from './helpers.ts';

const root = mkdtempSync(join(tmpdir(), 'memledger-store-option-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const fresh = (): string => join(root, `case-${++n}`);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `memledger ...args` in a child process with exactly these MEMLEDGER_* variables (no --home added). */
function memledger(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cleanEnv(env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', reject);
    child.on('close', (code) =>
      resolve({
        code: code ?? -1,
        stdout: Buffer.concat(out).toString(),
        stderr: Buffer.concat(err).toString(),
      }),
    );
    child.stdin.end();
  });
}

const jsonOf = (r: Run) => {
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
};
const errorOf = (r: Run): { class: string; message: string } =>
  JSON.parse(r.stderr.trim().split('\n').at(-1)!).error;

/** Which of the homes holds a memory with this word. */
async function holders(word: string, homes: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const home of homes) {
    if (!existsSync(join(home, 'memory.db'))) continue;
    const ledger = openLedger({ home });
    const r = await ledger.as(ledger.operator()).search({ query: word });
    ledger.close();
    if (r.hits.length > 0) found.push(home);
  }
  return found;
}

describe('--store and MEMLEDGER_STORE', () => {
  test('--store PATH writes to that home; MEMLEDGER_STORE alone names it for the next command', async () => {
    const a = fresh();
    const b = fresh();
    jsonOf(await memledger(['remember', 'the zanzibar deploy runs at noon', '--store', a, '--json']));
    const read = jsonOf(await memledger(['search', 'zanzibar', '--json'], { MEMLEDGER_STORE: a }));
    assert.equal(read.hits.length, 1, 'MEMLEDGER_STORE names the home --store wrote');
    assert.deepEqual(await holders('zanzibar', [a, b]), [a], 'control: only that home holds it');
  });

  test('an option beats the environment, MEMLEDGER_STORE beats MEMLEDGER_HOME', async () => {
    const [s, h, o] = [fresh(), fresh(), fresh()];
    const both = { MEMLEDGER_STORE: s, MEMLEDGER_HOME: h };
    jsonOf(await memledger(['remember', 'quokka one', '--json'], both));
    jsonOf(await memledger(['remember', 'quokka two', '--json', '--home', o], { MEMLEDGER_STORE: s }));
    jsonOf(await memledger(['remember', 'quokka three', '--json', '--store', o], { MEMLEDGER_HOME: h }));
    assert.deepEqual(await holders('one', [s, h, o]), [s], 'both variables: MEMLEDGER_STORE');
    assert.deepEqual(await holders('two', [s, h, o]), [o], '--home beats MEMLEDGER_STORE');
    assert.deepEqual(await holders('three', [s, h, o]), [o], '--store beats MEMLEDGER_HOME');
    assert.ok(!existsSync(h), 'MEMLEDGER_HOME was never used, so never created');
  });

  test('--store and --home naming different stores is invalid_input and creates neither', async () => {
    const [a, b] = [fresh(), fresh()];
    const r = await memledger(['remember', 'never written', '--json', '--store', a, '--home', b]);
    assert.equal(r.code, EXIT_CODES.invalid_input, r.stderr);
    assert.equal(errorOf(r).class, 'invalid_input');
    assert.ok(!existsSync(a) && !existsSync(b), 'nothing created');
    // Control: the same directory under both names is one choice.
    jsonOf(await memledger(['remember', 'written once', '--json', '--store', a, '--home', a]));
    assert.ok(existsSync(join(a, 'memory.db')));
  });

  test('a read on a --store or MEMLEDGER_STORE path that does not exist is not_found and creates nothing', async () => {
    const missing = fresh();
    for (const [args, env] of [
      [['search', 'x', '--json', '--store', missing], {}],
      [['list', '--json'], { MEMLEDGER_STORE: missing }],
    ] as [string[], Record<string, string>][]) {
      const r = await memledger(args, env);
      assert.equal(r.code, EXIT_CODES.not_found, r.stderr);
      assert.match(errorOf(r).message, /memledger init/);
      assert.ok(!existsSync(missing), `${args[0]} created nothing`);
    }
  });

  test('an unknown URL scheme is invalid_input and leaves the working directory as it was', async () => {
    const cwd = fresh();
    mkdirSync(cwd);
    const r = await new Promise<Run>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [BIN, 'remember', 'x', '--json', '--store', 'postgress://db/mem'],
        {
          cwd,
          env: cleanEnv(),
        },
      );
      let stderr = '';
      child.stderr.on('data', (b: Buffer) => {
        stderr += b;
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ code: code ?? -1, stdout: '', stderr }));
    });
    assert.equal(r.code, EXIT_CODES.invalid_input, r.stderr);
    assert.deepEqual(readdirSync(cwd), []);
  });
});

describe('memledger migrate', () => {
  test('on a home at schema version 5 it applies every later store migration and the audit store, then finds nothing to do', async () => {
    const home = fresh();
    mkdirSync(home, { mode: 0o700 });
    // A home as an older memledger left it: the real first five migrations, nothing else.
    openDatabase(join(home, 'memory.db'), MEMORY_MIGRATIONS.slice(0, 5)).close();
    const first = jsonOf(await memledger(['migrate', '--json', '--store', home]));
    assert.equal(first.store, home);
    assert.deepEqual(
      first.applied.map((m: { part: string; version: number }) => `${m.part} ${m.version}`),
      // Every later migration, whatever their numbers (other parts add theirs), then the audit store's.
      [...MEMORY_MIGRATIONS.slice(5).map((m) => `store ${m.version}`), 'audit 1', 'audit 2'],
    );
    assert.deepEqual(first.versions, { store: MEMORY_MIGRATIONS.at(-1)!.version, audit: 2 });
    const again = jsonOf(await memledger(['migrate', '--json', '--home', home]));
    assert.deepEqual(again.applied, [], 'forward-only: nothing left to apply');
    const human = await memledger(['migrate', '--home', home]);
    assert.match(human.stdout, /is current; nothing applied/);

    const audit = jsonOf(await memledger(['audit', '--json', '--home', home]));
    const runs = audit.records.filter((r: { operation: string }) => r.operation === 'migrate');
    assert.deepEqual(
      runs.map((r: { argsPreview: { applied: number } }) => r.argsPreview.applied).sort(),
      [0, 0, MEMORY_MIGRATIONS.length - 5 + 2],
      'each run is audited with its count',
    );
  });

  test('on a home that does not exist it is not_found and creates nothing', async () => {
    const missing = fresh();
    const r = await memledger(['migrate', '--json', '--store', missing]);
    assert.equal(r.code, EXIT_CODES.not_found, r.stderr);
    assert.ok(!existsSync(missing));
  });
});

describe('init and migrate on a database URL go through its backend', () => {
  test('a registered postgres backend migrates on init and migrate; the URL is shown without its password', async () => {
    const under = fresh();
    const calls: string[] = [];
    let migrated = false;
    const restore = registerBackend(['postgres:'], (spec, options): StoreBackend => {
      const inner = backendFor(under, options);
      return {
        kind: 'fake',
        label: 'postgres://app@db.example/mem',
        home: null,
        capabilities: { files: false },
        policyPath: null,
        prepare: () => undefined,
        open: async () => {
          calls.push(`open ${spec}`);
          return inner.open();
        },
        openTokens: () => Promise.reject(new Error('no tokens in this fake backend')),
        migrate: async () => {
          calls.push('migrate');
          const applied = migrated ? [] : [{ part: 'store', version: 1, name: 'log' }];
          migrated = true;
          return { store: 'postgres://app@db.example/mem', applied, versions: { store: 1 } };
        },
      };
    });
    try {
      const url = 'postgres://app:hunter2@db.example/mem';
      const init = await inProcess(['init', '--json', '--store', url]);
      assert.equal(init.code, 0, init.stderr);
      assert.deepEqual(JSON.parse(init.stdout), {
        home: 'postgres://app@db.example/mem',
        created: true,
        files: [],
        policy: null,
      });
      const second = await inProcess(['init', '--json', '--store', url]);
      assert.equal(JSON.parse(second.stdout).created, false, 'the second init finds the schema');
      const migrate = await inProcess(['migrate', '--store', url]);
      assert.equal(migrate.code, 0, migrate.stderr);
      assert.match(migrate.stdout, /postgres:\/\/app@db\.example\/mem is current; nothing applied/);
      assert.ok(!`${init.stdout}${migrate.stdout}`.includes('hunter2'), 'the password is never printed');
      assert.deepEqual(calls.filter((c) => c === 'migrate').length, 3);
      assert.ok(calls.includes(`open ${url}`), 'the ledger opened through the backend');
      assert.ok(!existsSync(join(process.cwd(), 'postgres:')), 'control: no directory named after the URL');
    } finally {
      restore();
    }
  });
});

/** runCli in this process, where a test's registered backend is visible. */
async function inProcess(args: string[]): Promise<Run> {
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const sink = (into: Buffer[]) =>
    new Writable({
      write(chunk, _e, done) {
        into.push(Buffer.from(chunk));
        done();
      },
    });
  const code = await runCli(args, {
    stdout: sink(out),
    stderr: sink(err),
    stdin: Readable.from([]),
    env: cleanEnv(),
    interactive: false,
  });
  return { code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() };
}
