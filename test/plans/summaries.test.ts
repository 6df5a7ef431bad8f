/** Summary chains through the library: incremental windows, chain uniqueness, ownership of a window, erasure. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expectError, manualClock } from '../conformance/helpers.ts';
import { withLedger } from '../ledger/helpers.ts';

test('summary windows are incremental: the next starts after the last cutoff, bounded, never from the beginning', () => {
  const clock = manualClock('2026-12-01T09:00:00.000Z');
  return withLedger(
    async ({ me }) => {
      await me.summaries.create({ name: 'ops', scope: 'project:ops' });
      const ids: string[] = [];
      for (const body of ['Deploy moved to Fridays', 'The pager rotates weekly', 'Staging runs on k8s']) {
        clock.advance(1000);
        ids.push((await me.remember({ body, scope: 'project:ops' })).id);
      }
      await me.remember({ body: 'Elsewhere entirely', scope: 'shared' });
      const first = await me.summaries.next({ chain: 'ops', limit: 2 });
      assert.deepEqual(
        first.memories.map((m) => m.id),
        ids.slice(0, 2),
      );
      assert.equal(first.more, true);
      assert.equal(first.previous, null);
      clock.advance(1000);
      const s1 = await me.summaries.add({
        chain: 'ops',
        until: first.until!,
        body: 'Ops: Friday deploys, weekly pager',
        token: first.token,
      });
      assert.equal(s1.state, 'active');
      assert.equal(s1.covered, 2);
      const second = await me.summaries.next({ chain: 'ops' });
      assert.deepEqual(
        second.memories.map((m) => m.id),
        [ids[2]],
        'only what is new since the cutoff',
      );
      assert.equal(second.previous, s1.id);
      assert.equal(second.more, false);
      clock.advance(1000);
      const s2 = await me.summaries.add({
        chain: 'ops',
        until: second.until!,
        body: 'Ops: staging on k8s too',
      });
      assert.equal(s2.previous, s1.id);
      const empty = await me.summaries.next({ chain: 'ops' });
      assert.deepEqual(empty.memories, [], 'the summaries themselves are not source');
      const view = await me.summaries.show('ops');
      assert.deepEqual(
        view.links.map((l) => [l.memoryId, l.previous, l.covered]),
        [
          [s1.id, null, 2],
          [s2.id, s1.id, 1],
        ],
      );
      assert.equal(view.latest?.id, s2.id);
      // The source stays.
      assert.equal((await me.get(ids[0]!)).state, 'active');
      await expectError(
        me.summaries.add({ chain: 'ops', until: first.until!, body: 'Going backwards' }),
        'invalid_input',
      );
      await expectError(
        me.summaries.add({ chain: 'ops', until: second.until!, body: 'The same cutoff again' }),
        'conflict',
      );
      await expectError(
        me.summaries.add({ chain: 'ops', until: second.until!, body: 'An old window', token: first.token }),
        'conflict',
      );
    },
    { now: clock.now },
  );
});

test('summaries: an agent’s summary in a shared chain is held; an unknown or unreadable chain is not_found', () =>
  withLedger(async ({ ledger, me, bot }) => {
    await me.summaries.create({ name: 'team', scope: 'shared' });
    await me.summaries.create({ name: 'alice-notes', scope: 'user:alice' });
    await me.remember({ body: 'The team lunch is on Thursday', scope: 'shared' });
    const w = await bot.summaries.next({ chain: 'team' });
    const held = await bot.summaries.add({ chain: 'team', until: w.until!, body: 'Team: lunch on Thursday' });
    assert.equal(held.state, 'held');
    await expectError(bot.summaries.next({ chain: 'alice-notes' }), 'not_found');
    await expectError(bot.summaries.next({ chain: 'nope' }), 'not_found');
    // A rejected summary stops counting: the window it covered is offered again.
    await me.reject({ id: held.id, reason: 'too vague' });
    const again = await bot.summaries.next({ chain: 'team' });
    assert.equal(again.previous, null);
    assert.equal(again.memories.length, 1);
    void ledger;
  }));

test('chain uniqueness below the guards: two summaries with one previous, or one cutoff twice, conflict', () =>
  withLedger(async ({ ledger, me }) => {
    await me.summaries.create({ name: 'c', scope: 'shared' });
    await me.remember({ body: 'One thing happened', scope: 'shared' });
    const w = await me.summaries.next({ chain: 'c' });
    const s1 = await me.summaries.add({ chain: 'c', until: w.until!, body: 'First summary' });
    const a = await me.remember({ body: 'Planted summary A', scope: 'shared', kind: 'summary' });
    const b = await me.remember({ body: 'Planted summary B', scope: 'shared', kind: 'summary' });
    const link = (memoryId: string, cutoff: string) => ({
      memoryId,
      chain: 'c',
      previous: s1.id,
      after: w.until,
      cutoff,
      covers: [],
      createdAt: cutoff,
      staleAt: null,
    });
    await ledger.store.transaction((tx) => tx.commitments.insertLink(link(a.id, '2099-01-01T00:00:00.000Z')));
    await expectError(
      ledger.store.transaction((tx) => tx.commitments.insertLink(link(b.id, '2099-01-02T00:00:00.000Z'))),
      'conflict',
      'a second next summary of s1',
    );
    await expectError(
      ledger.store.transaction((tx) =>
        tx.commitments.insertLink({ ...link(b.id, w.until!), previous: a.id }),
      ),
      'conflict',
      'the cutoff of s1 again',
    );
  }));

test('erasure marks the summaries covering a subject stale, erases those naming it, and the chain resumes from what remains', () => {
  const clock = manualClock('2026-12-01T09:00:00.000Z');
  return withLedger(
    async ({ me }) => {
      await me.summaries.create({ name: 'crm', scope: 'shared' });
      clock.advance(1000);
      const keep = await me.remember({
        body: 'Globex prefers email',
        scope: 'shared',
        subjects: ['company:globex'],
      });
      const w1 = await me.summaries.next({ chain: 'crm' });
      clock.advance(1000);
      const s1 = await me.summaries.add({ chain: 'crm', until: w1.until!, body: 'CRM: Globex wants email' });
      clock.advance(1000);
      const gone = await me.remember({
        body: 'Initech renews in March',
        scope: 'shared',
        subjects: ['company:initech'],
      });
      clock.advance(1000);
      const other = await me.remember({ body: 'Hooli moved offices', scope: 'shared' });
      const w2 = await me.summaries.next({ chain: 'crm' });
      clock.advance(1000);
      const s2 = await me.summaries.add({
        chain: 'crm',
        until: w2.until!,
        body: 'CRM: Initech renews in March; Hooli moved',
      });
      await me.remember({ body: 'Tail after s2', scope: 'shared' });
      const w3 = await me.summaries.next({ chain: 'crm' });
      clock.advance(1000);
      const s3 = await me.summaries.add({ chain: 'crm', until: w3.until!, body: 'CRM: a quiet week' });
      const preview = await me.erasePreview({ subject: 'company:initech' });
      assert.deepEqual(
        preview.memories.map((m) => m.id).sort(),
        [gone.id, s2.id].sort(),
        'the preview names the summary too',
      );
      await me.erase({ subject: 'company:initech' });
      const view = await me.summaries.show('crm');
      const stale = new Map(view.links.map((l) => [l.memoryId, l.staleAt !== null]));
      assert.equal(stale.get(s1.id), false, 'control: the summary before stays');
      assert.equal(stale.get(s2.id), true, 'the summary covering the erased memory is stale');
      assert.equal(stale.get(s3.id), true, 'so is the one built on it');
      assert.equal((await me.get(s2.id)).state, 'erased', 'its text named the subject');
      assert.equal((await me.get(s2.id)).body, '');
      assert.equal((await me.get(s3.id)).state, 'active', 'stale, but it never named the subject');
      assert.equal(view.latest?.id, s1.id);
      const next = await me.summaries.next({ chain: 'crm' });
      assert.equal(next.previous, s1.id);
      assert.equal(next.after, s1.cutoff);
      const shown = next.memories.map((m) => m.id);
      assert.ok(!shown.includes(gone.id), 'the erased memory is not source any more');
      assert.ok(shown.includes(other.id), 'the remaining source is offered again');
      assert.ok(!shown.includes(keep.id), 'what s1 covers is not');
      clock.advance(1000);
      const redo = await me.summaries.add({
        chain: 'crm',
        until: next.until!,
        body: 'CRM: Hooli moved; a quiet week',
      });
      assert.equal(redo.previous, s1.id);
      assert.equal(redo.state, 'active');
    },
    { now: clock.now },
  );
});

test('a chain following a subject forgets it on erasure and says its source is gone', () =>
  withLedger(async ({ me }) => {
    await me.summaries.create({ name: 'acme', scope: 'shared', subject: 'company:acme' });
    await me.remember({ body: 'Acme pays net 30', scope: 'shared', subjects: ['company:acme'] });
    await me.remember({ body: 'Unrelated note', scope: 'shared' });
    const w = await me.summaries.next({ chain: 'acme' });
    assert.equal(w.memories.length, 1, 'only the subject’s memories');
    await me.erase({ subject: 'company:acme' });
    await expectError(me.summaries.next({ chain: 'acme' }), 'conflict');
  }));

test('context: the newest summary stands in for the memories it covers; a stale summary is never used', () => {
  const clock = manualClock('2026-12-01T09:00:00.000Z');
  return withLedger(
    async ({ me }) => {
      await me.summaries.create({ name: 'deploys', scope: 'shared' });
      const covered: string[] = [];
      for (const body of [
        'The deploy pipeline runs on Fridays',
        'Deploy approvals come from the release captain',
        'A deploy freeze starts on December 20',
      ]) {
        clock.advance(1000);
        covered.push(
          (await me.remember({ body, scope: 'shared', subjects: ['person:dana@example.com'] })).id,
        );
      }
      const w = await me.summaries.next({ chain: 'deploys' });
      clock.advance(1000);
      const summary = await me.summaries.add({
        chain: 'deploys',
        until: w.until!,
        body: 'Deploys: Fridays, approved by the release captain, frozen from December 20',
      });
      clock.advance(1000);
      const later = await me.remember({ body: 'Deploy dashboards moved to Grafana', scope: 'shared' });
      const block = await me.context({ task: 'how do deploys work', budget: 4000 });
      const relevant = block.items.filter((i) => i.pool === 'relevant');
      const ids = relevant.map((i) => i.memory.id);
      assert.ok(ids.includes(summary.id), 'the summary is in the block');
      assert.match(
        relevant.find((i) => i.memory.id === summary.id)!.why,
        /summary of chain deploys .* in place of 3 memories/,
      );
      for (const id of covered) assert.ok(!ids.includes(id), 'the covered memories give way');
      assert.ok(ids.includes(later.id), 'control: a memory after the cutoff is there');

      // Erasing what one covered memory is about makes the summary stale: it is no longer used.
      await me.erase({ subject: 'person:dana@example.com' });
      const after = (await me.context({ task: 'how do deploys work', budget: 4000 })).items.map(
        (i) => i.memory.id,
      );
      assert.equal((await me.get(summary.id)).state, 'active', 'the stale summary never named the subject');
      assert.ok(!after.includes(summary.id), 'a stale summary is not used');
      assert.ok(after.includes(later.id), 'control: still there');
    },
    { now: clock.now },
  );
});
