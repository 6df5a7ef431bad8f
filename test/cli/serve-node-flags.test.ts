// `memledger serve` runs with V8's young generation capped (src/surfaces/cli/node-flags.ts): the re-exec, its guards.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { runCli } from '../../src/surfaces/cli/main.ts';
import { missingNodeFlags, SERVER_NODE_FLAGS } from '../../src/surfaces/cli/node-flags.ts';
import { BIN, withTempHome } from './helpers.ts';

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });

/** runCli with a recording `reexec` (the real one replaces the process): which flags each command asks for. */
async function reexecAsked(args: string[]): Promise<(readonly string[])[]> {
  const asked: (readonly string[])[] = [];
  await withTempHome((home) =>
    runCli(['--home', home, ...args], {
      stdout: sink(),
      stderr: sink(),
      stdin: Readable.from([]),
      env: {},
      interactive: false,
      reexec: (flags) => asked.push(flags),
    }),
  );
  return asked;
}

/** Spawns `memledger serve` and returns the command line of the process that listens (Linux's /proc). */
async function serveCommandLine(home: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  const child = spawn(process.execPath, [BIN, '--home', home, 'serve', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        if (out.includes('memledger serving')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code} before listening`)));
    });
    return readFileSync(`/proc/${child.pid}/cmdline`, 'utf8')
      .split('\0')
      .filter((a) => a !== '');
  } finally {
    const exited = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

const plainEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('MEMLEDGER_') && k !== 'NODE_OPTIONS') env[k] = v;
  return env;
};

describe('serve node flags', () => {
  it('asks only for the flags the process lacks, and none over a young generation the operator chose', () => {
    assert.deepEqual(missingNodeFlags(SERVER_NODE_FLAGS, [], undefined), ['--max-semi-space-size=16']);
    assert.deepEqual(missingNodeFlags(SERVER_NODE_FLAGS, ['--max-semi-space-size=16'], undefined), []);
    assert.deepEqual(missingNodeFlags(SERVER_NODE_FLAGS, ['--import', 'x.mjs'], ''), [
      '--max-semi-space-size=16',
    ]);
    assert.deepEqual(missingNodeFlags(SERVER_NODE_FLAGS, [], '--max-semi-space-size=64'), []);
    assert.deepEqual(missingNodeFlags(SERVER_NODE_FLAGS, [], '--max_semi_space_size=8'), []);
    assert.deepEqual(missingNodeFlags(SERVER_NODE_FLAGS, ['--min-semi-space-size=4'], undefined), []);
  });

  it('serve asks its process to re-exec with the cap; another command does not', async () => {
    assert.deepEqual(await reexecAsked(['serve', '--help']), [['--max-semi-space-size=16']]);
    // Control: a short-lived command runs in the process it was started in.
    assert.deepEqual(await reexecAsked(['init']), []);
  });

  it(
    'the listening serve is the spawned process itself, started again with the cap',
    { skip: process.platform !== 'linux' },
    async () => {
      await withTempHome(async (home) => {
        // The pid spawned is the pid listening: its image was replaced (execve), not a child started beside it.
        const argv = await serveCommandLine(home, plainEnv());
        assert.ok(argv.includes('--max-semi-space-size=16'), argv.join(' '));
        assert.ok(argv.includes('serve'));
      });
    },
  );

  it(
    "an operator's own NODE_OPTIONS young generation is kept, and nothing is added",
    { skip: process.platform !== 'linux' },
    async () => {
      await withTempHome(async (home) => {
        const argv = await serveCommandLine(home, { ...plainEnv(), NODE_OPTIONS: '--max-semi-space-size=8' });
        assert.ok(!argv.includes('--max-semi-space-size=16'), argv.join(' '));
        assert.ok(argv.includes('serve'));
      });
    },
  );
});
