/**
 * I13 durable when acknowledged, for notifications: a held write queues its delivery in its own transaction, so a
 * process that dies before sending (or while sending) loses nothing, and a later deliverer sends it. Also the
 * delivery contract on every backend: a signature the receiver verifies, retries with backoff on 500s, the
 * delivery log, one claim per attempt under a lease, and no secret or body where it must not be (I8, I10).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openLedger } from '../../../src/index.ts';
import { Deliverer } from '../../../src/notify/deliverer.ts';
import { receiverVerifies, startReceiver } from '../../notify/helpers.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { buildPolicy, expectError, uniqueWord } from '../helpers.ts';

/** Agents land only in their own scope; anything else they write waits for review. */
export const NOTIFY_POLICY = buildPolicy({
  principals: { 'agent:*': { roles: ['reader', 'writer'], grants: ['*:rw'] } },
  rules: [
    { name: 'humans-land', when: { principal: 'human:*' }, action: 'allow' },
    { name: 'own-scope', when: { scope: 'agent:{self}' }, action: 'allow' },
  ],
  default: 'hold',
});

const SECRET = 'whsec-test-9f2c1e7a55b04d3e';
const ENV = { ML_HOOK_SECRET: SECRET };

/** A clock the deliverer reads, starting now and moved by hand. */
function clock() {
  let t = Date.now();
  return {
    now: () => t,
    advance(ms: number) {
      t += ms;
    },
  };
}

