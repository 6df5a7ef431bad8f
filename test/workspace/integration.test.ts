/**
 * What the engine and the real snapshots must get right together, in one process: an erasure that arrives while
 * an agent's batch holds the local file waits for it instead of failing on the lock, and a killed batch's journal
 * on a restored file is rolled back by the next call and holds no erased text after an erasure. Each with its
 * control row.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Ledger, openLedger } from '../../src/index.ts';
import { filesContaining } from '../conformance/helpers.ts';
import { storedBytes } from './snapshot-helpers.ts';

const ZED = 'person:zed@example.com';
const SETUP = [
  'CREATE TABLE t (subject TEXT, note TEXT)',
  `INSERT INTO t VALUES ('${ZED}', 'zed-note-text')`,
  "INSERT INTO t VALUES ('person:ctl', 'control-note')",
];

async function withLedger(fn: (ledger: Ledger, home: string) => Promise<void>, timeoutMs: number) {
  const home = mkdtempSync(join(tmpdir(), 'memledger-ws-integration-'));
  const ledger = openLedger({ home, workspaceLimits: { timeoutMs } });
  try {
    await fn(ledger, home);
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** Resolves once `path` exists: the batch's write transaction has begun (SQLite made its journal). */
async function until(path: string): Promise<void> {
  while (!existsSync(path)) await new Promise((r) => setTimeout(r, 5));
}

test('an erasure during a running batch of the same process waits for it; the subject goes, the batch and control stay', () =>
  withLedger(async (ledger) => {
    const bot = ledger.as(ledger.principal('agent:bot'));
    await bot.workspaceSql({ statements: SETUP });
    const journal = `${ledger.workspaceFiles.pathOf('agent:bot')}-journal`;
    const batch = bot.workspaceSql({
      statements: [
        "INSERT INTO t VALUES ('person:new', 'batch-row')",
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000000) SELECT count(*) FROM c',
      ],
    });
    await until(journal);
    const erased = await ledger.as(ledger.operator()).erase({ subject: ZED });
    assert.equal((await batch).committed, true, 'the batch committed');
    assert.equal(erased.workspaces?.rows, 1, 'the erasure deleted the subject row');
    const rows = await bot.workspaceSql({ statements: ['SELECT subject FROM t ORDER BY subject'] });
    assert.deepEqual(rows.results[0]!.rows, [['person:ctl'], ['person:new']]);
    const bytes = await storedBytes(ledger, 'agent:bot');
    assert.ok(bytes !== null && !bytes.includes(Buffer.from('zed-note-text')), 'gone from the snapshot');
    assert.ok(bytes.includes(Buffer.from('control-note')), 'the control stays in the snapshot');
  }, 60_000));

test("a killed batch's journal on a restored file: the next call rolls it back, and an erasure leaves its text in no workspace file", () =>
  withLedger(async (ledger, home) => {
    const bot = ledger.as(ledger.principal('agent:bot'));
    await bot.workspaceSql({ statements: SETUP });
    // A second ledger on the home makes the first restore: its local copy is dropped by the other's commit.
    const other = openLedger({ home });
    try {
      const o = other.as(other.principal('agent:bot'));
      await o.workspaceSql({ statements: ["INSERT INTO t VALUES ('person:ctl', 'second-control')"] });
    } finally {
      other.close();
    }
    const killed = await bot
      .workspaceSql({
        statements: [
          "UPDATE t SET note = note || '-changed'",
          'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
        ],
      })
      .then(
        () => ({ class: 'committed' }),
        (error: unknown) => error as { class: string },
      );
    assert.equal(killed.class, 'invalid_input', 'the runaway was stopped');
    const journal = `${ledger.workspaceFiles.pathOf('agent:bot')}-journal`;
    assert.ok(existsSync(journal), 'setup: the killed batch left its journal');
    assert.notDeepEqual(
      filesContaining(join(home, 'workspaces'), 'zed-note-text'),
      [],
      'setup: text on disk',
    );

    const after = await bot.workspaceSql({ statements: ['SELECT note FROM t ORDER BY rowid'] });
    assert.deepEqual(
      after.results[0]!.rows,
      [['zed-note-text'], ['control-note'], ['second-control']],
      'the killed update was rolled back, the restored rows stay',
    );
    await ledger.as(ledger.operator()).erase({ subject: ZED });
    assert.deepEqual(
      filesContaining(join(home, 'workspaces'), 'zed-note-text'),
      [],
      'no workspace file holds it',
    );
    assert.notDeepEqual(
      filesContaining(join(home, 'workspaces'), 'control-note'),
      [],
      'the control is on disk',
    );
  }, 4_000));
