/**
 * The installed hook's standard input and output (bin/memledger.js `hookIo`): it reads and writes its descriptors,
 * not process.stdin and process.stdout, so these check what a stream used to take care of: input that arrives
 * late is still read whole, a reader that went away costs the hook nothing (exit 0, its call still audited), and
 * an empty input prints nothing. (A descriptor left non-blocking, where the stream takes over, cannot be made
 * from here: Node's spawn makes a child's standard descriptors blocking.) Runs the bundle of this checkout's `npm run build`
 * (skipped without one), copied under node_modules/ as an install lays it out.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  constants,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

const REPO = new URL('../../', import.meta.url).pathname;
const built = existsSync(join(REPO, 'dist', 'hook.cjs'));

describe(
  'the installed hook on its descriptors',
  { skip: built ? false : 'no dist/: run npm run build' },
  () => {
    let work: string;
    let bin: string;
    let home: string;
    let repo: string;
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: tmpdir(), MEMLEDGER_EMBEDDER: 'off' };
    const input = (session: string) =>
      JSON.stringify({ session_id: session, cwd: repo, hook_event_name: 'SessionStart', source: 'startup' });
    const context = (stdout: string) =>
      (JSON.parse(stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
        .additionalContext;

    before(() => {
      work = mkdtempSync(join(tmpdir(), 'memledger-hookio-'));
      const pkg = join(work, 'node_modules', 'memledger');
      mkdirSync(pkg, { recursive: true });
      cpSync(join(REPO, 'package.json'), join(pkg, 'package.json'));
      cpSync(join(REPO, 'bin'), join(pkg, 'bin'), { recursive: true });
      cpSync(join(REPO, 'dist'), join(pkg, 'dist'), {
        recursive: true,
        filter: (path) => !path.includes(`${join('dist', 'web')}`),
      });
      symlinkSync(realpathSync(join(REPO, 'node_modules')), join(pkg, 'node_modules'));
      bin = join(pkg, 'bin', 'memledger.js');
      home = join(work, 'home');
      repo = join(work, 'repos', 'acme-api');
      mkdirSync(join(repo, '.git'), { recursive: true });
      const remember = (body: string, scope: string) =>
        execFileSync(process.execPath, [bin, 'remember', body, '--scope', scope, '--home', home], { env });
      remember('Deploys go through the staging branch first.', 'project:acme-api');
      remember('The marketing site deploys from Netlify.', 'project:website');
    });
    after(() => rmSync(work, { recursive: true, force: true }));

    const hook = (stdin: 'pipe' | number) =>
      spawn(process.execPath, [bin, 'hook', 'claude-code', '--home', home], {
        env,
        cwd: repo,
        stdio: [stdin, 'pipe', 'pipe'],
      });
    const finished = (child: ReturnType<typeof hook>) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        let stdout = '';
        let stderr = '';
        child.stdout?.on('data', (b: Buffer) => {
          stdout += b.toString('utf8');
        });
        child.stderr?.on('data', (b: Buffer) => {
          stderr += b.toString('utf8');
        });
        child.on('close', (code) => resolve({ code, stdout, stderr }));
      });

    test('input arriving late is read whole: the same block as from a pipe', async () => {
      const fifo = join(work, 'stdin.fifo');
      execFileSync('mkfifo', [fifo]);
      // The hook's descriptor is non-blocking and empty when it first reads (EAGAIN): the stream takes over.
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const writer = openSync(fifo, constants.O_WRONLY);
      const late = hook(reader);
      closeSync(reader);
      const done = finished(late);
      setTimeout(() => {
        writeSync(writer, input('late-1'));
        closeSync(writer);
      }, 300);
      const got = await done;
      assert.deepEqual([got.code, got.stderr], [0, '']);
      const piped = spawnSync(process.execPath, [bin, 'hook', 'claude-code', '--home', home], {
        env,
        cwd: repo,
        input: input('piped-1'),
        encoding: 'utf8',
      });
      assert.equal(piped.status, 0);
      assert.match(context(got.stdout), /staging branch first/);
      assert.doesNotMatch(context(got.stdout), /Netlify/, 'I4: another project is not shown');
      assert.equal(context(got.stdout), context(piped.stdout), 'control: a piped run shows the same block');
    });

    test('a reader that went away: exit 0, nothing on stderr, the call still audited', async () => {
      const child = hook('pipe');
      child.stdout?.destroy();
      child.stdin?.end(input('gone-1'));
      const got = await finished(child);
      assert.deepEqual([got.code, got.stderr], [0, '']);
      const audit = JSON.parse(
        execFileSync(
          process.execPath,
          [
            bin,
            'audit',
            '--home',
            home,
            '--principal',
            'agent:claude-code',
            '--operation',
            'context',
            '--json',
          ],
          { env, encoding: 'utf8' },
        ),
      ) as { records: { outcome: string; sessionId: string | null }[] };
      assert.ok(
        audit.records.some((r) => r.outcome === 'ok' && r.sessionId === 'gone-1'),
        'the session start was recorded',
      );
    });

    test('an empty input prints nothing and exits 0', () => {
      const empty = spawnSync(process.execPath, [bin, 'hook', 'claude-code', '--home', home], {
        env,
        cwd: repo,
        input: '',
        encoding: 'utf8',
      });
      assert.deepEqual([empty.status, empty.stdout, empty.stderr], [0, '', '']);
    });
  },
);
