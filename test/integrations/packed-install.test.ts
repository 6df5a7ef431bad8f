/**
 * memledger installed the way a user installs it: `npm pack` (its prepack and prepare build dist/ and the console)
 * in a copy of this checkout, `npm install -g --prefix TMP` of the tarball, then the installed `memledger` with the
 * pinned Node 24 first on PATH: --version, the demo, MCP over stdio with the SDK client, and `serve` answering
 * /healthz and the console. The tarball ships what runs (dist, bin, the console) and no tests or TypeScript
 * source; on the machine's older Node the installed command and the installed library both say what to install.
 * Skipped only when npm is not on PATH (CI has it).
 */
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { operatorToken } from '../cli/helpers.ts';
import { olderNode } from '../cli/older-node.ts';

const REPO = new URL('../../', import.meta.url).pathname;
const NODE_BIN = dirname(process.execPath);

function findNpm(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}
const npm = findNpm();

/** An environment with the pinned Node 24 first on PATH, and none of the npm_* settings of an `npm test` run. */
function envWith(pathFirst: string[]): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('npm_') && !k.startsWith('MEMLEDGER_') && k !== 'NODE_OPTIONS') env[k] = v;
  }
  env.PATH = [...pathFirst, process.env.PATH ?? ''].join(delimiter);
  return env;
}

