/**
 * `npm start` in a checkout serves: it used to run src/surfaces/cli/main.ts, a module that only exports runCli,
 * so Node loaded it and exited 0 with nothing served. It now runs bin/memledger.js serve. Skipped only when npm
 * is not on PATH.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { test } from 'node:test';

const REPO = new URL('../../', import.meta.url).pathname;
const npm = spawnSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' });

test(
  'npm start serves the API until stopped',
  { skip: npm.status === 0 ? false : 'npm is not on PATH' },
  async () => {
    const home = mkdtempSync(join(tmpdir(), 'memledger-npm-start-'));
    const env: NodeJS.ProcessEnv = {};
    for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MEMLEDGER_')) env[k] = v;
    env.PATH = [dirname(process.execPath), process.env.PATH].join(delimiter);
    // Its own process group, so stopping it stops npm, its shell and the server together.
    const child = spawn(npm.stdout.trim(), ['start', '--silent', '--', '--port', '0', '--home', home], {
      cwd: REPO,
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        const take = (chunk: Buffer) => {
          out += chunk.toString();
          const match = /serving (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        };
        child.stdout!.on('data', take);
        child.stderr!.on('data', take);
        child.once('exit', (code) => reject(new Error(`npm start exited ${code} without serving:\n${out}`)));
      });
      const health = await fetch(`${url}/healthz`);
      assert.equal(health.status, 200);
      assert.equal(child.exitCode, null, 'still serving');
    } finally {
      if (child.exitCode === null && child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
      await exited;
      rmSync(home, { recursive: true, force: true });
    }
  },
);
