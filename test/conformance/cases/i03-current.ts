/** I3 current means current: default search and list return only active memories, each checked beside an active control. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger, LedgerSession, State } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';

type Maker = (ledger: Ledger, me: LedgerSession, body: string) => Promise<string>;

// How to bring a memory about `body` into each non-active state, the way users do.
const MAKERS: Record<Exclude<State, 'active'>, Maker> = {
  superseded: async (_ledger, me, body) => {
    const old = await me.remember({ body, scope: 'shared', key: 'i3.slot' });
    await me.remember({ body: 'A replacement without the marker', scope: 'shared', key: 'i3.slot' });
    return old.id;
  },
  retracted: async (_ledger, me, body) => {
    const m = await me.remember({ body, scope: 'shared' });
    await me.retract({ id: m.id, reason: 'no longer true' });
    return m.id;
  },
  rejected: async (_ledger, me, body) => {
    const m = await me.remember({ body, scope: 'shared' });
    await me.reject({ id: m.id, reason: 'wrong', expect: 'active' });
    return m.id;
  },
  held: async (ledger, _me, body) => {
    const agent = ledger.as(ledger.principal('agent:bot'));
    const m = await agent.remember({ body, scope: 'shared' });
    assert.equal(m.state, 'held');
    return m.id;
  },
  erased: async (_ledger, me, body) => {
    const m = await me.remember({ body, scope: 'shared', subjects: ['person:erin@example.com'] });
    await me.erase({ subject: 'person:erin@example.com' });
    return m.id;
  },
};

export function currentCases(factory: ConformanceFactory): void {
  describe('I3 current means current', () => {
    for (const [state, make] of Object.entries(MAKERS)) {
      test(`I3 current: a ${state} memory is absent from default search and list, its active control present`, () =>
        withHome(factory, async ({ ledger }) => {
          const me = ledger.as(ledger.operator());
          const control = await me.remember({
            body: 'Pangolin notes: the control stays visible',
            scope: 'shared',
          });
          const hidden = await make(ledger, me, `Pangolin notes: this one is ${state}`);
          const stored = await me.get(hidden);
          assert.equal(stored.state, state, `setup: the memory is ${state}`);

          const hits = (await me.search({ query: 'pangolin notes' })).hits.map((h) => h.memory.id);
          assert.ok(hits.includes(control.id), 'control found by search');
          assert.ok(!hits.includes(hidden), `${state} memory withheld from search`);
          const listed = (await me.list()).map((m) => m.id);
          assert.ok(listed.includes(control.id), 'control listed');
          assert.ok(!listed.includes(hidden), `${state} memory withheld from list`);
          for (const m of await me.list()) assert.equal(m.state, 'active');
          // Reading other states is explicit.
          const explicit = (await me.list({ states: [state as State] })).map((m) => m.id);
          assert.ok(explicit.includes(hidden), `an explicit ${state} list finds it`);
        }));
    }
  });
}
