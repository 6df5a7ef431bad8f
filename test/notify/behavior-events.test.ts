/**
 * The two events behaviors raise, delivered to a local receiver: a completed run whose outputs are held sends
 * one `run_outputs_waiting` with the held ids (beside the per-write `held`), a run with nothing held sends none;
 * the scheduler's commitment window sends one `commitment_due` however often it ticks, and none for a done one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { Deliverer } from '../../src/notify/deliverer.ts';
import { startReceiver } from './helpers.ts';

interface Hook {
  type: string;
  event: { type: string; ref: string; scope: string; actor: string; ids?: string[]; dueAt?: string };
}

test('a run leaving outputs held sends one run_outputs_waiting with their ids; a run with none held sends none', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-notify-run-'));
  const receiver = await startReceiver();
  const ledger = openLedger({ home });
  try {
    const admin = ledger.as(ledger.operator());
    await admin.notify('add-webhook', {
      url: `${receiver.url}/hook`,
      secretEnv: 'S',
      events: ['held', 'run_outputs_waiting'],
    });
    await admin.behaviors.add({
      name: 'digest',
      prompt: 'Summarise the new decisions.',
      triggers: [{ type: 'event', kinds: ['decision'] }],
      reads: { scopes: ['shared'] },
      writes: { kinds: ['note'], scopes: ['agent:bot', 'shared'] },
      settleSeconds: 0,
    });
    const bot = ledger.as(ledger.principal('agent:bot'));
    const send = async () => {
      const d = new Deliverer({ store: ledger.store, consoleUrl: 'http://c', env: { S: 'secret' } });
      await d.runOnce();
      const hooks = receiver.requests.map((r) => JSON.parse(r.raw) as Hook);
      receiver.requests.length = 0;
      return hooks;
    };

    await admin.remember({ scope: 'shared', kind: 'decision', body: 'We deploy on Tuesdays.' });
    const w = await bot.behaviors.next('digest');
    assert.ok(w !== null);
    const done = await bot.behaviors.complete({
      run: w.run,
      token: w.token,
      outputs: [
        { scope: 'agent:bot', kind: 'note', body: 'Deploys: Tuesdays.' },
        { scope: 'shared', kind: 'note', body: 'Team note: deploys are on Tuesdays.' },
        { scope: 'shared', kind: 'note', body: 'Team note: no deploys on Fridays.' },
      ],
    });
    const held = done.outputs.filter((o) => o.state === 'held').map((o) => o.id);
    assert.equal(held.length, 2, 'the two shared notes wait for a person; the own-scope one landed');
    const hooks = await send();
    const summaries = hooks.filter((h) => h.type === 'run_outputs_waiting');
    assert.equal(summaries.length, 1, 'one run, one summary');
    assert.equal(summaries[0]!.event.ref, w.run);
    assert.equal(summaries[0]!.event.scope, 'shared');
    assert.equal(summaries[0]!.event.actor, 'agent:bot');
    assert.deepEqual(summaries[0]!.event.ids, held, 'exactly the held outputs, not the one that landed');
    assert.deepEqual(
      hooks
        .filter((h) => h.type === 'held')
        .map((h) => h.event.ref)
        .sort(),
      [...held].sort(),
      'each held write still raised its own held event',
    );
    assert.ok(!JSON.stringify(summaries[0]).includes('Tuesdays'), 'no content in the summary');

    // Control: a run whose outputs all land raises no run_outputs_waiting.
    await admin.remember({ scope: 'shared', kind: 'decision', body: 'We freeze in December.' });
    const w2 = await bot.behaviors.next('digest');
    assert.ok(w2 !== null);
    const done2 = await bot.behaviors.complete({
      run: w2.run,
      token: w2.token,
      outputs: [{ scope: 'agent:bot', kind: 'note', body: 'Freeze: December.' }],
    });
    assert.deepEqual(
      done2.outputs.map((o) => o.state),
      ['active'],
    );
    assert.deepEqual(await send(), [], 'nothing held, nothing sent');
  } finally {
    ledger.close();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('a fired commitment window sends one commitment_due to the subscribed target; a done commitment sends none', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-notify-due-'));
  const receiver = await startReceiver();
  let now = '2026-03-02T08:00:00.000Z';
  const ledger = openLedger({ home, now: () => now });
  try {
    const me = ledger.as(ledger.operator());
    await me.notify('add-webhook', {
      url: `${receiver.url}/due`,
      secretEnv: 'S',
      events: ['commitment_due'],
    });
    await me.notify('add-webhook', { url: `${receiver.url}/held-only`, secretEnv: 'S' });
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
    await me.commitments.update({ id: done.id, status: 'done' });

    now = '2026-03-02T12:00:00.000Z';
    assert.equal((await me.behaviors.tick()).fired.length, 1);
    assert.equal((await me.behaviors.tick()).fired.length, 0, 'the window fires once');
    const d = new Deliverer({ store: ledger.store, consoleUrl: 'http://c', env: { S: 'secret' } });
    await d.runOnce();
    assert.deepEqual(
      receiver.requests.map((r) => r.path),
      ['/due'],
      'one delivery, to the target subscribed to commitment_due only',
    );
    const hook = JSON.parse(receiver.requests[0]!.raw) as Hook;
    assert.equal(hook.type, 'commitment_due');
    assert.equal(hook.event.ref, due.id, 'the open commitment; the done one never came due');
    assert.notEqual(hook.event.ref, done.id);
    assert.equal(hook.event.scope, 'shared');
    assert.equal(hook.event.dueAt, '2026-03-02T10:00:00.000Z');
    assert.ok(!receiver.requests[0]!.raw.includes('Acme'), 'no content');
  } finally {
    ledger.close();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  }
});
