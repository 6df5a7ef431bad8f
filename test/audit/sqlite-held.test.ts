/**
 * audit.db's held records (sqlite-audit.ts), seen from a second connection as another process would see them: a
 * write call's record may wait for its batch, a refusal's or a read's never does, and a writer killed with
 * records held gets them back from the outbox on the next open, once each (I8, I13).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { type AuditRecord, openLedger } from '../../src/index.ts';
import { expectError, startWriter } from '../conformance/helpers.ts';

/** What audit.db holds right now, read by a connection of its own: `operation:outcome:targets`, in order. */
function onDisk(home: string): string[] {
  const db = new DatabaseSync(join(home, 'audit.db'), { readOnly: true });
  try {
    const rows = db.prepare('SELECT operation, outcome, targets FROM audit ORDER BY seq').all() as {
      operation: string;
      outcome: string;
      targets: string;
    }[];
    return rows.map((r) => `${r.operation}:${r.outcome}:${(JSON.parse(r.targets) as string[]).join(',')}`);
  } finally {
    db.close();
  }
}

function outboxIds(home: string): string[] {
  const db = new DatabaseSync(join(home, 'memory.db'), { readOnly: true });
  try {
    return (db.prepare('SELECT id FROM audit_outbox').all() as { id: string }[]).map((r) => r.id);
  } finally {
    db.close();
  }
}

const withHome = async (fn: (home: string) => Promise<void>) => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-held-'));
  try {
    await fn(home);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

test('I8 audit (sqlite): a refusal and a read are in audit.db when they return, with the write records held before them', () =>
  withHome(async (home) => {
    const ledger = openLedger({ store: home });
    try {
      const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'mcp' });
      const first = await agent.remember({ body: 'Deploys happen on Tuesdays', scope: 'agent:bot' });
      assert.deepEqual(onDisk(home), [], 'control: the write record is held, its outbox row covers it');
      assert.equal(outboxIds(home).length, 1, 'control: the outbox row is committed');
      await expectError(agent.remember({ body: 'Not my scope', scope: 'user:zed' }), 'permission');
      assert.deepEqual(
        onDisk(home),
        [`remember:ok:${first.id}`, 'remember:error:'],
        'the refusal is written before it returns, behind the write it followed',
      );
      const second = await agent.remember({ body: 'Deploys happen on Fridays', scope: 'agent:bot' });
      await agent.search({ query: 'deploys' });
      assert.deepEqual(
        onDisk(home)
          .slice(2)
          .map((r) => r.replace(/^search:ok:.*/, 'search:ok')),
        [`remember:ok:${second.id}`, 'search:ok'],
        'so is a read',
      );
      await agent.remember({ body: 'The outbox row of the first goes with this commit', scope: 'agent:bot' });
      assert.equal(
        outboxIds(home).length,
        1,
        'only the newest write, not yet written to audit.db, keeps a row',
      );
    } finally {
      await ledger.close();
    }
    assert.deepEqual(outboxIds(home), [], 'at close the held record is written and its row deleted');
    assert.equal(onDisk(home).length, 5);
  }));

test('I8 audit (sqlite): a writer SIGKILLed with records held gets them back once from the outbox; those its batches wrote stay as written', () =>
  withHome(async (home) => {
    openLedger({ store: home }).close();
    const writer = startWriter(home, 'doomed', 70, { end: 'kill' });
    const exit = await writer.exited;
    assert.equal(exit.signal, 'SIGKILL', exit.stderr);
    assert.equal(writer.ids.length, 70);
    const written = onDisk(home).length;
    assert.ok(written >= 64 && written < 70, `batches of 16 reached audit.db before the kill (${written})`);
    assert.equal(outboxIds(home).length, 70 - written, 'every held record has its row');
    for (let i = 0; i < 3; i++) {
      const ledger = openLedger({ store: home });
      let records: AuditRecord[];
      try {
        records = await ledger.as(ledger.operator()).audit({ principal: 'agent:doomed', limit: 1000 });
      } finally {
        await ledger.close();
      }
      assert.deepEqual(records.flatMap((r) => r.targets).sort(), [...writer.ids].sort(), 'each write once');
      const recovered = records.filter((r) => (r.argsPreview as { recovered?: boolean }).recovered === true);
      assert.equal(recovered.length, 70 - written, 'exactly the held ones come back, as recovered');
      assert.ok(recovered.every((r) => r.outcome === 'ok' && r.changes.length === 1));
    }
    assert.deepEqual(outboxIds(home), [], 'the outbox is empty once audit.db holds every record');
  }));
