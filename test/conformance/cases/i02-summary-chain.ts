/**
 * I2 one successor, for summary chains: a summary has at most one live next summary, and a chain at most one
 * live summary per cutoff, by unique indexes (never check-then-insert), tested below the ledger's own checks.
 */
import { describe, test } from 'node:test';
import type { Ledger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError } from '../helpers.ts';

/** A link as the ledger would write it, planted through the store port. */
const link = (memoryId: string, previous: string | null, cutoff: string) => ({
  memoryId,
  chain: 'c',
  previous,
  after: null,
  cutoff,
  covers: [],
  createdAt: cutoff,
  staleAt: null,
});

async function chainWithFirst(ledger: Ledger) {
  const me = ledger.as(ledger.operator());
  await me.summaries.create({ name: 'c', scope: 'shared' });
  await me.remember({ body: 'Something to summarise', scope: 'shared' });
  const w = await me.summaries.next({ chain: 'c' });
  const first = await me.summaries.add({ chain: 'c', until: w.until!, body: 'The first summary' });
  const a = await me.remember({ body: 'Candidate summary A', scope: 'shared', kind: 'summary' });
  const b = await me.remember({ body: 'Candidate summary B', scope: 'shared', kind: 'summary' });
  return { first, a: a.id, b: b.id, cutoff: w.until! };
}

export function summaryChainCases(factory: ConformanceFactory): void {
  describe('I2 one successor in a summary chain', () => {
    test('I2 one successor: two summaries with one previous conflict; the first stays the only next link', () =>
      withHome(factory, async ({ ledger }) => {
        const { first, a, b } = await chainWithFirst(ledger);
        await ledger.store.transaction((tx) =>
          tx.commitments.insertLink(link(a, first.id, '2099-01-01T00:00:00.000Z')),
        );
        await expectError(
          ledger.store.transaction((tx) =>
            tx.commitments.insertLink(link(b, first.id, '2099-01-02T00:00:00.000Z')),
          ),
          'conflict',
        );
        const links = await ledger.store.commitments.links('c');
        const next = links.filter((l) => l.previous === first.id).map((l) => l.memoryId);
        if (next.length !== 1 || next[0] !== a)
          throw new Error(`expected only ${a} after ${first.id}, got ${next}`);
      }));

    test('I2 one successor: the same cutoff twice in a chain conflicts, and a second first summary does too', () =>
      withHome(factory, async ({ ledger }) => {
        const { first, a, b, cutoff } = await chainWithFirst(ledger);
        await expectError(
          ledger.store.transaction((tx) => tx.commitments.insertLink(link(a, first.id, cutoff))),
          'conflict',
          'same cutoff',
        );
        await expectError(
          ledger.store.transaction((tx) =>
            tx.commitments.insertLink(link(b, null, '2099-01-01T00:00:00.000Z')),
          ),
          'conflict',
          'a second first summary',
        );
        const links = await ledger.store.commitments.links('c');
        if (links.length !== 1) throw new Error(`expected one link, got ${links.length}`);
      }));
  });
}
