/** Commitments through the library: lifecycle and who may move what, due and semantic triggers, the context pool. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectError, manualClock } from '../conformance/helpers.ts';
import { withLedger } from '../ledger/helpers.ts';

test('commitment lifecycle: each move is an event with who and when, done sets completedAt, done is final', () => {
  const clock = manualClock('2026-12-01T09:00:00.000Z');
  return withLedger(
    async ({ ledger, me, bot }) => {
      const added = await bot.commitments.add({ body: 'Rotate the staging keys', scope: 'agent:bot' });
      assert.equal(added.state, 'active');
      assert.equal(added.commitment?.status, 'open');
      assert.equal(added.commitment?.owner, 'agent:bot');
      const id = added.id;
      clock.advance(60_000);
      const doing = await bot.commitments.update({ id, status: 'doing' });
      assert.deepEqual(doing.change, {
        from: 'open',
        to: 'doing',
        by: 'agent:bot',
        at: '2026-12-01T09:01:00.000Z',
      });
      assert.equal(doing.commitment.completedAt, null);
      clock.advance(60_000);
      const done = await bot.commitments.update({ id, status: 'done' });
      assert.equal(done.commitment.completedAt, '2026-12-01T09:02:00.000Z');
      assert.equal(done.commitment.statusBy, 'agent:bot');
      await expectError(bot.commitments.update({ id, status: 'open' }), 'conflict', 'reopening a done one');
      const { commitment, changes } = await me.commitments.get(id);
      assert.equal(commitment.status, 'done');
      assert.deepEqual(
        changes.map((c) => [c.from, c.to, c.by, c.at]),
        [
          ['open', 'doing', 'agent:bot', '2026-12-01T09:01:00.000Z'],
          ['doing', 'done', 'agent:bot', '2026-12-01T09:02:00.000Z'],
        ],
      );
      // The memory itself never changed: the status lives beside it (I1).
      const history = await me.history(id);
      assert.equal(history.versions.length, 1);
      assert.equal(history.versions[0]!.body, 'Rotate the staging keys');
      void ledger;
    },
    { now: clock.now },
  );
});

test('an agent moves only its own commitments; only a human cancels someone else’s', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const mine = await me.commitments.add({ body: 'Call the auditor back', scope: 'shared' });
    const other = ledger.as(ledger.principal('agent:other'));
    const theirs = await other.commitments.add({ body: 'Re-run the nightly export', scope: 'agent:other' });
    await expectError(
      bot.commitments.update({ id: mine.id, status: 'cancelled' }),
      'permission',
      'agent cancels a human’s',
    );
    await expectError(
      bot.commitments.update({ id: mine.id, status: 'doing' }),
      'permission',
      'agent moves a human’s',
    );
    assert.equal(
      (await me.commitments.get(mine.id)).commitment.status,
      'open',
      'unchanged after the refusals',
    );
    // agent:other's scope is not bot's to read: not_found, as for any memory (I4).
    await expectError(bot.commitments.update({ id: theirs.id, status: 'done' }), 'not_found');
    const cancelled = await me.commitments.update({ id: theirs.id, status: 'cancelled' });
    assert.equal(cancelled.commitment.status, 'cancelled');
    assert.equal(cancelled.change?.by, `human:${ledger.operator().id}`);
  }));

test('an agent’s commitment in a shared scope is held for review and cannot move until approved', () =>
  withLedger(async ({ me, bot }) => {
    const held = await bot.commitments.add({ body: 'Email Acme the renewal quote', scope: 'shared' });
    assert.equal(held.state, 'held');
    assert.equal(held.commitment?.state, 'held');
    assert.ok(!(await me.commitments.list()).some((c) => c.id === held.id), 'not listed while held');
    await expectError(bot.commitments.update({ id: held.id, status: 'doing' }), 'conflict');
    await me.approve({ id: held.id });
    const listed = await me.commitments.list();
    assert.deepEqual(
      listed.map((c) => [c.id, c.status]),
      [[held.id, 'open']],
    );
    assert.equal((await bot.commitments.update({ id: held.id, status: 'doing' })).commitment.status, 'doing');
  }));

test('a rejected commitment proposed again lands rejected, with no lifecycle, beside a control that lands', () =>
  withLedger(async ({ ledger, me, bot }) => {
    const first = await bot.commitments.add({
      body: 'Offer Acme a 40% discount',
      scope: 'shared',
      due: '2026-12-09',
    });
    await me.reject({ id: first.id, reason: 'not our pricing policy' });
    const other = ledger.as(ledger.principal('agent:miner'), { surface: 'mcp', sessionId: 'later' });
    const again = await other.commitments.add({
      body: 'offer acme a 40% DISCOUNT',
      scope: 'shared',
      due: '2027-01-01',
    });
    assert.equal(again.state, 'rejected');
    assert.equal(again.commitment, null);
    assert.match(again.reason ?? '', /not our pricing policy/);
    const control = await me.commitments.add({ body: 'Send Acme the standard quote', scope: 'shared' });
    const ids = (await me.commitments.list()).map((c) => c.id);
    assert.ok(ids.includes(control.id), 'control listed');
    assert.ok(!ids.includes(again.id) && !ids.includes(first.id), 'rejected ones absent');
  }));

test('context: due and triggered commitments first; done and cancelled never appear beside an open control', () => {
  const clock = manualClock('2026-12-10T12:00:00.000Z');
  return withLedger(
    async ({ me }) => {
      const later = await me.commitments.add({
        body: 'Plan the offsite agenda',
        scope: 'shared',
        due: '2027-03-01',
      });
      const triggered = await me.commitments.add({
        body: 'Mention the price change when renewals come up',
        scope: 'shared',
        triggers: { words: ['acme renewal'] },
      });
      const overdue = await me.commitments.add({
        body: 'File the Q3 expense report',
        scope: 'shared',
        due: '2026-12-01',
      });
      const done = await me.commitments.add({ body: 'Book the venue for the offsite', scope: 'shared' });
      const cancelled = await me.commitments.add({ body: 'Order offsite hoodies', scope: 'shared' });
      await me.commitments.update({ id: done.id, status: 'done' });
      await me.commitments.update({ id: cancelled.id, status: 'cancelled' });
      const r = await me.context({ task: 'prepare the Acme renewals call', budget: 4000 });
      const pool = r.items.filter((i) => i.pool === 'commitments');
      const ids = pool.map((i) => i.memory.id);
      assert.deepEqual(ids.slice(0, 2).sort(), [overdue.id, triggered.id].sort(), 'due and triggered first');
      assert.equal(ids[2], later.id, 'then the rest, soonest due first');
      assert.ok(!ids.includes(done.id) && !ids.includes(cancelled.id), 'done and cancelled absent');
      const why = new Map(pool.map((i) => [i.memory.id, i.why]));
      assert.match(why.get(overdue.id) ?? '', /due 2026-12-01/);
      assert.match(why.get(triggered.id) ?? '', /triggered by the task: words "acme renewal"/);
      assert.match(why.get(later.id) ?? '', /^open commitment, due 2027-03-01$/);
      const quiet = await me.context({ task: 'fix the printer', budget: 4000 });
      const quietIds = quiet.items.filter((i) => i.pool === 'commitments').map((i) => i.memory.id);
      assert.equal(quietIds[0], overdue.id, 'without the trigger words, only the due one leads');
      assert.ok(quietIds.includes(triggered.id), 'the untriggered one is still open');
    },
    { now: clock.now },
  );
});

test('commitments due in a window: due time, time trigger and schedule, live ones only, in the caller’s scopes', () => {
  const clock = manualClock('2026-12-01T08:00:00.000Z');
  return withLedger(
    async ({ ledger, me, bot }) => {
      const due = await me.commitments.add({
        body: 'Renew the TLS certificate',
        scope: 'shared',
        due: '2026-12-01T10:00:00Z',
      });
      const reminder = await me.commitments.add({
        body: 'Check the backup report',
        scope: 'shared',
        triggers: { at: '2026-12-01T09:30:00Z' },
      });
      const weekly = await me.commitments.add({
        body: 'Review the open pull requests',
        scope: 'shared',
        triggers: { schedule: { cron: '0 11 * * 2', tz: 'Europe/Paris' } },
      });
      const outside = await me.commitments.add({
        body: 'Pay the invoice',
        scope: 'shared',
        due: '2026-12-03T10:00:00Z',
      });
      const doneOne = await me.commitments.add({
        body: 'Send the agenda',
        scope: 'shared',
        due: '2026-12-01T09:00:00Z',
      });
      await me.commitments.update({ id: doneOne.id, status: 'done' });
      const privateOne = await me.commitments.add({
        body: 'Dentist',
        scope: 'user:alice',
        due: '2026-12-01T09:00:00Z',
      });
      const got = await me.commitments.dueIn({ from: '2026-12-01T08:00:00Z', to: '2026-12-01T12:00:00Z' });
      // 2026-12-01 is a Tuesday: 11:00 in Paris is 10:00 UTC.
      assert.deepEqual(
        got.map((p) => [p.commitment.id, p.reason, p.at]),
        [
          [reminder.id, 'reminder', '2026-12-01T09:30:00.000Z'],
          [due.id, 'due', '2026-12-01T10:00:00.000Z'],
          [weekly.id, 'schedule', '2026-12-01T10:00:00.000Z'],
        ]
          .concat([[privateOne.id, 'due', '2026-12-01T09:00:00.000Z']])
          .sort((a, b) => String(a[2]).localeCompare(String(b[2]))),
      );
      assert.ok(!got.some((p) => p.commitment.id === outside.id || p.commitment.id === doneOne.id));
      const botSees = (
        await bot.commitments.dueIn({ from: '2026-12-01T08:00:00Z', to: '2026-12-01T12:00:00Z' })
      ).map((p) => p.commitment.id);
      assert.ok(!botSees.includes(privateOne.id), 'user:alice is not the agent’s to read (I4)');
      assert.ok(botSees.includes(due.id), 'control: the shared one is');
      await expectError(
        me.commitments.add({
          body: 'x',
          scope: 'shared',
          triggers: { schedule: { cron: '61 * * * *', tz: 'UTC' } },
        }),
        'invalid_input',
      );
      await expectError(
        me.commitments.add({
          body: 'x',
          scope: 'shared',
          triggers: { schedule: { cron: '0 9 * * 1', tz: 'Mars/Olympus' } },
        }),
        'invalid_input',
      );
      void ledger;
    },
    { now: clock.now },
  );
});

test('a new memory triggers the commitments whose words, subject or key it carries; done ones stay quiet', () =>
  withLedger(async ({ me }) => {
    const byWords = await me.commitments.add({
      body: 'Raise the price change',
      scope: 'shared',
      triggers: { words: ['acme renewal'] },
    });
    const bySubject = await me.commitments.add({
      body: 'Ask Bob about the contract',
      scope: 'shared',
      triggers: { subjects: ['person:bob@example.com'] },
    });
    const byKey = await me.commitments.add({
      body: 'Recheck the plan',
      scope: 'shared',
      triggers: { keys: ['acme.plan'] },
    });
    const finished = await me.commitments.add({
      body: 'Old follow-up',
      scope: 'shared',
      triggers: { words: ['acme renewal'] },
    });
    await me.commitments.update({ id: finished.id, status: 'done' });
    const hits = await me.commitments.triggeredBy({
      text: 'The Acme renewals are due next month',
      key: 'acme.plan',
      subjects: ['person:bob@example.com'],
    });
    assert.deepEqual(hits.map((h) => h.commitment.id).sort(), [byWords.id, bySubject.id, byKey.id].sort());
    assert.equal(hits.find((h) => h.commitment.id === byWords.id)?.matched, 'words "acme renewal"');
    const none = await me.commitments.triggeredBy({ text: 'Globex signed for two years' });
    assert.deepEqual(none, []);
  }));

test('a held commitment approved with edits keeps its lifecycle under the edited version, which its owner moves', () =>
  withLedger(async ({ me, bot }) => {
    const held = await bot.commitments.add({ body: 'Email Acme the quote tomorrow', scope: 'shared' });
    assert.equal(held.state, 'held');
    const approved = await me.approve({ id: held.id, body: 'Email Acme the revised quote tomorrow' });
    assert.notEqual(approved.id, held.id);
    const listed = await me.commitments.list();
    assert.deepEqual(
      listed.map((c) => [c.id, c.status, c.owner, c.body]),
      [[approved.id, 'open', 'agent:bot', 'Email Acme the revised quote tomorrow']],
    );
    assert.equal(
      (await bot.commitments.update({ id: approved.id, status: 'doing' })).commitment.status,
      'doing',
    );
    await expectError(
      bot.commitments.update({ id: held.id, status: 'doing' }),
      'conflict',
      'the proposal is superseded',
    );
  }));
