/**
 * Notifications end to end on a served home: `startServer` runs the deliverer, which posts a held write to a
 * Slack incoming webhook (a local receiver) as a card with Approve / Reject; the card's button, pressed as Slack
 * signs it, reaches `/v1/slack/interactions` over real HTTP and approves the write as the mapped person. The
 * body goes only to a target that opted in, and never once erased. Nothing leaves 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { Deliverer } from '../../src/notify/deliverer.ts';
import { startServer } from '../../src/surfaces/http/server.ts';
import { uniqueWord } from '../conformance/helpers.ts';
import { auditedSoon } from '../mcp/helpers.ts';
import { type Receiver, slackPress, startReceiver } from './helpers.ts';

const SIGNING = 'slack-signing-serve-4be1a09c77';

/** Resolves once the receiver holds `n` requests; the test's own timeout bounds it, nothing is timed. */
async function received(r: Receiver, n: number): Promise<void> {
  while (r.requests.length < n) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('serve sends a held write to Slack as a card with Approve / Reject and no body; pressing Approve judges it as the mapped person and replaces the card', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-notify-'));
  const receiver = await startReceiver();
  const ledger = openLedger({ home });
  const env = { ML_SLACK_URL: `${receiver.url}/slack`, ML_SLACK_SIGNING: SIGNING };
  const server = await startServer({
    ledger,
    port: 0,
    publicUrl: 'https://memledger.example.com',
    notify: { env, intervalMs: 10 },
    slack: { env, responseUrlAllowed: (u) => u.startsWith(receiver.url) },
  });
  try {
    const tokens = await ledger.openTokens();
    await tokens.create({
      name: 'alice',
      kind: 'human',
      roles: ['reader', 'writer', 'reviewer'],
      grants: ['*:rw'],
    });
    await tokens.close();
    const admin = ledger.as(ledger.operator());
    await admin.notify('add-slack', {
      urlEnv: 'ML_SLACK_URL',
      signingSecretEnv: 'ML_SLACK_SIGNING',
      users: { U0ALICE: 'human:alice' },
    });
    const word = uniqueWord('slackbody');
    const held = await ledger
      .as(ledger.principal('agent:claude-code'))
      .remember({ body: `Acme moved to the <!channel> plan ${word}`, scope: 'shared', kind: 'fact' });
    assert.equal(held.state, 'held');
    await received(receiver, 1);
    const post = receiver.requests[0]!;
    assert.equal(post.path, '/slack');
    assert.ok(!post.raw.includes(word), 'no body unless the target opted in');
    const card = JSON.parse(post.raw);
    assert.match(card.text, /^Held for review: fact in shared by agent:claude-code$/);
    const section = card.blocks[0].text.text as string;
    assert.ok(section.includes(`https://memledger.example.com/memories/${held.id}`), section);
    const actions = card.blocks.find((b: { type: string }) => b.type === 'actions');
    assert.deepEqual(
      actions.elements.map((e: { action_id: string; value: string }) => [e.action_id, e.value]),
      [
        ['memledger.approve', held.id],
        ['memledger.reject', held.id],
      ],
    );

    const press = slackPress({
      signingSecret: SIGNING,
      timestamp: Math.floor(Date.now() / 1000),
      user: 'U0ALICE',
      action: 'memledger.approve',
      memoryId: held.id,
      responseUrl: `${receiver.url}/respond`,
    });
    const res = await fetch(`${server.url}/v1/slack/interactions`, {
      method: 'POST',
      headers: press.headers,
      body: press.body,
    });
    assert.equal(res.status, 200, await res.text());
    const judged = await admin.get(held.id);
    assert.equal(judged.state, 'active');
    const [record] = (
      await auditedSoon(admin, { operation: 'review.approve' }, (rs) =>
        rs.some((r) => r.targets.includes(held.id)),
      )
    ).filter((r) => r.targets.includes(held.id));
    assert.deepEqual(
      [record?.principal, record?.client, record?.tool],
      ['human:alice', 'slack', 'POST /v1/slack/interactions'],
    );
    const update = receiver.requests.find((r) => r.path === '/respond');
    assert.ok(update !== undefined, 'the card is replaced');
    assert.equal(JSON.parse(update.raw).replace_original, true);
    assert.match(JSON.parse(update.raw).text, /^Approved by human:alice/);
  } finally {
    await server.close();
    ledger.close();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('the body goes out only to a target that opted in, and never after the memory is erased', async () => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-notify-'));
  const receiver = await startReceiver();
  const ledger = openLedger({ home });
  try {
    const admin = ledger.as(ledger.operator());
    await admin.notify('add-webhook', { url: `${receiver.url}/plain`, secretEnv: 'S' });
    await admin.notify('add-webhook', {
      url: `${receiver.url}/with-body`,
      secretEnv: 'S',
      includeBody: true,
    });
    const agent = ledger.as(ledger.principal('agent:claude-code'));
    const word = uniqueWord('optin');
    await agent.remember({ body: `Renewal is in March ${word}`, scope: 'shared' });
    const erasedWord = uniqueWord('gone');
    await agent.remember({
      body: `Bea's phone is private ${erasedWord}`,
      scope: 'shared',
      subjects: ['person:bea@example.com'],
    });
    await admin.erase({ subject: 'person:bea@example.com' });
    const d = new Deliverer({ store: ledger.store, consoleUrl: 'http://c', env: { S: 'secret-s' } });
    assert.equal(await d.runOnce(), 4);
    const by = (path: string) =>
      receiver.requests
        .filter((r) => r.path === path)
        .map((r) => r.raw)
        .join('\n');
    assert.ok(by('/with-body').includes(word), 'the opted-in target gets the body');
    assert.ok(!by('/plain').includes(word), 'control: the other does not');
    assert.ok(
      !by('/with-body').includes(erasedWord),
      'an erased body is not sent, even to an opted-in target',
    );
    assert.equal(receiver.requests.length, 4, 'both writes were announced to both targets');
  } finally {
    ledger.close();
    await receiver.close();
    rmSync(home, { recursive: true, force: true });
  }
});
