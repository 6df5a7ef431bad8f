/** Opening homes: created owner-only with the default policy; several ledgers on one home in one process share connections. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';

function tempHome(): string {
  return join(mkdtempSync(join(tmpdir(), 'ml-open-')), 'home');
}

test('a new home is owner-only and holds the default policy, memory.db and audit.db', () => {
  const home = tempHome();
  const ledger = openLedger({ home });
  try {
    assert.equal(statSync(home).mode & 0o777, 0o700);
    const policy = JSON.parse(readFileSync(join(home, 'policy.json'), 'utf8'));
    assert.equal(policy.version, 1);
    assert.ok(statSync(join(home, 'memory.db')).isFile());
    assert.ok(statSync(join(home, 'audit.db')).isFile());
  } finally {
    ledger.close();
    rmSync(join(home, '..'), { recursive: true, force: true });
  }
});

test('I13 two ledgers on one home in one process interleave writes without deadlock and lose nothing', async () => {
  const home = tempHome();
  const a = openLedger({ home });
  const b = openLedger({ home });
  try {
    const sa = a.as(a.operator());
    const sb = b.as(b.operator());
    const writes = [];
    for (let i = 0; i < 50; i++) {
      writes.push(sa.remember({ body: `from a number ${i}`, scope: 'shared' }));
      writes.push(sb.remember({ body: `from b number ${i}`, scope: 'shared' }));
    }
    const ids = (await Promise.all(writes)).map((r) => r.id);
    a.close();
    // b still works after a closed its handle.
    const listed = await sb.list({ limit: 200 });
    assert.equal(new Set(listed.map((m) => m.id)).size, 100);
    for (const id of ids) assert.ok(listed.some((m) => m.id === id));
  } finally {
    a.close();
    b.close();
    rmSync(join(home, '..'), { recursive: true, force: true });
  }
});
