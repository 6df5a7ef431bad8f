/**
 * I7 only humans judge, from Slack: a button press reaches the console's verdict path only when Slack signed it
 * (signing secret, fresh timestamp), it was not seen before, and the Slack user is mapped to a human with a live
 * token and the reviewer role. Requests are signed here exactly as Slack signs them (test/notify/helpers.ts);
 * the card's update goes to a local receiver standing in for Slack's response URL.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createHttpApp } from '../../../src/surfaces/http/app.ts';
import { slackPress, startReceiver } from '../../notify/helpers.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { storeCounts } from '../helpers.ts';
import { NOTIFY_POLICY } from './i13-notify-delivery.ts';

const SIGNING = 'slack-signing-8d1f0b6c2a9e4f37';
const PLANTED = 'slack-signing-planted-51c0e2aa';
const PATH = '/v1/slack/interactions';

export function slackVerdictCases(factory: ConformanceFactory): void {
  describe('I7 only humans judge from Slack', () => {
    test('I7 only humans judge: a signed press by a mapped human lands as that person; forged, stale, replayed, unmapped and agent-mapped presses judge nothing', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const receiver = await startReceiver();
          const tokens = await ledger.openTokens();
          try {
            await tokens.create({
              name: 'alice',
              kind: 'human',
              roles: ['reader', 'writer', 'reviewer'],
              grants: ['*:rw'],
            });
            await tokens.create({
              name: 'bot',
              kind: 'agent',
              roles: ['reader', 'writer', 'reviewer'],
              grants: ['*:rw'],
            });
            const admin = ledger.as(ledger.operator());
            await admin.notify('add-slack', {
              urlEnv: 'ML_SLACK_URL',
              signingSecretEnv: 'ML_SLACK_SIGNING',
              users: { U0ALICE: 'human:alice' },
            });
            // A mapping to an agent cannot be configured (admin refuses it); planted below the ledger, the
            // verdict path still refuses it.
            await ledger.store.notify.addTarget({
              id: 'sl_00000000beef',
              kind: 'slack',
              url: 'env:ML_SLACK_URL',
              events: ['held'],
              secretEnv: 'ML_SLACK_PLANTED',
              users: { U0BOT: 'agent:bot' },
              includeBody: false,
              createdAt: new Date().toISOString(),
              createdBy: 'human:test',
            });
            let now = Date.now();
            const { app } = createHttpApp({
              ledger,
              tokens,
              slack: {
                env: { ML_SLACK_SIGNING: SIGNING, ML_SLACK_PLANTED: PLANTED },
                clock: () => now,
                responseUrlAllowed: (u) => u.startsWith(receiver.url),
              },
            });
            const agent = ledger.as(ledger.principal('agent:bot'));
            const held = async (n: number) =>
              (await agent.remember({ body: `Acme plan number ${n} is enterprise`, scope: 'shared' })).id;
            const [first, second, third] = [await held(1), await held(2), await held(3)];
            const press = (o: Partial<Parameters<typeof slackPress>[0]> = {}) =>
              slackPress({
                signingSecret: SIGNING,
                timestamp: Math.floor(now / 1000),
                user: 'U0ALICE',
                action: 'memledger.approve',
                memoryId: second,
                responseUrl: `${receiver.url}/respond`,
                ...o,
              });
            const post = (p: { headers: Record<string, string>; body: string }) =>
              app.request(PATH, { method: 'POST', headers: p.headers, body: p.body });
            const state = async (id: string) => (await admin.get(id)).state;

            // Control: signed by Slack, by the mapped human: the verdict lands, as alice.
            const valid = press({ memoryId: first });
            const ok = await post(valid);
            assert.equal(ok.status, 200, await ok.clone().text());
            assert.equal(await state(first), 'active');
            const approvals = await admin.audit({ operation: 'review.approve' });
            assert.deepEqual(
              approvals.map((r) => [r.principal, r.outcome]),
              [['human:alice', 'ok']],
            );
            const card = JSON.parse(receiver.requests.at(-1)!.raw);
            assert.equal(card.replace_original, true);
            assert.match(card.text, /^Approved by human:alice/);

            const before = await storeCounts(ledger);
            const refusals: [string, { headers: Record<string, string>; body: string }, number][] = [
              ['forged signature', press({ signingSecret: 'not-the-secret' }), 401],
              ['stale timestamp', press({ timestamp: Math.floor(now / 1000) - 400 }), 401],
              ['replayed', valid, 403],
              ['unmapped user', press({ user: 'U0EVE' }), 403],
              ['agent-mapped user', press({ user: 'U0BOT', signingSecret: PLANTED }), 403],
            ];
            for (const [what, request, status] of refusals) {
              const res = await post(request);
              assert.equal(res.status, status, `${what}: ${await res.clone().text()}`);
              assert.equal(await state(second), 'held', `${what}: nothing judged`);
            }
            const after = await storeCounts(ledger);
            assert.equal(after.events, before.events, 'no refused press wrote an event');
            const agentTry = await admin.audit({ operation: 'review.approve', outcome: 'error' });
            assert.deepEqual(
              agentTry.map((r) => [r.principal, r.failureClass]),
              [['agent:bot', 'permission']],
              'the agent-mapped press reached the verdict path, which refused it (I7)',
            );
            const surface = await admin.audit({ operation: 'slack.interaction' });
            assert.equal(surface.length, 4, 'each press refused before a session is audited');

            // Control beside the refusals: the same memory is judgeable by alice, here with Reject.
            now += 1_000;
            const reject = await post(press({ action: 'memledger.reject' }));
            assert.equal(reject.status, 200);
            assert.equal(await state(second), 'rejected');
            assert.equal(await state(third), 'held', 'control: an untouched held write stays held');
          } finally {
            await tokens.close();
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));
  });
}
