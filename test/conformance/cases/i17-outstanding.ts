/**
 * I17 outstanding is a subtraction: a behavior's outstanding work is the matching events minus those linked to its
 * finished runs; a run that fails or whose lease expires links nothing; a behavior never consumes its own outputs,
 * nor anything downstream of itself, nor anything past the causal depth cap.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger, LedgerSession } from '../../../src/index.ts';
import type { BehaviorDefinitionInput } from '../../../src/behaviors/definition.ts';
import type { BehaviorWindow } from '../../../src/behaviors/window.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, manualClock, principal } from '../helpers.ts';

const admin = principal('human', 'boss');
const runner = principal('agent', 'runner', { roles: ['reader', 'writer'], grants: ['*:rw'] });

export function definition(
  name: string,
  extra: Partial<BehaviorDefinitionInput> = {},
): BehaviorDefinitionInput {
  return {
    name,
    prompt: 'Summarise the new decisions.',
    triggers: [{ type: 'event', kinds: ['decision'] }],
    reads: { scopes: ['shared'] },
    writes: { kinds: ['note', 'decision'], scopes: ['agent:runner', 'shared'] },
    settleSeconds: 0,
    leaseSeconds: 60,
    ...extra,
  };
}

const ids = (w: BehaviorWindow | null) => (w === null ? [] : w.events.map((e) => e.memory.id));
const as = (ledger: Ledger, p = runner): LedgerSession => ledger.as(p, { surface: 'library' });

export function outstandingCases(factory: ConformanceFactory): void {
  describe('I17 outstanding is a subtraction', () => {
    test('I17 outstanding is a subtraction: a failed run and an expired lease link nothing, a finished run consumes exactly what it was shown', async () => {
      const clock = manualClock('2030-03-01T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(definition('digest'));
          const d1 = await boss.remember({ scope: 'shared', kind: 'decision', body: 'We ship on Fridays.' });
          const d2 = await boss.remember({
            scope: 'shared',
            kind: 'decision',
            body: 'Reviews within a day.',
          });
          // Controls that must never appear: another kind, and a decision outside the behavior's reads.
          await boss.remember({ scope: 'shared', kind: 'fact', body: 'The office has a piano.' });
          await boss.remember({ scope: 'project:x', kind: 'decision', body: 'Project x uses tabs.' });
          clock.advance(1000);
          const me = as(ledger);

          const first = await me.behaviors.next('digest');
          assert.deepEqual(ids(first), [d1.id, d2.id]);
          // Held by a live lease: nobody else is handed the same events.
          assert.equal(await me.behaviors.next('digest'), null);

          await me.behaviors.fail({ run: first!.run, token: first!.token });
          const second = await me.behaviors.next('digest');
          assert.deepEqual(ids(second), [d1.id, d2.id], 'a failed run linked nothing');

          clock.advance(61_000);
          const third = await me.behaviors.next('digest');
          assert.deepEqual(ids(third), [d1.id, d2.id], 'an expired lease linked nothing');
          const late = await expectError(
            me.behaviors.complete({
              run: second!.run,
              token: second!.token,
              outputs: [{ scope: 'agent:runner', kind: 'note', body: 'Late digest that must not land.' }],
            }),
            'conflict',
          );
          assert.match(late.message, /expired/);
          assert.deepEqual(await me.list({ scopes: ['agent:runner'] }), [], 'the expired run wrote nothing');

          const done = await me.behaviors.complete({
            run: third!.run,
            token: third!.token,
            outputs: [{ scope: 'agent:runner', kind: 'note', body: 'Digest: Fridays, day reviews.' }],
          });
          assert.equal(done.consumed, 2);
          assert.equal(done.outputs[0]!.state, 'active');
          assert.equal(await me.behaviors.next('digest'), null, 'a finished run consumed its events');
          const written = (await me.list({ scopes: ['agent:runner'] })).map((m) => m.body);
          assert.deepEqual(
            written,
            ['Digest: Fridays, day reviews.'],
            'the finished run wrote its output, alone',
          );

          const d3 = await boss.remember({ scope: 'shared', kind: 'decision', body: 'Standups are async.' });
          clock.advance(1000);
          assert.deepEqual(ids(await me.behaviors.next('digest')), [d3.id]);

          const runs = await boss.behaviors.runs('digest');
          const [r1, r2, r3] = [first!.run, second!.run, third!.run];
          const finished = runs.find((r) => r.id === r3)!;
          assert.equal(finished.state, 'finished');
          assert.equal(finished.consumed.length, 2);
          assert.equal(finished.outputs[0]!.id, done.outputs[0]!.id);
          const output = await me.get(done.outputs[0]!.id);
          assert.equal(output.provenance.runId, third!.run, 'every write a run makes names its run');
          assert.equal(runs.find((r) => r.id === r1)!.consumed.length, 0);
          assert.equal(runs.find((r) => r.id === r2)!.expired, true);
          // I8: the calls are audited, refused ones too, and no record holds an output's or an event's text.
          const records = await boss.audit({ operation: 'behaviors.complete' });
          assert.deepEqual(records.map((r) => r.outcome).sort(), ['error', 'ok']);
          for (const r of records) assert.doesNotMatch(JSON.stringify(r), /Digest|Late digest|Fridays/);
        },
        { now: clock.now },
      );
    });

    test('I17 outstanding is a subtraction: a token names exactly the ids shown; a forged one links nothing', async () => {
      const clock = manualClock('2030-03-02T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(definition('digest'));
          await boss.remember({ scope: 'shared', kind: 'decision', body: 'Deploys need two approvals.' });
          clock.advance(1000);
          const me = as(ledger);
          const w = await me.behaviors.next('digest');
          const [body, nonce] = w!.token.split('.');
          const claims = JSON.parse(Buffer.from(body!, 'base64url').toString('utf8'));
          claims.ids = [...claims.ids, 'evt_00000000000000000000000000'];
          const forged = `${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${nonce}`;
          await expectError(me.behaviors.complete({ run: w!.run, token: forged }), 'permission');
          // Another principal cannot complete the window it was not handed.
          const other = principal('agent', 'other', { roles: ['reader', 'writer'], grants: ['*:rw'] });
          await expectError(
            as(ledger, other).behaviors.complete({ run: w!.run, token: w!.token }),
            'not_found',
          );
          const ok = await me.behaviors.complete({ run: w!.run, token: w!.token });
          assert.equal(ok.consumed, 1);
        },
        { now: clock.now },
      );
    });

    test('I17 outstanding is a subtraction: a behavior never consumes its own outputs', async () => {
      const clock = manualClock('2030-03-03T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(definition('echo', { reads: { scopes: ['*'] } }));
          await boss.remember({ scope: 'shared', kind: 'decision', body: 'Invoices go out on the 1st.' });
          clock.advance(1000);
          const me = as(ledger);
          const w = await me.behaviors.next('echo');
          const done = await me.behaviors.complete({
            run: w!.run,
            token: w!.token,
            outputs: [{ scope: 'agent:runner', kind: 'decision', body: 'Echoed: invoices on the 1st.' }],
          });
          assert.equal(done.outputs[0]!.state, 'active');
          // The control: the same kind, in the same scope, written by the agent outside any run, does appear.
          const control = await me.remember({
            scope: 'agent:runner',
            kind: 'decision',
            body: 'Lunch at noon.',
          });
          clock.advance(1000);
          assert.deepEqual(ids(await me.behaviors.next('echo')), [control.id]);
        },
        { now: clock.now },
      );
    });

    test('I17 outstanding is a subtraction: chains carry their depth and stop at the cap, with no A → B → A loop', async () => {
      const clock = manualClock('2030-03-04T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          const chain = ['a', 'b', 'c', 'd'];
          for (const name of chain) {
            await boss.behaviors.add(
              definition(name, {
                triggers: [{ type: 'event', kinds: ['note'] }],
                reads: { scopes: ['agent:runner', 'shared'] },
              }),
            );
          }
          const me = as(ledger);
          const seed = await boss.remember({
            scope: 'shared',
            kind: 'note',
            body: 'Seed note for the chain.',
          });
          clock.advance(1000);
          const runOnce = async (name: string, body: string) => {
            const w = await me.behaviors.next(name);
            if (w === null) return null;
            const done = await me.behaviors.complete({
              run: w.run,
              token: w.token,
              outputs: [{ scope: 'agent:runner', kind: 'note', body }],
            });
            clock.advance(1000);
            return { window: w, output: done.outputs[0]!.id };
          };
          // a, b, c each consume only the seed first (b, c and d are also triggered by the seed note).
          const a = await runOnce('a', 'Note from a.');
          assert.deepEqual(ids(a!.window), [seed.id]);
          assert.equal(a!.window.depth, 1);
          const b = await runOnce('b', 'Note from b.');
          assert.deepEqual(ids(b!.window), [seed.id, a!.output]);
          assert.equal(b!.window.depth, 2);
          const c = await runOnce('c', 'Note from c.');
          assert.deepEqual(ids(c!.window), [seed.id, a!.output, b!.output]);
          assert.equal(c!.window.depth, 3);
          // d may read a's and b's notes, but not c's: c ran at the cap.
          const d = await me.behaviors.next('d');
          assert.deepEqual(ids(d), [seed.id, a!.output, b!.output]);
          // a sees nothing from b or c: both are downstream of a (no loop), and its own output is its own.
          assert.equal(await me.behaviors.next('a'), null);
        },
        { now: clock.now },
      );
    });

    test('I17 outstanding is a subtraction: events arrive on the recording axis and wait out the settle delay', async () => {
      const clock = manualClock('2030-03-05T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger }) => {
          const boss = as(ledger, admin);
          await boss.behaviors.add(definition('settled', { settleSeconds: 30 }));
          const d = await boss.remember({
            scope: 'shared',
            kind: 'decision',
            body: 'Backdated in the world, recorded now.',
            validFrom: '2001-01-01T00:00:00.000Z',
          });
          const me = as(ledger);
          clock.advance(10_000);
          assert.equal(await me.behaviors.next('settled'), null, 'recorded 10 s ago: still settling');
          clock.advance(25_000);
          assert.deepEqual(ids(await me.behaviors.next('settled')), [d.id]);
        },
        { now: clock.now },
      );
    });
  });
}
