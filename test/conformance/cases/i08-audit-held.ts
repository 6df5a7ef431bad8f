/**
 * I8 and I13 with audit records a sink holds for a batch (SQLite's audit.db, sqlite-audit.ts): a write call's
 * record is safe once its outbox row committed, so however its process ends, each acknowledged write has exactly
 * one record after the store is opened again, and every audit read of the process sees every finished call.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type AuditRecord, type Ledger, openLedger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, startWriter } from '../helpers.ts';

/** More writes than a few batches hold (16 each on SQLite), so a writer's end finds some records written and some held. */
const WRITES = 70;

export function heldAuditCases(factory: ConformanceFactory): void {
  describe('I8 audit records held for a batch', () => {
    for (const end of ['kill', 'exit'] as const) {
      test(`I8 audit: a writer that ends by ${end === 'kill' ? 'SIGKILL' : 'process.exit'} right after its writes returned, unclosed, leaves each write audited exactly once`, (t) =>
        withHome(factory, async ({ ledger, home, capabilities }) => {
          if (!capabilities.processes) {
            t.skip('other processes cannot open this backend by home yet');
            return;
          }
          const me = ledger.as(ledger.operator());
          const control = await me.remember({ body: 'A control write of this process', scope: 'shared' });
          const writer = startWriter(home, `ends-${end}`, WRITES, { end });
          const exit = await writer.exited;
          if (end === 'kill') assert.equal(exit.signal, 'SIGKILL', exit.stderr);
          else assert.equal(exit.code, 0, exit.stderr);
          assert.equal(writer.ids.length, WRITES, 'every write was acknowledged');
          ledger.close();
          for (let i = 0; i < 3; i++) {
            const records = await reopened(home, (l) => remembers(l));
            const mine = records.filter((r) => r.principal === `agent:ends-${end}`);
            assert.deepEqual(
              mine.flatMap((r) => r.targets).sort(),
              [...writer.ids].sort(),
              'one record per acknowledged write, none lost',
            );
            assert.equal(new Set(mine.map((r) => r.id)).size, WRITES, 'no record twice');
            assert.ok(
              records.some((r) => r.targets.includes(control.id)),
              'control: the write before the writer is audited',
            );
          }
        }));
    }

    test('I8 audit: an audit read right after a write sees its record, in the same ledger and in another on the store', () =>
      withHome(factory, async ({ ledger, home }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'mcp' });
        const written = await agent.remember({ body: 'Written just now', scope: 'agent:bot' });
        const [latest] = await me.audit({ principal: 'agent:bot', limit: 1 });
        assert.deepEqual(latest?.targets, [written.id], 'the write is the newest record at once');
        await expectError(agent.remember({ body: 'Not my scope', scope: 'user:zed' }), 'permission');
        const again = await agent.remember({ body: 'Written second', scope: 'agent:bot' });
        const other = openLedger({ store: home });
        try {
          const seen = await other.as(other.operator()).audit({ principal: 'agent:bot', limit: 10 });
          assert.deepEqual(
            seen.map((r) => [r.operation, r.outcome, r.targets]),
            [
              ['remember', 'ok', [again.id]],
              ['remember', 'error', []],
              ['remember', 'ok', [written.id]],
            ],
            'in call order, newest first',
          );
          const failures = await me.auditFailures();
          assert.deepEqual(
            failures.map((f) => [f.operation, f.failureClass, f.count]),
            [['remember', 'permission', 1]],
          );
        } finally {
          other.close();
        }
      }));
  });
}

async function remembers(ledger: Ledger): Promise<AuditRecord[]> {
  return ledger.as(ledger.operator()).audit({ operation: 'remember', limit: 1000 });
}

async function reopened<T>(home: string, fn: (ledger: Ledger) => Promise<T>): Promise<T> {
  const ledger = openLedger({ store: home });
  try {
    return await fn(ledger);
  } finally {
    ledger.close();
  }
}
