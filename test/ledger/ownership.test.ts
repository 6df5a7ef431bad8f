/**
 * Ownership (I6, I7): keys a human wrote, edited, approved or confirmed are claimed by that human; a reviewer
 * can claim and release keys; agent writes to a claimed key are held (or denied) and the review item names
 * the owner; claims are events with a projection, erased with their memory and carried by export and import.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LedgerSession, principalLabel } from '../../src/index.ts';
import { buildPolicy, expectError, linesOf, principal } from '../conformance/helpers.ts';
import { withLedger } from './helpers.ts';

const label = (s: LedgerSession) => principalLabel(s.principal);

test('I6 ownership: a key a human wrote is claimed by them; an agent write to it is held and the review item names the owner', () =>
  withLedger(async ({ me, bot }) => {
    // Control: a key nobody claimed, in the agent's own scope, takes the agent's write at once.
    assert.equal(
      (await bot.remember({ body: 'Cache is warm', scope: 'agent:bot', key: 'cache' })).state,
      'active',
    );

    const human = await me.remember({
      body: 'Support hours are 9 to 5',
      scope: 'agent:bot',
      key: 'support.hours',
    });
    const events = (await me.history(human.id)).events;
    const claimed = events.find((e) => e.type === 'claimed');
    assert.ok(claimed, 'the implicit claim is an event');
    assert.equal(claimed.detail.owner, label(me));
    assert.equal(claimed.detail.implicit, true);

    const r = await bot.remember({
      body: 'Support hours are 24/7',
      scope: 'agent:bot',
      key: 'support.hours',
    });
    assert.equal(r.state, 'held');
    assert.match(r.reason ?? '', new RegExp(`owned by ${label(me)}`));
    const [item] = (await me.reviewList()).filter((m) => m.id === r.id);
    assert.ok(item);
    assert.equal(item.owner, label(me), 'the proposal shows whose field it is');
    assert.equal(item.rule, 'ownership');
  }));

test('I6 ownership: after a reviewer releases a key the rules decide; before, the same write was held', () =>
  withLedger(async ({ me, bot }) => {
    await me.remember({ body: 'Lint runs on commit', scope: 'agent:bot', key: 'lint.when' });
    const before = await bot.remember({ body: 'Lint runs on push', scope: 'agent:bot', key: 'lint.when' });
    assert.equal(before.state, 'held', 'control: claimed, so held');

    const released = await me.release({ scope: 'agent:bot', key: 'lint.when' });
    assert.deepEqual(
      { owner: released.owner, previous: released.previous, changed: released.changed },
      { owner: null, previous: label(me), changed: true },
    );
    const [queued] = (await me.reviewList()).filter((m) => m.id === before.id);
    assert.equal(queued?.owner, null, 'the held proposal no longer names an owner');

    const after = await bot.remember({ body: 'Lint runs on pre-push', scope: 'agent:bot', key: 'lint.when' });
    assert.equal(after.state, 'active', 'agent-own-scope now decides');
    // And the rules still hold agents outside their own scope: release is not a free pass.
    await me.remember({ body: 'Region is eu-west', scope: 'shared', key: 'region' });
    await me.release({ scope: 'shared', key: 'region' });
    const shared = await bot.remember({ body: 'Region is us-east', scope: 'shared', key: 'region' });
    assert.equal(shared.state, 'held');
    assert.match(shared.reason ?? '', /agent-elsewhere-held/);

    const history = await me.history(after.id);
    assert.ok(history.events.some((e) => e.type === 'released' && e.detail.owner === label(me)));
  }));

test('I6 ownership: a reviewer claims a key an agent keeps; the agent’s next write is held, before it was free', () =>
  withLedger(async ({ me, bot }) => {
    await bot.remember({ body: 'Build uses node 20', scope: 'agent:bot', key: 'build.node' });
    const free = await bot.remember({ body: 'Build uses node 22', scope: 'agent:bot', key: 'build.node' });
    assert.equal(free.state, 'active', 'control: unclaimed');

    const c = await me.claim({ scope: 'agent:bot', key: 'build.node' });
    assert.deepEqual(
      { owner: c.owner, previous: c.previous, holder: c.holder, changed: c.changed },
      { owner: label(me), previous: null, holder: free.id, changed: true },
    );
    assert.equal((await me.claim({ scope: 'agent:bot', key: 'build.node' })).changed, false, 'idempotent');
    const next = await bot.remember({ body: 'Build uses node 24', scope: 'agent:bot', key: 'build.node' });
    assert.equal(next.state, 'held');
    assert.equal((await me.get(next.id)).rule, 'ownership');
  }));

test('I6 ownership: with ownership deny an agent write to a claimed key is refused and writes nothing; unclaimed it lands', () =>
  withLedger(
    async ({ me, bot }) => {
      await me.remember({ body: 'Owner is Ann', scope: 'agent:bot', key: 'owner' });
      const e = await expectError(
        bot.remember({ body: 'Owner is Bob', scope: 'agent:bot', key: 'owner' }),
        'permission',
      );
      assert.equal(e.details.rule, 'ownership');
      assert.equal((await me.list({ key: 'owner', states: ['held', 'active'] })).length, 1);
      // Control: the same write to a key nobody claimed lands.
      assert.equal(
        (await bot.remember({ body: 'Tier is gold', scope: 'agent:bot', key: 'tier' })).state,
        'active',
      );
    },
    {
      policy: buildPolicy({
        principals: { 'agent:*': { grants: ['agent:{self}:rw', 'shared:rw'] } },
        rules: [
          { name: 'humans-land', when: { principal: 'human:*' }, action: 'allow' },
          { name: 'agent-own', when: { scope: 'agent:{self}' }, action: 'allow' },
        ],
        ownership: 'deny',
      }),
    },
  ));

test('I7 only humans judge: an agent, and a human without the reviewer role, cannot claim or release; a reviewer can', () =>
  withLedger(async ({ ledger, me, bot }) => {
    await me.remember({ body: 'Plan is Pro', scope: 'shared', key: 'plan' });
    const writer = ledger.as(
      principal('human', 'wes', { roles: ['reader', 'writer'], grants: ['shared:rw'] }),
    );
    for (const [who, session] of [
      ['agent', bot],
      ['human without reviewer', writer],
    ] as const) {
      const e1 = await expectError(session.claim({ scope: 'shared', key: 'plan' }), 'permission', who);
      const e2 = await expectError(session.release({ scope: 'shared', key: 'plan' }), 'permission', who);
      assert.match(`${e1.message} ${e2.message}`, who === 'agent' ? /only a human/ : /reviewer role/);
    }
    const reviewer = ledger.as(
      principal('human', 'rex', { roles: ['reader', 'writer', 'reviewer'], grants: ['shared:rw'] }),
    );
    assert.equal((await reviewer.claim({ scope: 'shared', key: 'plan' })).owner, 'human:rex');
    assert.equal((await reviewer.release({ scope: 'shared', key: 'plan' })).previous, 'human:rex');
  }));

test('I4 scope: a reviewer cannot claim a key in a scope it may not write; in its own it can', () =>
  withLedger(async ({ ledger, me }) => {
    await me.remember({ body: 'Alice prefers tea', scope: 'user:alice', key: 'drink' });
    await me.remember({ body: 'Team drinks coffee', scope: 'shared', key: 'drink' });
    const rex = ledger.as(
      principal('human', 'rex', { roles: ['reader', 'writer', 'reviewer'], grants: ['shared:rw'] }),
    );
    await expectError(rex.claim({ scope: 'user:alice', key: 'drink' }), 'permission');
    await expectError(rex.release({ scope: 'user:alice', key: 'drink' }), 'permission');
    assert.equal((await rex.claim({ scope: 'shared', key: 'drink' })).owner, 'human:rex');
  }));

test('claim needs a current value and release an existing claim: not_found otherwise, invalid_input for a bad key', () =>
  withLedger(async ({ me }) => {
    await expectError(me.claim({ scope: 'shared', key: 'nothing.here' }), 'not_found');
    await me.remember({ body: 'Plan is Pro', scope: 'shared', key: 'plan' });
    await me.release({ scope: 'shared', key: 'plan' });
    await expectError(me.release({ scope: 'shared', key: 'plan' }), 'not_found');
    await expectError(me.claim({ scope: 'shared', key: ' bad key' }), 'invalid_input');
    await expectError(me.claim({ scope: 'nowhere', key: 'plan' }), 'invalid_input');
  }));

test('I6 ownership: approving, editing and confirming each claim the key for the reviewer', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const rex = ledger.as(
      principal('human', 'rex', { roles: ['reader', 'writer', 'reviewer'], grants: ['shared:rw'] }),
    );
    const claimOf = async (key: string) => {
      // A write by a fresh agent shows whose field the key is.
      const r = await bot.remember({ body: `probe ${key} ${Math.random()}`, scope: 'shared', key });
      const [item] = (await me.reviewList()).filter((m) => m.id === r.id);
      await me.reject({ id: r.id, reason: 'probe' });
      return item?.owner ?? null;
    };
    const approved = await bot.remember({ body: 'Region is eu-west', scope: 'shared', key: 'region' });
    await rex.approve({ id: approved.id });
    assert.equal(await claimOf('region'), 'human:rex');

    const edited = await bot.remember({ body: 'Tier is silver', scope: 'shared', key: 'tier' });
    await rex.approve({ id: edited.id, body: 'Tier is gold' });
    assert.equal(await claimOf('tier'), 'human:rex');

    const own = await bot.remember({ body: 'Cache on', scope: 'agent:bot', key: 'cache' });
    const free = await bot.remember({ body: 'Cache off', scope: 'agent:bot', key: 'cache' });
    assert.equal(free.state, 'active', 'control: unconfirmed, the agent rewrites freely');
    await me.confirm({ id: free.id });
    const next = await bot.remember({ body: 'Cache auto', scope: 'agent:bot', key: 'cache' });
    assert.equal(next.state, 'held');
    assert.ok(
      (await me.history(own.id)).events.some((e) => e.type === 'claimed' && e.detail.via === 'confirm'),
    );
  }));

test('I6 ownership: an agent cannot retract a claimed value; once released it may, in its own scope', () =>
  withLedger(async ({ me, bot }) => {
    const m = await me.remember({ body: 'Backups run nightly', scope: 'agent:bot', key: 'backups' });
    const e = await expectError(bot.retract({ id: m.id, reason: 'stale' }), 'permission');
    assert.match(e.message, /owned by/);
    await me.release({ scope: 'agent:bot', key: 'backups' });
    assert.equal((await bot.retract({ id: m.id, reason: 'stale' })).state, 'retracted');
  }));

test('I9 erasure takes a key’s claim with its memory: afterwards the agent writes the key freely', () =>
  withLedger(async ({ me, bot }) => {
    await me.remember({
      body: 'Alice phone is 555-0100',
      scope: 'agent:bot',
      key: 'alice.phone',
      subjects: ['person:alice@example.com'],
    });
    const held = await bot.remember({
      body: 'Alice phone is 555-0199',
      scope: 'agent:bot',
      key: 'alice.phone',
    });
    assert.equal(held.state, 'held', 'control: claimed before the erasure');
    await me.reject({ id: held.id, reason: 'wrong number' });
    await me.erase({ subject: 'person:alice@example.com' });
    const after = await bot.remember({ body: 'Alice moved away', scope: 'agent:bot', key: 'alice.phone' });
    assert.equal(after.state, 'active');
  }));

test('I6 ownership travels with export and import: a claimed key stays claimed, a released one stays free', () =>
  withLedger(async ({ me }) => {
    await me.remember({ body: 'Plan is Pro', scope: 'agent:bot', key: 'plan' });
    await me.remember({ body: 'Seats are 10', scope: 'agent:bot', key: 'seats' });
    await me.release({ scope: 'agent:bot', key: 'seats' });
    const lines: string[] = [];
    for await (const line of me.export()) lines.push(line);

    await withLedger(async ({ me: other, bot }) => {
      const imported = await other.import(linesOf(lines), { mode: 'restore' });
      assert.equal(imported.imported, 3, 'two memories and the claim on plan');
      const plan = await bot.remember({ body: 'Plan is Free', scope: 'agent:bot', key: 'plan' });
      assert.equal(plan.state, 'held', 'the claim came along');
      const seats = await bot.remember({ body: 'Seats are 12', scope: 'agent:bot', key: 'seats' });
      assert.equal(seats.state, 'active', 'the release came along');
    });
  }));