export function notifyDeliveryCases(factory: ConformanceFactory): void {
  describe('I13 notifications are durable', () => {
    test('I13 durable: a held write queues its notification in its own transaction; a deliverer opened after the writer is gone sends it', (t) =>
      withHome(
        factory,
        async ({ ledger, home, capabilities }) => {
          if (!capabilities.processes) {
            t.skip('another process cannot open this backend by home');
            return;
          }
          const receiver = await startReceiver();
          try {
            const admin = ledger.as(ledger.operator());
            await admin.notify('add-webhook', { url: `${receiver.url}/hook`, secretEnv: 'ML_HOOK_SECRET' });
            const agent = ledger.as(ledger.principal('agent:bot'));
            const word = uniqueWord('body');
            const held = await agent.remember({ body: `Acme renews in March ${word}`, scope: 'shared' });
            // Control: a write that lands announces nothing.
            const landed = await agent.remember({ body: 'Own scope note', scope: 'agent:bot' });
            assert.deepEqual([held.state, landed.state], ['held', 'active']);
            const queued = await admin.notify('deliveries', {});
            assert.deepEqual(
              queued.map((d) => [d.event.type, d.event.ref, d.status, d.attempts]),
              [['held', held.id, 'pending', 0]],
            );
            // The writer's process ends without ever sending (the crash); another opens the store and sends.
            ledger.close();
            const after = openLedger({ store: home, policy: NOTIFY_POLICY });
            try {
              await after.ready;
              const c = clock();
              const d = new Deliverer({
                store: after.store,
                consoleUrl: 'https://ml.example',
                env: ENV,
                clock: c.now,
              });
              assert.equal(await d.runOnce(), 1);
              assert.equal(receiver.requests.length, 1);
              const [r] = receiver.requests;
              assert.equal(r!.path, '/hook');
              assert.ok(receiverVerifies(SECRET, r!, c.now() / 1000), 'the receiver verifies the signature');
              assert.ok(
                !receiverVerifies('another-secret', r!, c.now() / 1000),
                'control: a wrong secret fails',
              );
              const payload = JSON.parse(r!.raw);
              assert.equal(payload.type, 'held');
              assert.equal(payload.event.ref, held.id);
              assert.equal(payload.event.scope, 'shared');
              assert.equal(payload.event.actor, 'agent:bot');
              assert.equal(payload.links.memory, `https://ml.example/memories/${held.id}`);
              assert.equal(r!.headers['x-memledger-delivery'], payload.id);
              // Body off by default: the receiver sits outside scopes and erasure.
              assert.ok(!r!.raw.includes(word), 'the body is not sent by default');
              const log = await after.as(after.operator()).notify('deliveries', {});
              assert.deepEqual(
                log.map((x) => [x.status, x.attempts, x.lastStatus, x.lastError]),
                [['delivered', 1, 200, null]],
              );
              assert.equal(await d.runOnce(), 0, 'a delivered notification is not sent again');
            } finally {
              after.close();
            }
          } finally {
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));

    test('I13 durable: a delivery claimed by a process that died mid-send is sent again once its lease runs out, never while it holds', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const receiver = await startReceiver();
          try {
            const admin = ledger.as(ledger.operator());
            await admin.notify('add-webhook', { url: receiver.url, secretEnv: 'ML_HOOK_SECRET' });
            const held = await ledger
              .as(ledger.principal('agent:bot'))
              .remember({ body: 'Held one', scope: 'shared' });
            const c = clock();
            // A process claims it for its first attempt and dies before it sends or records anything.
            const lost = await ledger.store.notify.claim(
              'dead-process',
              new Date(c.now()).toISOString(),
              new Date(c.now() + 60_000).toISOString(),
              10,
            );
            assert.deepEqual(
              lost.map((x) => x.event.ref),
              [held.id],
            );
            const d = new Deliverer({ store: ledger.store, consoleUrl: 'http://c', env: ENV, clock: c.now });
            assert.equal(await d.runOnce(), 0, 'while the lease holds, nobody else sends it');
            assert.equal(receiver.requests.length, 0);
            c.advance(61_000);
            assert.equal(await d.runOnce(), 1);
            assert.equal(receiver.requests.length, 1);
            const [row] = await admin.notify('deliveries', {});
            assert.deepEqual([row!.status, row!.attempts], ['delivered', 2]);
            // The dead process's late outcome is not recorded over the live one.
            const late = {
              status: 'failed' as const,
              httpStatus: 500,
              error: 'http_5xx',
              at: new Date(c.now()).toISOString(),
            };
            assert.equal(await ledger.store.notify.finish(row!.id, 'dead-process', late), false);
            assert.equal((await admin.notify('deliveries', {}))[0]!.status, 'delivered');
          } finally {
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));

    test('I13 durable: two deliverers on one store, racing, send each delivery exactly once per attempt', (t) =>
      withHome(
        factory,
        async ({ ledger, home, capabilities }) => {
          if (!capabilities.processes) {
            t.skip('another process cannot open this backend by home');
            return;
          }
          const receiver = await startReceiver();
          const other = openLedger({ store: home, policy: NOTIFY_POLICY });
          try {
            await other.ready;
            const admin = ledger.as(ledger.operator());
            await admin.notify('add-webhook', { url: receiver.url, secretEnv: 'ML_HOOK_SECRET' });
            const agent = ledger.as(ledger.principal('agent:bot'));
            const ids: string[] = [];
            for (let i = 0; i < 12; i++) {
              ids.push((await agent.remember({ body: `Held number ${i} of the race`, scope: 'shared' })).id);
            }
            const c = clock();
            const options = { consoleUrl: 'http://c', env: ENV, clock: c.now, batch: 5 };
            const a = new Deliverer({ ...options, store: ledger.store });
            const b = new Deliverer({ ...options, store: other.store });
            let sent = 0;
            for (let round = 0; round < 5; round++) {
              const counts = await Promise.all([a.runOnce(), b.runOnce(), a.runOnce(), b.runOnce()]);
              sent += counts.reduce((x, y) => x + y, 0);
            }
            assert.equal(sent, ids.length, 'claims add up to one attempt per delivery');
            const refs = receiver.requests.map((r) => JSON.parse(r.raw).event.ref as string);
            assert.deepEqual([...refs].sort(), [...ids].sort(), 'each held write was sent once');
            const log = await admin.notify('deliveries', {});
            assert.ok(log.every((d) => d.status === 'delivered' && d.attempts === 1));
          } finally {
            other.close();
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));

    test('I13 durable: 500s are retried with growing delays until the receiver takes it; the log keeps attempts, codes and classes', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const receiver = await startReceiver([500, 503]);
          try {
            const admin = ledger.as(ledger.operator());
            await admin.notify('add-webhook', { url: receiver.url, secretEnv: 'ML_HOOK_SECRET' });
            await ledger
              .as(ledger.principal('agent:bot'))
              .remember({ body: 'Held for retry', scope: 'shared' });
            const c = clock();
            const d = new Deliverer({
              store: ledger.store,
              consoleUrl: 'http://c',
              env: ENV,
              clock: c.now,
              random: () => 0.5,
              baseDelayMs: 1_000,
              maxDelayMs: 10_000,
            });
            assert.equal(await d.runOnce(), 1);
            let [row] = await admin.notify('deliveries', {});
            assert.deepEqual(
              [row!.status, row!.attempts, row!.lastStatus, row!.lastError],
              ['pending', 1, 500, 'http_5xx'],
            );
            const first = Date.parse(row!.nextAt) - c.now();
            assert.equal(first, 750, 'half of 1 s fixed, half jittered');
            assert.equal(await d.runOnce(), 0, 'not due before its delay');
            c.advance(first);
            assert.equal(await d.runOnce(), 1);
            [row] = await admin.notify('deliveries', {});
            assert.deepEqual([row!.attempts, row!.lastStatus], [2, 503]);
            const second = Date.parse(row!.nextAt) - c.now();
            assert.ok(second > first, `the delay grows (${first} then ${second} ms)`);
            c.advance(second);
            assert.equal(await d.runOnce(), 1);
            [row] = await admin.notify('deliveries', {});
            assert.deepEqual(
              [row!.status, row!.attempts, row!.lastStatus, row!.lastError],
              ['delivered', 3, 200, null],
            );
            assert.equal(receiver.requests.length, 3);
            const ids = new Set(receiver.requests.map((r) => r.headers['x-memledger-delivery']));
            assert.equal(
              ids.size,
              1,
              'every attempt names the same delivery, so a receiver can drop duplicates',
            );
            for (const r of receiver.requests) assert.ok(receiverVerifies(SECRET, r, c.now() / 1000));
            assert.deepEqual(await admin.notify('deliveries', { failed: true }), []);
          } finally {
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));

    test('I13 delivery log: finished deliveries past the retention leave the log; a pending one stays whatever its age, and so do recent ones', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const receiver = await startReceiver([200, 404, 500]);
          try {
            const admin = ledger.as(ledger.operator());
            await admin.notify('add-webhook', { url: receiver.url, secretEnv: 'ML_HOOK_SECRET' });
            const agent = ledger.as(ledger.principal('agent:bot'));
            const day = 24 * 60 * 60_000;
            const c = clock();
            // The 500's retry is due after ~40 days, so it is still pending, with an old attempt, when the log is pruned.
            const d = new Deliverer({
              store: ledger.store,
              consoleUrl: 'http://c',
              env: ENV,
              clock: c.now,
              baseDelayMs: 40 * day,
              maxDelayMs: 40 * day,
              random: () => 0.99,
            });
            const held: string[] = [];
            const write = async (n: number) => {
              held.push((await agent.remember({ body: `Held ${n} for the log`, scope: 'shared' })).id);
              c.advance(1_000); // the delivery is due from the write's own time, just after the clock's
              assert.equal(await d.runOnce(), 1);
            };
            for (const n of [0, 1, 2]) await write(n);
            const status = async () =>
              (await admin.notify('deliveries', {})).map((x) => [x.event.ref, x.status]).reverse();
            assert.deepEqual(await status(), [
              [held[0], 'delivered'],
              [held[1], 'failed'],
              [held[2], 'pending'],
            ]);
            c.advance(20 * day);
            await write(3);
            c.advance(11 * day);
            // 31 days after the first three attempts: the round prunes the log (at most hourly) as it polls.
            assert.equal(await d.runOnce(), 0);
            assert.deepEqual(await status(), [
              [held[2], 'pending'],
              [held[3], 'delivered'],
            ]);
            assert.equal(await d.prune(), 0, 'nothing more is old enough');
          } finally {
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));

    test('I10 no credentials: a missing secret fails the attempt by class, a 4xx is final, and the audit keeps no secret or URL path', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const receiver = await startReceiver([404]);
          try {
            const admin = ledger.as(ledger.operator());
            const path = `/hooks/${uniqueWord('path')}`;
            await admin.notify('add-webhook', {
              url: `${receiver.url}${path}`,
              secretEnv: 'ML_UNSET_SECRET',
            });
            await ledger.as(ledger.principal('agent:bot')).remember({ body: 'Held again', scope: 'shared' });
            const c = clock();
            const unset = new Deliverer({
              store: ledger.store,
              consoleUrl: 'http://c',
              env: {},
              clock: c.now,
            });
            assert.equal(await unset.runOnce(), 1);
            let [row] = await admin.notify('deliveries', {});
            assert.deepEqual(
              [row!.status, row!.lastError, row!.lastStatus],
              ['pending', 'secret_missing', null],
            );
            assert.equal(receiver.requests.length, 0, 'nothing unsigned goes out');
            c.advance(3_600_000);
            const d = new Deliverer({
              store: ledger.store,
              consoleUrl: 'http://c',
              env: { ML_UNSET_SECRET: SECRET },
              clock: c.now,
            });
            assert.equal(await d.runOnce(), 1);
            [row] = await admin.notify('deliveries', { failed: true });
            assert.deepEqual([row!.status, row!.lastStatus, row!.lastError], ['failed', 404, 'http_4xx']);
            c.advance(3_600_000);
            assert.equal(await d.runOnce(), 0, 'a final refusal is not retried');
            // A literal credential-bearing URL is refused, and says so without echoing it.
            const slackish = `https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/${'x'.repeat(24)}`;
            const refused = await expectError(
              admin.notify('add-webhook', { url: slackish, secretEnv: 'X' }),
              'invalid_input',
            );
            assert.ok(!refused.message.includes('T0AAAAAAA'));
            const records = JSON.stringify(await admin.audit({ operation: 'notify.add-webhook' }));
            assert.ok(records.includes('notify.add-webhook'), 'control: the calls are audited');
            for (const needle of [SECRET, path.slice(7), 'T0AAAAAAA']) {
              assert.ok(!records.includes(needle), 'the audit keeps neither secrets nor URL paths');
            }
            const listed = JSON.stringify(await admin.notify('list', {}));
            assert.ok(!listed.includes(path.slice(7)) && listed.includes('ML_UNSET_SECRET'));
          } finally {
            await receiver.close();
          }
        },
        { policy: NOTIFY_POLICY },
      ));

    test('I7 only humans judge: only a human admin configures notifications; an agent admin is refused and nothing is added', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const agent = ledger.as({ ...ledger.principal('agent:bot'), roles: ['reader', 'writer', 'admin'] });
          await expectError(
            agent.notify('add-slack', {
              urlEnv: 'U',
              signingSecretEnv: 'S',
              users: { U0BOT: 'human:alice' },
            }),
            'permission',
          );
          await expectError(agent.notify('list', {}), 'permission');
          const admin = ledger.as(ledger.operator());
          await expectError(
            admin.notify('add-slack', { urlEnv: 'U', signingSecretEnv: 'S', users: { U0BOT: 'agent:bot' } }),
            'invalid_input',
          );
          assert.deepEqual(await admin.notify('list', {}), []);
          // Control: the human admin adds one.
          const added = await admin.notify('add-slack', {
            urlEnv: 'U',
            signingSecretEnv: 'S',
            users: { U0ALICE: 'human:alice' },
          });
          assert.deepEqual(
            (await admin.notify('list', {})).map((x) => x.id),
            [added.id],
          );
        },
        { policy: NOTIFY_POLICY },
      ));
  });
}
