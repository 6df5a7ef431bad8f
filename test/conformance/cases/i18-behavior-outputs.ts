/**
 * I18 nothing acts around the gate, for behaviors: a run's outputs pass the same guard, grants, rejection check,
 * gate and ownership as their caller's own writes. A behavior's write to a human-owned key is held like any
 * agent's, also when a person ran it; a rejected output stays rejected when proposed again (I5); a reviewer's
 * correction of an output is folded into the behavior's next window.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger, LedgerSession } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { buildPolicy, expectError, manualClock, principal } from '../helpers.ts';
import { definition } from './i17-outstanding.ts';

const admin = principal('human', 'boss');
const runner = principal('agent', 'runner', { roles: ['reader', 'writer'], grants: ['*:rw'] });
const as = (ledger: Ledger, p = runner): LedgerSession => ledger.as(p, { surface: 'library' });

/** Agents land in shared by policy, so a hold below comes from the human's ownership of the key alone. */
const policy = () =>
  buildPolicy({
    principals: { 'agent:*': { roles: ['reader', 'writer'], grants: ['shared:rw', 'agent:{self}:rw'] } },
    ownership: 'hold',
    default: 'allow',
  });

const planner = definition('planner', {
  writes: { kinds: ['fact'], scopes: ['shared'], keys: ['acme.*'] },
});

async function window(me: LedgerSession, boss: LedgerSession, clock: { advance(ms: number): string }) {
  await boss.remember({ scope: 'shared', kind: 'decision', body: `Decision ${clock.advance(1000)}` });
  clock.advance(1000);
  const w = await me.behaviors.next('planner');
  assert.notEqual(w, null);
  return w!;
}

export function behaviorOutputCases(factory: ConformanceFactory): void {
  describe('I18 behavior outputs meet the gate', () => {
    test("I18 nothing acts around the gate: a behavior's output to a human-owned key is held, an unowned key lands", async () => {
      const clock = manualClock('2030-04-01T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(planner);
          const owned = await boss.remember({
            scope: 'shared',
            kind: 'fact',
            key: 'acme.plan',
            body: 'Acme is on Pro.',
          });
          for (const caller of [as(ledger), boss]) {
            const w = await window(caller, boss, clock);
            const done = await caller.behaviors.complete({
              run: w.run,
              token: w.token,
              outputs: [
                { scope: 'shared', kind: 'fact', key: 'acme.plan', body: 'Acme is on Enterprise.' },
                {
                  scope: 'shared',
                  kind: 'fact',
                  key: `acme.seats${caller === boss ? '2' : ''}`,
                  body: 'Acme has 40 seats.',
                },
              ],
            });
            assert.equal(done.outputs[0]!.state, 'held', `${caller.principal.kind}: the owned key is held`);
            assert.equal(done.outputs[1]!.state, 'active', `${caller.principal.kind}: the unowned key lands`);
            const held = await boss.get(done.outputs[0]!.id);
            assert.equal(
              held.provenance.principalKind,
              'agent',
              'a person running a behavior lends it no trust',
            );
            assert.equal(held.provenance.runId, w.run);
          }
          const current = await boss.list({ scopes: ['shared'], key: 'acme.plan' });
          assert.deepEqual(
            current.map((m) => m.id),
            [owned.id],
          );
        },
        { now: clock.now, policy: policy() },
      );
    });

    test('I18 nothing acts around the gate: an output the definition does not allow writes nothing, not even its allowed siblings', async () => {
      const clock = manualClock('2030-04-02T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(planner);
          const me = as(ledger);
          const w = await window(me, boss, clock);
          for (const bad of [
            { scope: 'shared', kind: 'decision', key: 'acme.x', body: 'Wrong kind.' },
            { scope: 'project:x', kind: 'fact', key: 'acme.x', body: 'Wrong scope.' },
            { scope: 'shared', kind: 'fact', key: 'other.x', body: 'Wrong key.' },
          ]) {
            await expectError(
              me.behaviors.complete({
                run: w.run,
                token: w.token,
                outputs: [{ scope: 'shared', kind: 'fact', key: 'acme.ok', body: 'Allowed sibling.' }, bad],
              }),
              'permission',
            );
          }
          await expectError(
            me.behaviors.complete({
              run: w.run,
              token: w.token,
              outputs: [
                {
                  scope: 'shared',
                  kind: 'fact',
                  key: 'acme.token',
                  body: 'key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGH',
                },
              ],
            }),
            'invalid_input',
          );
          assert.deepEqual(await boss.list({ scopes: ['shared'], kinds: ['fact'] }), []);
          // The control: the allowed output alone completes the same run.
          const ok = await me.behaviors.complete({
            run: w.run,
            token: w.token,
            outputs: [{ scope: 'shared', kind: 'fact', key: 'acme.ok', body: 'Allowed sibling.' }],
          });
          assert.equal(ok.outputs[0]!.state, 'active');
        },
        { now: clock.now, policy: policy() },
      );
    });

    test('I18 nothing acts around the gate: a rejected output stays rejected, and corrections fold into the next window', async () => {
      const clock = manualClock('2030-04-03T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(planner);
          await boss.remember({ scope: 'shared', kind: 'fact', key: 'acme.plan', body: 'Acme is on Pro.' });
          await boss.remember({
            scope: 'shared',
            kind: 'fact',
            key: 'acme.region',
            body: 'Acme is in the EU.',
          });
          const me = as(ledger);
          const w1 = await window(me, boss, clock);
          assert.deepEqual(w1.corrections, []);
          const r1 = await me.behaviors.complete({
            run: w1.run,
            token: w1.token,
            outputs: [
              { scope: 'shared', kind: 'fact', key: 'acme.plan', body: 'Acme is on Enterprise.' },
              { scope: 'shared', kind: 'fact', key: 'acme.region', body: 'Acme is in the US.' },
            ],
          });
          await boss.reject({ id: r1.outputs[0]!.id, reason: 'They renewed Pro.' });
          await boss.approve({ id: r1.outputs[1]!.id, body: 'Acme is in the EU and the US.' });

          const w2 = await window(me, boss, clock);
          const byKey = new Map(w2.corrections.map((c) => [c.key, c]));
          assert.equal(byKey.get('acme.plan')!.action, 'rejected');
          assert.equal(byKey.get('acme.plan')!.reason, 'They renewed Pro.');
          assert.equal(byKey.get('acme.region')!.action, 'edited');
          assert.equal(byKey.get('acme.region')?.corrected?.body, 'Acme is in the EU and the US.');

          const r2 = await me.behaviors.complete({
            run: w2.run,
            token: w2.token,
            outputs: [
              { scope: 'shared', kind: 'fact', key: 'acme.plan', body: 'Acme is on Enterprise.' },
              { scope: 'shared', kind: 'fact', key: 'acme.region', body: 'Acme is in APAC.' },
            ],
          });
          assert.equal(r2.outputs[0]!.state, 'rejected', 'I5: the rejected claim stays rejected');
          await boss.approve({ id: r2.outputs[1]!.id, body: 'Acme is in the EU, the US and APAC.' });
          const w3 = await window(me, boss, clock);
          const regions = w3.corrections.filter((c) => c.key === 'acme.region');
          assert.equal(regions.length, 1, 'only the latest correction per key');
          assert.equal(regions[0]?.corrected?.body, 'Acme is in the EU, the US and APAC.');
        },
        { now: clock.now, policy: policy() },
      );
    });
  });
}
