/**
 * Opening homes: created owner-only with the default policy, and narrowed to owner-only on every open whatever
 * the umask or the modes found; several ledgers on one home in one process share connections.
 */
import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import { DEFAULT_POLICY_DOCUMENT, openLedger } from '../../src/index.ts';

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

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

/** The mode of the home and of every file in it, by name. */
function modes(home: string): Record<string, string> {
  const out: Record<string, string> = { '.': mode(home) };
  for (const name of readdirSync(home)) out[name] = mode(join(home, name));
  return out;
}

/** Opens the home the ways memledger does (ledger and token store), writes to all three databases, closes. */
async function useHome(home: string): Promise<Record<string, string>> {
  const ledger = openLedger({ home });
  const tokens = openTokenStore(home);
  try {
    await ledger.as(ledger.operator()).remember({ body: 'Modes are owner-only', scope: 'shared' });
    tokens.create({ name: 'probe', kind: 'service' });
    // Read while open: the -wal and -shm files exist only while a connection does.
    return modes(home);
  } finally {
    tokens.close();
    ledger.close();
  }
}

test('a home that existed with 0755, opened under umask 000, is made 0700 and every file in it 0600, on every open', async () => {
  const root = mkdtempSync(join(tmpdir(), 'ml-modes-'));
  const home = join(root, 'home');
  const umask = process.umask(0o000);
  try {
    mkdirSync(home, { mode: 0o755 });
    chmodSync(home, 0o755);
    writeFileSync(join(home, 'policy.json'), JSON.stringify(DEFAULT_POLICY_DOCUMENT), { mode: 0o644 });
    chmodSync(join(home, 'policy.json'), 0o644);
    assert.equal(mode(home), '755', 'control: the directory starts wide');

    const first = await useHome(home);
    const expected = Object.fromEntries(
      Object.keys(first).map((name) => [name, name === '.' ? '700' : '600']),
    );
    for (const file of ['memory.db', 'audit.db', 'auth.db', 'policy.json']) assert.ok(file in first, file);
    for (const db of ['memory.db', 'audit.db', 'auth.db']) {
      for (const companion of ['-wal', '-shm']) assert.ok(`${db}${companion}` in first, `${db}${companion}`);
    }
    assert.deepEqual(first, expected);

    // Widen everything again, as a careless copy or another tool might: the next open narrows it all back.
    chmodSync(home, 0o755);
    for (const name of readdirSync(home)) chmodSync(join(home, name), 0o644);
    assert.equal(mode(join(home, 'memory.db')), '644', 'control: widened');
    const second = await useHome(home);
    assert.deepEqual(
      second,
      Object.fromEntries(Object.keys(second).map((name) => [name, name === '.' ? '700' : '600'])),
    );
  } finally {
    process.umask(umask);
    rmSync(root, { recursive: true, force: true });
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
