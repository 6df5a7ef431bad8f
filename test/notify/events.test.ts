/**
 * The events other parts raise through `notify(tx, event)` (a run's outputs waiting, a commitment due) reach
 * exactly the targets subscribed to them, and render for Slack without buttons; a held write judged before its
 * card is sent goes out without buttons too, saying what became of it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { Deliverer } from '../../src/notify/deliverer.ts';
import { notify } from '../../src/notify/events.ts';
import { startReceiver } from './helpers.ts';

test('run_outputs_waiting and commitment_due go to the targets subscribed to them only; Slack shows them without buttons', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-notify-'));
  const receiver = await startReceiver();
  const ledger = openLedger({ home });
  try {
    const admin = ledger.as(ledger.operator());
    await admin.notify('add-webhook', {
      url: `${receiver.url}/all`,
      secretEnv: 'S',
      events: ['held', 'run_outputs_waiting', 'commitment_due'],
    });
    await admin.notify('add-webhook', { url: `${receiver.url}/held-only`, secretEnv: 'S' });
    await admin.notify('add-slack', {
      urlEnv: 'SLACK_URL',
      signingSecretEnv: 'SIGN',
      events: ['run_outputs_waiting', 'commitment_due'],
    });
    const commitment = (
      await admin.remember({ body: 'Send Acme the renewal', scope: 'shared', kind: 'commitment' })
    ).id;
    const at = new Date().toISOString();
    const queued = await ledger.store.transaction(async (tx) => [
      await notify(tx, {
        type: 'run_outputs_waiting',
        ref: 'run_0001',
        behavior: 'weekly-digest',
        scope: 'shared',
        actor: 'agent:digest',
        ids: ['mem_a', 'mem_b'],
        at,
      }),
      await notify(tx, {
        type: 'commitment_due',
        ref: commitment,
        scope: 'shared',
        kind: 'commitment',
        actor: 'human:ann',
        dueAt: '2026-12-02T09:00:00.000Z',
        at,
      }),
    ]);
    assert.deepEqual(queued, [2, 2], 'each event queued for the two targets subscribed to it');
    const d = new Deliverer({
      store: ledger.store,
      consoleUrl: 'http://c',
      env: { S: 'secret', SLACK_URL: `${receiver.url}/slack` },
    });
    assert.equal(await d.runOnce(), 4);
    const paths = receiver.requests.map((r) => r.path).sort();
    assert.deepEqual(paths, ['/all', '/all', '/slack', '/slack'], 'the held-only target got nothing');
    const cards = receiver.requests.filter((r) => r.path === '/slack').map((r) => JSON.parse(r.raw));
    const texts = cards.map((c) => c.text).sort();
    assert.deepEqual(texts, [
      'Commitment due: commitment in shared by human:ann',
      'Outputs of weekly-digest wait for review: run in shared by agent:digest',
    ]);
    for (const c of cards) assert.ok(!c.blocks.some((b: { type: string }) => b.type === 'actions'));
    const hooks = receiver.requests.filter((r) => r.path === '/all').map((r) => JSON.parse(r.raw));
    const run = hooks.find((h) => h.type === 'run_outputs_waiting');
    assert.deepEqual(run.event.ids, ['mem_a', 'mem_b']);
    assert.equal(run.links.memory, undefined, 'a run has no memory page; the review queue link stays');
  } finally {
    ledger.close();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('a held write approved before its card is sent goes out without buttons, saying it is already active', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-notify-'));
  const receiver = await startReceiver();
  const ledger = openLedger({ home });
  try {
    const admin = ledger.as(ledger.operator());
    await admin.notify('add-slack', { urlEnv: 'SLACK_URL', signingSecretEnv: 'SIGN' });
    const agent = ledger.as(ledger.principal('agent:claude-code'));
    const judged = (await agent.remember({ body: 'First proposal', scope: 'shared' })).id;
    const open = (await agent.remember({ body: 'Second proposal', scope: 'shared' })).id;
    await admin.approve({ id: judged });
    const d = new Deliverer({
      store: ledger.store,
      consoleUrl: 'http://c',
      env: { SLACK_URL: receiver.url },
    });
    assert.equal(await d.runOnce(), 2);
    const byRef = new Map(
      receiver.requests.map((r) => {
        const card = JSON.parse(r.raw);
        return [card.blocks[0].text.text.includes(judged) ? judged : open, card];
      }),
    );
    const hasButtons = (id: string) =>
      byRef.get(id).blocks.some((b: { type: string }) => b.type === 'actions');
    assert.equal(hasButtons(judged), false);
    assert.ok(JSON.stringify(byRef.get(judged)).includes('Already active'));
    assert.equal(hasButtons(open), true, 'control: the one still held has its buttons');
  } finally {
    ledger.close();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  }
});
