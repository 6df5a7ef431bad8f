/**
 * The README a stranger reads: every relative link resolves to a file inside this repository, every
 * `MEMLEDGER_*` variable the code reads is documented, a curl example that sends $TOKEN comes after the line
 * that sets it, and the HTTP body limit it states is the server's.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/surfaces/http/app.ts';

const REPO = resolve(new URL('../../', import.meta.url).pathname);
const README = readFileSync(join(REPO, 'README.md'), 'utf8');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

test('every relative link in the README names a file inside the repository', () => {
  const links = [...README.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((l) => !/^(https?:|#)/.test(l));
  assert.ok(links.length > 0, 'control: the README has relative links');
  for (const link of links) {
    const path = resolve(REPO, link.split('#')[0]!);
    assert.ok(!relative(REPO, path).startsWith('..'), `${link} stays inside the repository`);
    assert.ok(existsSync(path), `${link} exists`);
  }
});

test('every MEMLEDGER_* variable the code reads is documented', () => {
  const names = new Set<string>();
  for (const file of [...filesUnder(join(REPO, 'src')), join(REPO, 'bin', 'memledger.js')]) {
    for (const m of readFileSync(file, 'utf8').matchAll(/MEMLEDGER_[A-Z_]+[A-Z]/g)) names.add(m[0]);
  }
  assert.ok(names.has('MEMLEDGER_HOME'), 'control: the scan finds the variables');
  const missing = [...names].filter((n) => !README.includes(n));
  assert.deepEqual(missing, [], 'undocumented variables');
});

test('a curl example that sends $TOKEN comes after a line that sets TOKEN from token create', () => {
  const lines = README.split('\n');
  const uses = lines.map((l, i) => (/curl .*\$TOKEN/.test(l) ? i : -1)).filter((i) => i >= 0);
  assert.ok(uses.length > 0, 'control: there are curl examples');
  for (const at of uses) {
    const set = lines.slice(0, at).findLastIndex((l) => /(export )?TOKEN=\$\(memledger token create/.test(l));
    assert.ok(set >= 0, `line ${at + 1} sends $TOKEN after it was set`);
  }
});

test('the body limit the README states is the server default', () => {
  assert.equal(DEFAULT_MAX_BODY_BYTES, 256 * 1024);
  assert.match(README, /at most \*\*256 KiB\*\*/);
});
