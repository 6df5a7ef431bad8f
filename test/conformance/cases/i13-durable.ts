/** I13 durable when acknowledged: several processes writing one home lose nothing they acknowledged. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { startWriter } from '../helpers.ts';

const WRITERS = 4;
const PER_WRITER = 150;

export function durableCases(factory: ConformanceFactory): void {
  describe('I13 durable when acknowledged', () => {
    test('I13 durable: concurrent writers in separate processes lose none of their acknowledged writes', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.processes) {
          t.skip('other processes cannot open this backend by home yet');
          return;
        }
        const me = ledger.as(ledger.operator());
        // This process writes too, while the others do.
        const writers = Array.from({ length: WRITERS }, (_, i) => startWriter(home, `w${i}`, PER_WRITER));
        const mine: string[] = [];
        for (let i = 0; i < 50; i++)
          mine.push((await me.remember({ body: `parent write ${i}`, scope: 'shared' })).id);
        const exits = await Promise.all(writers.map((w) => w.exited));
        for (const [i, e] of exits.entries()) assert.equal(e.code, 0, `writer w${i} failed: ${e.stderr}`);

        const acknowledged = [...writers.flatMap((w) => w.ids), ...mine];
        assert.equal(acknowledged.length, WRITERS * PER_WRITER + 50);
        assert.equal(new Set(acknowledged).size, acknowledged.length, 'ids are unique across processes');
        for (const id of acknowledged) assert.equal((await me.get(id)).state, 'active', id);
        for (let i = 0; i < WRITERS; i++) {
          const own = await me.list({ scopes: [`agent:w${i}`], limit: 200 });
          assert.equal(own.length, PER_WRITER, `agent:w${i} holds exactly its writes`);
          assert.ok(own.every((m) => m.provenance.sessionId === `writer-w${i}`));
        }
      }));
  });
}
