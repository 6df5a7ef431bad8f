/**
 * A fresh home opened by several processes at once (two agents' hooks at the same session start, a CLI beside a
 * server): every process opens it and writes, and policy.json is whole, never read half-written.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';

const FIXTURE = new URL('./fixtures/open-fresh.ts', import.meta.url).pathname;

function run(home: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [FIXTURE, home], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (b: Buffer) => {
      stderr += b.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

test('six processes opening one fresh home at once all write; policy.json is whole and no partial file stays', async () => {
  const base = mkdtempSync(join(tmpdir(), 'memledger-first-open-'));
  try {
    for (let round = 0; round < 4; round++) {
      const home = join(base, `home-${round}`);
      assert.equal(existsSync(home), false);
      const results = await Promise.all(Array.from({ length: 6 }, () => run(home)));
      for (const r of results) assert.equal(r.code, 0, r.stderr);
      // The policy every process read is the default, whole.
      assert.equal(typeof JSON.parse(readFileSync(join(home, 'policy.json'), 'utf8')), 'object');
      assert.deepEqual(
        readdirSync(home).filter((name) => name.endsWith('.partial')),
        [],
      );
      // Control: all six writes landed.
      const ledger = openLedger({ home });
      const listed = await ledger.as(ledger.operator()).list({ scopes: ['shared'] });
      assert.equal(listed.length, 6);
      await ledger.close();
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
