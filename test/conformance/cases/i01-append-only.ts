/** I1 append-only, as every backend shows it through the library and the Store port. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Memory } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { linesOf } from '../helpers.ts';

// The fields a memory's content consists of: none may change after it is written (erasure aside, I9).
const content = (m: Memory) => ({
  id: m.id,
  scope: m.scope,
  kind: m.kind,
  key: m.key,
  body: m.body,
  value: m.value,
  subjects: m.subjects,
  validFrom: m.validFrom,
  validTo: m.validTo,
  confidence: m.confidence,
  supersedes: m.supersedes,
  editOf: m.editOf,
  fingerprint: m.fingerprint,
  provenance: m.provenance,
  recordedAt: m.recordedAt,
});

export function appendOnlyCases(factory: ConformanceFactory): void {
  describe('I1 append-only', () => {
    test('I1 append-only: confirm, supersede and retract change lifecycle fields and leave content as written', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator(), { surface: 'library', sessionId: 'i1' });
        const a = await me.remember({
          body: 'The Acme renewal is due in March',
          scope: 'shared',
          key: 'acme.renewal',
          value: { month: 3 },
          subjects: ['company:acme'],
          validFrom: '2030-01-01',
        });
        const r = await me.remember({ body: 'Standup moves to 9:30', scope: 'shared' });
        const before = content(await me.get(a.id));
        const beforeR = content(await me.get(r.id));

        await me.confirm({ id: a.id });
        const b = await me.remember({
          body: 'The Acme renewal is due in April',
          scope: 'shared',
          key: 'acme.renewal',
        });
        await me.retract({ id: r.id, reason: 'standup cancelled' });

        const after = await me.get(a.id);
        assert.deepEqual(content(after), before);
        assert.equal(after.state, 'superseded');
        assert.equal(after.supersededBy, b.id);
        assert.notEqual(after.activeUntil, null);
        const afterR = await me.get(r.id);
        assert.deepEqual(content(afterR), beforeR);
        assert.equal(afterR.state, 'retracted');
        // Control: the successor is a new row, not an edit of the old one.
        assert.equal((await me.get(b.id)).body, 'The Acme renewal is due in April');
      }));

    test('I1 append-only: the store refuses a second row with an existing id and keeps the first', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({ body: 'Original content of the row', scope: 'shared' });
        const original = await me.get(a.id);
        await assert.rejects(
          ledger.store.transaction((tx) =>
            tx.insertMemory({ ...original, body: 'Replacement content', state: 'active' }),
          ),
        );
        assert.deepEqual(content(await me.get(a.id)), content(original));
      }));

    test('I1 append-only: restoring a record whose id exists skips it and leaves the content as written', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({ body: 'Imported twice is still once', scope: 'shared' });
        const original = await me.get(a.id);
        const line = JSON.stringify({ type: 'memory', memory: { ...original, body: 'Rewritten by import' } });
        const result = await me.import(linesOf([line]), { mode: 'restore' });
        assert.equal(result.skipped, 1);
        assert.equal(result.imported, 0);
        assert.equal((await me.get(a.id)).body, 'Imported twice is still once');
      }));

    test('I1 append-only: ingesting a record whose id exists writes a new memory and leaves the first as written', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const a = await me.remember({ body: 'Imported twice is still once', scope: 'shared' });
        const original = await me.get(a.id);
        const line = JSON.stringify({ type: 'memory', memory: { ...original, body: 'Rewritten by import' } });
        const result = await me.import(linesOf([line]));
        assert.equal(result.imported, 1);
        assert.equal((await me.get(a.id)).body, 'Imported twice is still once');
        const written = (await me.search({ query: 'rewritten' })).hits.filter(
          (h) => h.memory.body === 'Rewritten by import',
        );
        assert.equal(written.length, 1);
        assert.notEqual(written[0]!.memory.id, a.id, 'a new memory with its own id');
      }));
  });
}
