/** retract is idempotent: a second retract of the same memory succeeds unchanged, writes no event, is audited. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectError } from '../conformance/helpers.ts';
import { withLedger } from './helpers.ts';

test('a second retract succeeds with unchanged, keeps the first reason and one event, and is audited', () =>
  withLedger(async ({ me, bot }) => {
    const m = await bot.remember({ body: 'The heron job runs hourly', scope: 'agent:bot' });
    const first = await bot.retract({ id: m.id, reason: 'it runs daily now' });
    assert.deepEqual(first, { id: m.id, state: 'retracted' }, 'control: the first retract changes the state');
    const second = await bot.retract({ id: m.id, reason: 'retried' });
    assert.deepEqual(second, { id: m.id, state: 'retracted', unchanged: true });
    const events = (await me.history(m.id)).events.filter((e) => e.type === 'retracted');
    assert.deepEqual(
      events.map((e) => e.reason),
      ['it runs daily now'],
    );
    const records = (await me.audit({ operation: 'retract', limit: 10 })).filter((r) =>
      r.targets.includes(m.id),
    );
    assert.deepEqual(
      records.map((r) => r.outcome),
      ['ok', 'ok'],
    );
  }));

test('a retract of a superseded memory is still a conflict, and one outside the grants still not_found', () =>
  withLedger(async ({ me, bot }) => {
    const v1 = await bot.remember({ body: 'The heron port is 7000', key: 'heron.port', scope: 'agent:bot' });
    await bot.remember({ body: 'The heron port is 7001', key: 'heron.port', scope: 'agent:bot' });
    await expectError(bot.retract({ id: v1.id, reason: 'old' }), 'conflict');
    const theirs = await me.remember({ body: 'Ann keeps heron notes', scope: 'user:ann' });
    await me.retract({ id: theirs.id, reason: 'gone' });
    await expectError(bot.retract({ id: theirs.id, reason: 'peek' }), 'not_found');
  }));
