/**
 * On the machine's own older Node (Debian's v20 here), every command of this checkout's `memledger` says plainly
 * that it needs Node.js 24 and how to get it, exits non-zero, and never sends the user to npx or npm scripts
 * (which loop back to the same old Node when it is the one on PATH). The library's import on an old Node is tested
 * on the installed package (test/integrations/packed-install.test.ts). Skipped when no older Node exists.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { nodeVersionProblem } from '../../src/node-version.ts';
import { BIN } from './helpers.ts';
import { olderNode } from './older-node.ts';

const old = olderNode();

test(
  'on Node older than 24 every command names Node.js 24, how to install it, and exits 1, creating nothing',
  { skip: old === undefined ? 'no Node.js older than 24 on this machine' : false },
  () => {
    const home = mkdtempSync(join(tmpdir(), 'memledger-old-node-'));
    try {
      const lines = [
        [],
        ['--version'],
        ['help'],
        ['init'],
        ['search', 'x'],
        ['serve', '--port', '0'],
        ['mcp'],
        ['demo'],
      ];
      for (const args of lines) {
        const run = spawnSync(old!.path, [BIN, ...args, '--home', join(home, 'h')], { encoding: 'utf8' });
        assert.equal(run.status, 1, `${args.join(' ')}: exit code`);
        assert.equal(run.stdout, '', `${args.join(' ')}: nothing on stdout`);
        const version = old!.version.replace(/^v/, '');
        // The executable's words are the library's words (src/node-version.ts), for the same old version.
        assert.equal(run.stderr, `${nodeVersionProblem(version)}\n`, args.join(' '));
        assert.doesNotMatch(run.stderr, /npx|npm scripts/);
      }
      assert.deepEqual(readdirSync(home), [], 'no data directory was made');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  },
);

test('the version check passes Node 24 and later and refuses 20 and 22', () => {
  assert.equal(nodeVersionProblem('24.0.0'), null);
  assert.equal(nodeVersionProblem('25.1.0'), null);
  for (const v of ['20.20.2', '22.12.0']) {
    const problem = nodeVersionProblem(v);
    assert.match(
      problem ?? '',
      new RegExp(`needs Node\\.js 24 or newer; this is Node\\.js v${v.replace(/\./g, '\\.')}`),
    );
    assert.match(problem ?? '', /nodejs\.org/);
  }
});
