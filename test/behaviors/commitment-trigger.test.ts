/**
 * A behavior's `commitment` trigger fires when a commitment comes due, read through the commitments part of the
 * store: once per commitment and due time however often the scheduler ticks, never for a done or cancelled one,
 * never for one in a scope the behavior does not read, and the fired window hands the commitment to the run.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';

test('a commitment trigger fires once when a commitment comes due; done ones and unread scopes never fire', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-commitment-trigger-'));
  let now = '2026-03-02T08:00:00.000Z';
  const ledger = openLedger({ home, now: () => now });
  try {
    const me = ledger.as(ledger.operator());
    await me.behaviors.add({
      name: 'due-chaser',
      prompt: 'Chase what came due.',
      triggers: [{ type: 'commitment' }],
      reads: { scopes: ['shared'] },
      writes: { kinds: ['note'], scopes: ['shared'] },
    });
    const due = await me.commitments.add({
      body: 'Send Acme the quote',
      scope: 'shared',
      due: '2026-03-02T10:00:00Z',
    });
    const done = await me.commitments.add({
      body: 'Book the venue',
      scope: 'shared',
      due: '2026-03-02T10:30:00Z',
    });
    const elsewhere = await me.commitments.add({
      body: 'Renew the domain',
      scope: 'project:other',
      due: '2026-03-02T10:15:00Z',
    });
    await me.commitments.update({ id: done.id, status: 'done' });

    assert.equal((await me.behaviors.tick()).fired.length, 0, 'nothing is due yet');
    now = '2026-03-02T12:00:00.000Z';
    const first = await me.behaviors.tick();
    assert.deepEqual(
      first.fired.map((f) => [f.behavior, f.trigger, f.at]),
      [['due-chaser', 'commitment', '2026-03-02T10:00:00.000Z']],
      'the open commitment in a read scope fires; the done one and the one in project:other do not',
    );
    assert.equal((await me.behaviors.tick()).fired.length, 0, 'a second tick fires the same window no more');

    const window = await me.behaviors.next('due-chaser');
    assert.ok(window !== null);
    assert.deepEqual(
      window.fired.map((f) => f.commitment?.id),
      [due.id],
      'the run is handed the commitment that came due',
    );
    assert.ok(!window.fired.some((f) => f.commitment?.id === elsewhere.id || f.commitment?.id === done.id));
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
});
