/**
 * I2 with I4: a write that loses a race for a key is told `conflict`, naming the winner only to a caller that
 * may read the scope. The race is real: a rival lands on the key inside the write's own transaction, after the
 * ledger looked for a holder and before it inserts, so the store's unique index refuses the write.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Ledger, MemoryError, openLedger } from '../../src/index.ts';
import { acquireConnections } from '../../src/store/sqlite/open-homes.ts';
import { newId } from '../../src/model/ids.ts';
import { nowIso } from '../../src/model/time.ts';
import type { Store, StoreTx } from '../../src/store/port.ts';
import { buildPolicy, storeCounts } from '../conformance/helpers.ts';

const POLICY = buildPolicy({
  principals: {
    'agent:w': { roles: ['reader', 'writer'], grants: ['project:x:w'] },
    'agent:rw': { roles: ['reader', 'writer'], grants: ['project:x:rw'] },
  },
  default: 'allow',
});

/** Forwards to `target`, with its methods bound to it (the store keeps its state in private fields). */
function forward<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, prop) {
      if (prop in overrides) return overrides[prop as keyof T];
      const value = Reflect.get(t, prop, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

/** A store in which every active write of `key` meets a rival that took the key a moment earlier. */
function racing(store: Store, key: string, rivals: string[]): Store {
  return forward(store, {
    transaction: <T>(fn: (tx: StoreTx) => Promise<T>) =>
      store.transaction((tx) =>
        fn(
          forward(tx, {
            insertMemory: async (memory) => {
              if (memory.key === key && memory.state === 'active') {
                const rival = newId('mem');
                rivals.push(rival);
                await tx.insertMemory({
                  ...memory,
                  id: rival,
                  body: 'the rival',
                  fingerprint: `rival-${rival}`,
                });
              }
              await tx.insertMemory(memory);
            },
          }),
        ),
      ),
  });
}

test('I4 scope: a write-only grant that loses a race for a key is not told the winner; a reader is', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-race-'));
  const plain = openLedger({ home, policy: POLICY });
  const connections = acquireConnections(home, undefined);
  const rivals: string[] = [];
  const ledger = new Ledger(
    home,
    { ...connections, store: racing(connections.store, 'race.key', rivals) },
    POLICY,
    nowIso,
  );
  try {
    const counts = await storeCounts(plain);
    const attempt = async (who: string) => {
      const session = ledger.as(ledger.principal(who));
      try {
        await session.remember({ body: `Race entry of ${who}`, scope: 'project:x', key: 'race.key' });
      } catch (error) {
        assert.ok(error instanceof MemoryError);
        return error;
      }
      assert.fail(`${who}: expected a conflict`);
    };

    const blind = await attempt('agent:w');
    assert.equal(blind.class, 'conflict');
    assert.ok(!blind.message.includes(rivals[0]!), blind.message);
    assert.equal(blind.details.winner, undefined);
    assert.equal(blind.cause, undefined, 'no cause to read the winner off');
    assert.ok(!JSON.stringify(blind).includes(rivals[0]!));

    // Control: a caller that reads project:x is told who won, by the store's own message.
    const seen = await attempt('agent:rw');
    assert.equal(seen.class, 'conflict');
    assert.equal(seen.details.winner, rivals[1]);
    assert.ok(seen.message.includes(rivals[1]!), seen.message);

    assert.deepEqual(await storeCounts(plain), counts, 'both transactions rolled back, rivals included');
    // Control: without the rival, the same write-only write lands.
    const lands = await plain
      .as(plain.principal('agent:w'))
      .remember({ body: 'Race entry, no rival', scope: 'project:x', key: 'race.key' });
    assert.equal(lands.state, 'active');
  } finally {
    connections.release();
    ledger.close();
    plain.close();
    rmSync(home, { recursive: true, force: true });
  }
});