describe(
  'the packed tarball installed with npm install -g',
  { skip: npm === undefined ? 'npm is not on PATH' : false },
  () => {
    let work: string;
    let tarball: string;
    let prefix: string;
    let installedBin: string;
    let env: NodeJS.ProcessEnv;
    let packed: string[];

    before(() => {
      work = mkdtempSync(join(tmpdir(), 'memledger-pack-'));
      // A copy of the checkout, so packing (which builds into dist/) never touches the dist/ other tests read.
      const copy = join(work, 'checkout');
      mkdirSync(copy);
      for (const entry of [
        'package.json',
        'README.md',
        'LICENSE',
        'bin',
        'src',
        'scripts',
        'tsconfig.json',
        'tsconfig.build.json',
      ]) {
        cpSync(join(REPO, entry), join(copy, entry), { recursive: true });
      }
      symlinkSync(realpathSync(join(REPO, 'node_modules')), join(copy, 'node_modules'));
      const out = join(work, 'pack');
      mkdirSync(out);
      const buildEnv = envWith([NODE_BIN, join(copy, 'node_modules', '.bin')]);
      execFileSync(npm!, ['pack', '--pack-destination', out, '--silent'], {
        cwd: copy,
        env: buildEnv,
        stdio: 'pipe',
      });
      const [name] = readdirSync(out).filter((f) => f.endsWith('.tgz'));
      assert.ok(name, 'npm pack wrote a tarball');
      tarball = join(out, name);
      packed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n');
      prefix = join(work, 'prefix');
      execFileSync(
        npm!,
        [
          'install',
          '-g',
          '--prefix',
          prefix,
          '--prefer-offline',
          '--no-audit',
          '--no-fund',
          '--loglevel=error',
          tarball,
        ],
        { cwd: work, env: envWith([NODE_BIN]), stdio: 'pipe' },
      );
      installedBin = join(prefix, 'bin', 'memledger');
      // The installed command runs whichever `node` PATH names first: here the pinned Node 24.
      env = envWith([NODE_BIN, join(prefix, 'bin')]);
    });

    after(() => {
      if (work !== undefined) rmSync(work, { recursive: true, force: true });
    });

    test('the tarball ships dist, bin, the built console, README and LICENSE, and no tests, sources or maps', () => {
      for (const needed of [
        'package/package.json',
        'package/bin/memledger.js',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/surfaces/cli/main.js',
        'package/dist/web/index.html',
        'package/README.md',
        'package/LICENSE',
      ]) {
        assert.ok(packed.includes(needed), `${needed} is in the tarball`);
      }
      assert.ok(
        packed.some((p) => p.startsWith('package/dist/web/assets/')),
        'the console assets are in it',
      );
      const stray = packed.filter(
        (p) =>
          p.startsWith('package/src/') ||
          p.startsWith('package/test/') ||
          p.endsWith('.map') ||
          (p.endsWith('.ts') && !p.endsWith('.d.ts')),
      );
      assert.deepEqual(stray, [], 'nothing but what runs');
    });

    test('memledger --version and -v print the package version', () => {
      const version = execFileSync(installedBin, ['--version'], { env, encoding: 'utf8' });
      assert.equal(
        version.trim(),
        `memledger ${JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })).version}`,
      );
      assert.equal(execFileSync(installedBin, ['-v'], { env, encoding: 'utf8' }), version);
    });

    test('memledger demo runs to the end without a terminal', () => {
      const demo = spawnSync(installedBin, ['demo'], {
        env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(demo.status, 0, demo.stderr);
      assert.match(demo.stdout, /erase/i);
      const home = /rm -rf (\S+)/.exec(demo.stdout)?.[1];
      if (home !== undefined) rmSync(home, { recursive: true, force: true });
    });

    test('memledger mcp answers the SDK client: a memory saved through it is found again', async () => {
      const home = join(work, 'mcp-home');
      const transport = new StdioClientTransport({
        command: installedBin,
        args: ['mcp', '--home', home, '--as', 'agent:packed'],
        env: env as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'packed-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        assert.ok(tools.includes('save_memory') && tools.includes('search_memory'), tools.join(', '));
        const saved = await client.callTool({
          name: 'save_memory',
          arguments: { body: 'The packed build serves MCP over stdio', scope: 'agent:packed' },
        });
        assert.notEqual(saved.isError, true, JSON.stringify(saved.content));
        const found = await client.callTool({ name: 'search_memory', arguments: { query: 'packed build' } });
        assert.notEqual(found.isError, true, JSON.stringify(found.content));
        assert.match(JSON.stringify(found), /The packed build serves MCP over stdio/);
      } finally {
        await client.close();
      }
    });

    /** The installed command on a home of its own, with the judging verbs' human token when `judge` is set. */
    async function installed(home: string, args: string[], judge = false) {
      const run = spawnSync(installedBin, [...args, '--home', home], {
        env: judge ? { ...env, MEMLEDGER_TOKEN: await operatorToken(home) } : env,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      assert.equal(run.status, 0, `memledger ${args.join(' ')}: ${run.stderr}`);
      return run.stdout;
    }

    // Each of the next three starts a worker or a child from a file beside its module: a path the build does
    // not rewrite, so from an installed package it must name the `.js` it ships (it named the `.ts` once).
    test('no built module names a .ts file beside it by URL (a worker, a child, a probed module)', () => {
      const dist = join(prefix, 'lib', 'node_modules', 'memledger', 'dist');
      const files = (readdirSync(dist, { recursive: true }) as string[]).filter((f) => f.endsWith('.js'));
      assert.ok(files.includes(join('embed', 'local.js')), 'control: the built modules are read');
      const offenders = files.filter((f) =>
        /new URL\(\s*[`'"]\.{1,2}\/[^`'"]*\.ts[`'"]/.test(readFileSync(join(dist, f), 'utf8')),
      );
      assert.deepEqual(offenders, []);
    });

    test('the installed search embeds with the optional local model: a paraphrase with no shared word is found', async () => {
      const modules = join(prefix, 'lib', 'node_modules', 'memledger', 'node_modules', '@energetic-ai');
      assert.deepEqual(
        readdirSync(modules).sort(),
        ['core', 'embeddings', 'model-embeddings-en'],
        'control: npm installed the optional packages with the tarball',
      );
      const home = join(work, 'embed-home');
      await installed(home, ['remember', 'Time off is requested in BambooHR, two weeks ahead.']);
      await installed(home, ['remember', 'The staging database is refreshed every Sunday night.']);
      const found = JSON.parse(await installed(home, ['search', 'vacation planning', '--json'])) as {
        hits: { memory: { body: string }; why: { vector?: number } }[];
        vectors: { used: boolean; pending: number; reason?: string };
      };
      assert.equal(found.vectors.used, true, `vectors used (${found.vectors.reason ?? ''})`);
      assert.equal(found.vectors.pending, 0);
      assert.match(
        found.hits[0]?.memory.body ?? '',
        /BambooHR/,
        'found by its meaning, with no word in common',
      );
      assert.equal(typeof found.hits[0]?.why.vector, 'number');
    });

    test("the installed workspace engine runs an agent's SQL in its child process", async () => {
      const home = join(work, 'workspace-home');
      await installed(home, ['init']);
      const out = await installed(home, [
        'workspace',
        'sql',
        "CREATE TABLE leads (subject TEXT, stage TEXT); INSERT INTO leads VALUES ('acme', 'won'); SELECT stage FROM leads",
        '--as',
        'agent:packed',
        '--json',
      ]);
      assert.match(out, /"won"/);
    });

    test("the installed behavior sources run their read-only SQL in a child: the window holds the source's rows", async () => {
      const home = join(work, 'behavior-home');
      await installed(home, ['init']);
      const file = join(work, 'digest.toml');
      writeFileSync(
        file,
        [
          'name = "digest"',
          'prompt = "Summarise the new decisions."',
          'settleSeconds = 0',
          '[[triggers]]',
          'type = "event"',
          'kinds = ["decision"]',
          '[reads]',
          'scopes = ["shared"]',
          '[writes]',
          'kinds = ["note"]',
          'scopes = ["agent:packed"]',
          '[[sources]]',
          'name = "decisions"',
          'sql = "SELECT body FROM memories WHERE kind = \'decision\'"',
          '',
        ].join('\n'),
      );
      await installed(home, ['behaviors', 'add', file], true);
      await installed(home, ['remember', '--scope', 'shared', '--kind', 'decision', 'We ship on Fridays']);
      const window = JSON.parse(
        await installed(home, ['behaviors', 'next', 'digest', '--as', 'agent:packed', '--json']),
      );
      assert.match(JSON.stringify(window.sources ?? window), /We ship on Fridays/);
      assert.doesNotMatch(JSON.stringify(window), /"error"/, 'the source ran, not failed');
    });

    test('memledger serve --port 0 answers /healthz and serves the console, not a 503', async () => {
      const home = join(work, 'serve-home');
      const child: ChildProcess = spawn(installedBin, ['serve', '--port', '0', '--home', home], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const exited = new Promise<void>((done) => child.once('exit', () => done()));
      try {
        const url = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
            const match = /serving (http:\/\/\S+)/.exec(out);
            if (match) resolve(match[1]!);
          });
          child.stderr!.on('data', (chunk: Buffer) => {
            out += chunk.toString();
          });
          child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
        });
        const health = await fetch(`${url}/healthz`);
        assert.equal(health.status, 200);
        assert.equal(((await health.json()) as { ok: boolean }).ok, true);
        const console = await fetch(`${url}/`);
        assert.equal(console.status, 200, 'the console shipped in dist/web');
        assert.match(await console.text(), /<html/i);
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });

    test('the installed hook runs from its bundle: a SessionStart block with the project only; other calls go to dist/', () => {
      assert.ok(packed.includes('package/dist/hook.cjs'), 'the hook bundle is in the tarball');
      assert.ok(!packed.includes('package/dist/hook.js'), 'and no ES module bundle of an earlier build');
      assert.ok(
        packed.includes('package/dist/ledger/context/cl100k-table.bin'),
        'the prebuilt token table too',
      );
      const home = join(work, 'hook-home');
      const remember = (body: string, scope: string) =>
        execFileSync(installedBin, ['remember', body, '--scope', scope, '--home', home, '--json'], { env });
      remember('Deploys go through the staging branch first.', 'project:acme-api');
      remember('The marketing site deploys from Netlify.', 'project:website');
      const repo = join(work, 'repos', 'acme-api');
      mkdirSync(join(repo, '.git'), { recursive: true });
      const input = JSON.stringify({
        session_id: 's-1',
        cwd: repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      });
      const hook = spawnSync(installedBin, ['hook', 'claude-code', '--home', home], {
        env,
        input,
        encoding: 'utf8',
      });
      assert.deepEqual([hook.status, hook.stderr], [0, '']);
      const context = (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } })
        .hookSpecificOutput.additionalContext;
      assert.match(context, /staging branch first/);
      assert.doesNotMatch(context, /Netlify/, 'I4: another project is not shown');
      // The installed hook exits as soon as its output is flushed: its writes landed first. I8: its call is in
      // the audit; and what it showed is recorded, so the same session is not shown it again, a new one is.
      const audit = JSON.parse(
        execFileSync(
          installedBin,
          ['audit', '--home', home, '--principal', 'agent:claude-code', '--operation', 'context', '--json'],
          { env, encoding: 'utf8' },
        ),
      ) as { records: { outcome: string; sessionId: string | null }[] };
      assert.deepEqual(
        audit.records.map((r) => [r.outcome, r.sessionId]),
        [['ok', 's-1']],
      );
      const again = (session: string) =>
        spawnSync(installedBin, ['hook', 'claude-code', '--home', home], {
          env,
          input: input.replace('"s-1"', JSON.stringify(session)),
          encoding: 'utf8',
        }).stdout;
      assert.doesNotMatch(again('s-1'), /staging branch first/, 'the session was shown it once');
      assert.match(again('s-2'), /staging branch first/, 'control: a new session is shown it');
      // The bundle takes the hook on a home and nothing else: the whole CLI in dist/ answers the rest.
      const bundle = join(prefix, 'lib', 'node_modules', 'memledger', 'dist', 'hook.cjs');
      const taken = spawnSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const { runHookCli } = await import(${JSON.stringify(bundle)});
           const io = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {}, interactive: false, stdinIsTTY: false };
           const answers = [];
           for (const argv of [['search', 'x'], ['hook', 'claude-code', '--store', 'postgres://db.invalid/m']]) answers.push(await runHookCli(argv, io));
           console.log(JSON.stringify(answers));`,
        ],
        { env, encoding: 'utf8', input: '' },
      );
      assert.equal(taken.status, 0, taken.stderr);
      assert.equal(taken.stdout.trim(), '[null,null]');
    });

    test('the installed hook keeps a code cache of its bundle, private to the user; a corrupt or unsafe one changes nothing', () => {
      const home = join(work, 'cache-home');
      execFileSync(
        installedBin,
        ['remember', 'Releases are tagged on main.', '--scope', 'project:cached', '--home', home],
        {
          env,
        },
      );
      const repo = join(work, 'repos', 'cached');
      mkdirSync(join(repo, '.git'), { recursive: true });
      const compileCache = join(work, 'compile-cache');
      const hookEnv = { ...env, NODE_COMPILE_CACHE: compileCache };
      let session = 0;
      const hook = () => {
        const run = spawnSync(installedBin, ['hook', 'claude-code', '--home', home], {
          env: hookEnv,
          encoding: 'utf8',
          input: JSON.stringify({
            session_id: `c-${++session}`,
            cwd: repo,
            hook_event_name: 'SessionStart',
            source: 'startup',
          }),
        });
        assert.deepEqual([run.status, run.stderr], [0, '']);
        return (JSON.parse(run.stdout) as { hookSpecificOutput: { additionalContext: string } })
          .hookSpecificOutput.additionalContext;
      };
      const caches = () =>
        readdirSync(compileCache, { recursive: true, encoding: 'utf8' })
          .filter((f) => /(^|\/)memledger\/hook-[0-9a-f]{32}\.v8$/.test(f))
          .map((f) => join(compileCache, f));
      const first = hook();
      assert.match(first, /Releases are tagged on main/);
      const [cache, ...more] = caches();
      assert.ok(cache !== undefined && more.length === 0, 'one cache file, written after the first run');
      assert.equal(statSync(dirname(cache)).mode & 0o777, 0o700, 'in a directory only this user may use');
      assert.equal(statSync(cache).mode & 0o777, 0o600);
      const written = readFileSync(cache);
      assert.ok(written.length > 100_000, `a cache of the run's code (${written.length} bytes)`);
      assert.equal(hook(), first, 'the cached run answers the same');
      assert.deepEqual(readFileSync(cache), written, 'and leaves a good cache alone');
      // A cache that is not V8's: refused by V8, the hook answers the same, and the cache is made again.
      writeFileSync(cache, Buffer.alloc(written.length, 7));
      assert.equal(hook(), first, 'a corrupt cache changes nothing');
      const remade = readFileSync(cache);
      assert.ok(remade.length > 100_000 && remade.some((b) => b !== 7), 'and is replaced by a good one');
      // A directory others may write into is not used at all: nothing read, nothing written there.
      rmSync(cache);
      chmodSync(dirname(cache), 0o777);
      assert.equal(hook(), first, 'no cache, the same answer');
      assert.deepEqual(caches(), [], 'and no cache written where others could have written one');
    });

    test('on an older Node the installed command and the installed library both name Node.js 24', (t) => {
      const old = olderNode();
      if (old === undefined) {
        t.skip('no Node.js older than 24 on this machine');
        return;
      }
      const oldEnv = envWith([dirname(old.path), join(prefix, 'bin')]);
      const cmd = spawnSync(installedBin, ['search', 'x'], { env: oldEnv, encoding: 'utf8' });
      assert.equal(cmd.status, 1);
      assert.match(cmd.stderr, /memledger needs Node\.js 24 or newer; this is Node\.js v\d+/);
      assert.match(cmd.stderr, /https:\/\/nodejs\.org/);
      assert.doesNotMatch(cmd.stderr, /npx|npm scripts/);
      const library = join(prefix, 'lib', 'node_modules', 'memledger', 'dist', 'index.js');
      const imported = spawnSync(
        old.path,
        ['--input-type=module', '-e', `await import(${JSON.stringify(library)})`],
        {
          env: oldEnv,
          encoding: 'utf8',
        },
      );
      assert.notEqual(imported.status, 0);
      assert.match(imported.stderr, /memledger needs Node\.js 24 or newer/);
      assert.doesNotMatch(imported.stderr, /ERR_UNKNOWN_BUILTIN_MODULE/);
    });
  },
);
