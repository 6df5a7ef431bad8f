/**
 * Corroboration in the ledger: the same claim written again while it is live adds evidence to that memory
 * instead of a copy, counting sessions and agents; a rejected claim stays rejected however often it returns (I5).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Ledger, openLedger } from '../../src/index.ts';

async function withLedger(fn: (ledger: Ledger) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'memledger-corroborate-'));
  const ledger = openLedger({ home });
  try {
    await fn(ledger);
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const agentIn = (ledger: Ledger, id: string, sessionId: string) =>
  ledger.as(ledger.principal(`agent:${id}`), { surface: 'feed', sessionId, client: `${id}/1.0` });

const claim = { body: 'We use pnpm, never npm.', kind: 'preference' as const, scope: 'project:acme' };

test('the same held claim from a second session corroborates it: one proposal in review, two sessions counted', () =>
  withLedger(async (ledger) => {
    const me = ledger.as(ledger.operator());
    const first = await agentIn(ledger, 'claude-code', 'session-1').remember(claim);
    assert.equal(first.state, 'held');
    const again = await agentIn(ledger, 'claude-code', 'session-2').remember({
      ...claim,
      body: 'we use PNPM — never npm',
      source: { connector: 'claude-code', id: 'item-2', url: 'file:///home/alice/x.jsonl', note: 'mined' },
    });
    assert.deepEqual([again.id, again.state, again.corroborated], [first.id, 'held', true]);
    assert.match(again.reason ?? '', /corroborates/);
    const queue = await me.reviewList();
    assert.deepEqual(
      queue.map((m) => m.id),
      [first.id],
      'one proposal waits for review, not two',
    );
    const other = await agentIn(ledger, 'claude-code', 'session-2').remember({
      ...claim,
      body: 'We use Yarn.',
    });
    assert.notEqual(other.id, first.id, 'control: a different claim is a new memory');
    assert.equal(other.corroborated, undefined);

    const h = await me.history(first.id);
    assert.deepEqual(
      { count: h.corroboration.count, sessions: h.corroboration.sessions, agents: h.corroboration.agents },
      { count: 1, sessions: 2, agents: 1 },
    );
    const event = h.events.find((e) => e.type === 'corroborated');
    assert.ok(event !== undefined);
    assert.deepEqual(event.detail, {
      principal: 'agent:claude-code',
      principalKind: 'agent',
      surface: 'feed',
      sessionId: 'session-2',
      client: 'claude-code/1.0',
      source: { connector: 'claude-code', id: 'item-2' },
    });
    assert.ok(
      !JSON.stringify(event.detail).includes('alice'),
      'I9: no free-text part of a source in an immutable event',
    );
  }));

test('another agent repeating an active claim corroborates it, counting two agents', () =>
  withLedger(async (ledger) => {
    const me = ledger.as(ledger.operator());
    const landed = await me.remember(claim);
    assert.equal(landed.state, 'active');
    const a = await agentIn(ledger, 'claude-code', 's-a').remember(claim);
    const b = await agentIn(ledger, 'codex', 's-b').remember(claim);
    assert.deepEqual([a.id, a.state, b.id, b.state], [landed.id, 'active', landed.id, 'active']);
    const h = await me.history(landed.id);
    assert.deepEqual(
      [h.corroboration.count, h.corroboration.agents, h.corroboration.principals, h.corroboration.sessions],
      [2, 2, 3, 2],
    );
    assert.equal((await me.search({ query: 'pnpm' })).hits.length, 1, 'search finds one memory, not three');
  }));

test('a keyed claim repeated with the same value corroborates the holder instead of queueing a supersede', () =>
  withLedger(async (ledger) => {
    const me = ledger.as(ledger.operator());
    const holder = await me.remember({ body: 'Node 24', scope: 'project:acme', key: 'runtime.node' });
    const same = await agentIn(ledger, 'codex', 's1').remember({
      body: 'Node 24',
      scope: 'project:acme',
      key: 'runtime.node',
    });
    assert.deepEqual([same.id, same.state, same.corroborated], [holder.id, 'active', true]);
    const changed = await agentIn(ledger, 'codex', 's1').remember({
      body: 'Node 22',
      scope: 'project:acme',
      key: 'runtime.node',
    });
    assert.equal(changed.state, 'held', 'control: a different value is a proposal, held (the key is owned)');
    assert.equal(changed.corroborated, undefined);
  }));

test('I5 rejection stands: a rejected claim written again from a new session lands rejected, never corroborates', () =>
  withLedger(async (ledger) => {
    const me = ledger.as(ledger.operator());
    const proposal = await agentIn(ledger, 'claude-code', 'session-1').remember(claim);
    const before = await agentIn(ledger, 'claude-code', 'session-2').remember(claim);
    assert.equal(before.corroborated, true, 'control: while held, the claim corroborates');
    await me.reject({ id: proposal.id, reason: 'we moved to bun' });
    const after = await agentIn(ledger, 'claude-code', 'session-3').remember(claim);
    assert.equal(after.state, 'rejected');
    assert.notEqual(after.id, proposal.id);
    assert.equal(after.corroborated, undefined);
    assert.match(after.reason ?? '', /we moved to bun/);
    assert.deepEqual(await me.reviewList(), [], 'nothing is queued again');
  }));
