/**
 * Snapshots that fail to restore are expected states (issue 11): a corrupt file is salvaged, a truncated one
 * salvaged from what decodes, a decompression bomb and unreadable bytes reset. Each outcome is audited and
 * counted, the damaged bytes are quarantined, the agent is told (tables and counts, never rows), and the next
 * call works. On every backend.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import type { Ledger } from '../../src/index.ts';
import { eachBackend, type WorkspaceHome } from './backends.ts';
import { plantSnapshot, readWorkspace, writeWorkspace, zstd } from './snapshot-helpers.ts';

const AGENT = 'agent:scout';
const SECRET_ROW = 'merganser-row-content';

/** A workspace file with a small `keep` table (page 2) and a `big` one filling the pages after it. */
function workspaceFile(): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'ml-wsfile-'));
  try {
    const path = join(dir, 'w.sqlite');
    const db = new DatabaseSync(path);
    db.exec('CREATE TABLE keep (id INTEGER PRIMARY KEY, subject TEXT, body TEXT)');
    for (let i = 0; i < 3; i++) db.prepare('INSERT INTO keep (body) VALUES (?)').run(`${SECRET_ROW} ${i}`);
    db.exec('CREATE TABLE big (id INTEGER PRIMARY KEY, subject TEXT, body TEXT)');
    const insert = db.prepare('INSERT INTO big (body) VALUES (?)');
    db.exec('BEGIN');
    for (let i = 0; i < 3000; i++) insert.run(`${SECRET_ROW} ${'x'.repeat(200)} ${i}`);
    db.exec('COMMIT');
    db.close();
    return readFileSync(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function recoveryRecords(ledger: Ledger): Promise<Record<string, unknown>[]> {
  const me = ledger.as(ledger.operator());
  const records = await me.audit({ operation: 'workspace.recovery', limit: 100 });
  return records.map((r) => r.argsPreview as Record<string, unknown>);
}

/** Plants `compressed` as the agent's snapshot, then a fresh handle checks it out. */
async function checkoutPlanted(
  h: WorkspaceHome,
  compressed: Uint8Array,
  maxBytes?: number,
  timeoutMs?: number,
) {
  await writeWorkspace(
    h.ledger,
    AGENT,
    'CREATE TABLE notes (id INTEGER PRIMARY KEY, subject TEXT, body TEXT)',
  );
  const planted = await plantSnapshot(h.ledger, AGENT, compressed);
  if (maxBytes !== undefined) process.env.MEMLEDGER_WORKSPACE_RESTORE_MAX_BYTES = String(maxBytes);
  if (timeoutMs !== undefined) process.env.MEMLEDGER_WORKSPACE_RESTORE_TIMEOUT_MS = String(timeoutMs);
  let other: Ledger;
  try {
    other = await h.reopen();
    await other.ready;
  } finally {
    delete process.env.MEMLEDGER_WORKSPACE_RESTORE_MAX_BYTES;
    delete process.env.MEMLEDGER_WORKSPACE_RESTORE_TIMEOUT_MS;
  }
  const co = await other.workspaceFiles.checkout(AGENT);
  return { other, co, planted };
}

/** What every failed restore must leave: quarantine, audit, a stored replacement, and a next call that works. */
async function assertRecovered(
  h: WorkspaceHome,
  other: Ledger,
  co: { version: number; outcome: string; notice?: string },
  planted: number,
  outcome: 'salvaged' | 'reset',
  compressed: Uint8Array,
) {
  assert.equal(co.outcome, outcome);
  assert.equal(co.version, planted + 1, 'the replacement is stored at once');
  assert.ok(co.notice?.includes(`v${planted}`), 'the agent is told');
  assert.ok(co.notice !== undefined);
  assert.ok(!co.notice.includes(SECRET_ROW), 'the notice names tables and counts, never rows');
  assert.equal(other.workspaceFiles.counts[outcome], 1, 'counted');
  const q = await h.ledger.store.workspaces.quarantined(AGENT);
  assert.equal(q?.version, planted);
  assert.deepEqual(Buffer.from(q!.bytes), Buffer.from(compressed), 'the damaged bytes are kept aside');
  const records = await recoveryRecords(h.ledger);
  assert.equal(records.length, 1, 'one audit record for the recovery');
  assert.equal(records[0]![outcome], true);
  assert.equal(records[0]!.fromVersion, planted);
  assert.ok(!JSON.stringify(records).includes(SECRET_ROW), 'the audit holds no row content');
  // The next call works: cached, writable, and the first handle restores the replacement.
  assert.equal((await other.workspaceFiles.checkout(AGENT)).outcome, 'cached');
  assert.equal(
    await writeWorkspace(other, AGENT, 'CREATE TABLE after_recovery (id INTEGER PRIMARY KEY, subject TEXT)'),
    planted + 2,
  );
  const back = await h.ledger.workspaceFiles.checkout(AGENT);
  assert.deepEqual([back.outcome, back.version], ['restored', planted + 2]);
}

eachBackend('workspace recovery', (open) => {
  test('a corrupt snapshot is quarantined and salvaged: readable tables survive, the agent is told', async () => {
    const h = await open();
    try {
      const file = workspaceFile();
      // Damage pages well past `keep` (page 2): the big table's leaves.
      randomBytes(4096 * 30).copy(file, 4096 * 40);
      const compressed = zstd(file);
      const { other, co, planted } = await checkoutPlanted(h, compressed);
      await assertRecovered(h, other, co, planted, 'salvaged', compressed);
      assert.match(co.notice!, /keep \(3 rows\)/);
      const kept = await readWorkspace(other, AGENT, 'SELECT count(*) AS n FROM keep');
      assert.deepEqual(kept, [{ n: 3 }], 'control: the readable table came through whole');
    } finally {
      await h.cleanup();
    }
  });

  test('a truncated snapshot is salvaged from what decodes', async () => {
    const h = await open();
    try {
      const whole = zstd(workspaceFile());
      const compressed = whole.subarray(0, Math.floor(whole.byteLength / 2));
      const { other, co, planted } = await checkoutPlanted(h, compressed);
      await assertRecovered(h, other, co, planted, 'salvaged', compressed);
      assert.deepEqual(await readWorkspace(other, AGENT, 'SELECT count(*) AS n FROM keep'), [{ n: 3 }]);
    } finally {
      await h.cleanup();
    }
  });

  test('a decompression bomb past the cap is reset to an empty workspace', async () => {
    const h = await open();
    try {
      const compressed = zstd(Buffer.alloc(64 * 1024 * 1024));
      assert.ok(compressed.byteLength < 64 * 1024, 'a bomb: tiny compressed, huge decompressed');
      const { other, co, planted } = await checkoutPlanted(h, compressed, 8 * 1024 * 1024);
      await assertRecovered(h, other, co, planted, 'reset', compressed);
      assert.match(co.notice!, /cap/);
      assert.deepEqual(
        await readWorkspace(
          other,
          AGENT,
          "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name",
        ),
        [{ name: 'after_recovery' }],
        'the reset workspace started empty',
      );
    } finally {
      await h.cleanup();
    }
  });

  test('bytes that are no database at all are reset; a control agent is untouched', async () => {
    const h = await open();
    try {
      await writeWorkspace(
        h.ledger,
        'agent:control',
        'CREATE TABLE c (id INTEGER PRIMARY KEY, subject TEXT)',
      );
      const compressed = zstd(randomBytes(200_000));
      const { other, co, planted } = await checkoutPlanted(h, compressed);
      await assertRecovered(h, other, co, planted, 'reset', compressed);
      const control = await other.workspaceFiles.checkout('agent:control');
      assert.deepEqual([control.outcome, control.version], ['restored', 1]);
      assert.equal(await h.ledger.store.workspaces.quarantined('agent:control'), null);
    } finally {
      await h.cleanup();
    }
  });

  test('a restore that outlives its timeout is killed and reset; the serving process carries on', async () => {
    const h = await open();
    try {
      const compressed = zstd(workspaceFile());
      // 1 ms: no child process can even start in that time, so the parent's timer always fires first.
      const { other, co, planted } = await checkoutPlanted(h, compressed, undefined, 1);
      await assertRecovered(h, other, co, planted, 'reset', compressed);
      assert.match(co.notice!, /took longer than 1 ms/);
    } finally {
      await h.cleanup();
    }
  });
});
