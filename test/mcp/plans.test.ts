/** Commitments and summary chains over MCP: an SDK client over stdio adds, lists and moves; reads and adds a window. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Ledger, type LedgerSession, openLedger } from '../../src/index.ts';
import { callTool, type Connected, dataOf, stdioClient, tempHome, textOf } from './helpers.ts';

describe('MCP commitments and summaries over stdio', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let me: LedgerSession;
  let bot: Connected;

  before(async () => {
    home = tempHome('plans');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    bot = await stdioClient(home.home, { as: 'agent:bot' });
  });
  after(async () => {
    await bot.close();
    ledger.close();
    home.cleanup();
  });

  const ok = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const r = await callTool(bot.client, name, args);
    assert.notEqual(r.isError, true, textOf(r));
    return dataOf<T>(r);
  };

  test('add_commitment lands in the agent’s own scope, is held in shared; list and update move only its own', async () => {
    const own = await ok<{
      id: string;
      state: string;
      commitment: { status: string; owner: string; due: string };
    }>('add_commitment', { text: 'Re-run the flaky test suite', due: '2031-01-02', when: ['flaky tests'] });
    assert.equal(own.state, 'active');
    assert.equal(own.commitment.owner, 'agent:bot');
    assert.equal(own.commitment.due, '2031-01-02T00:00:00.000Z');
    const held = await ok<{ state: string; next: string }>('add_commitment', {
      text: 'Tell the customer the fix ships Friday',
      scope: 'shared',
    });
    assert.equal(held.state, 'held');
    assert.match(held.next, /approve/);
    const human = await me.commitments.add({ body: 'Sign the vendor contract', scope: 'shared' });
    const listed = await ok<{ commitments: { id: string }[] }>('list_commitments', {});
    const ids = listed.commitments.map((c) => c.id);
    assert.ok(ids.includes(own.id) && ids.includes(human.id), 'its own and the shared one');
    const moved = await ok<{ commitment: { status: string; completed_at?: string }; changed: boolean }>(
      'update_commitment',
      { id: own.id, status: 'done' },
    );
    assert.equal(moved.changed, true);
    assert.equal(moved.commitment.status, 'done');
    assert.ok(moved.commitment.completed_at !== undefined);
    const refused = await callTool(bot.client, 'update_commitment', { id: human.id, status: 'cancelled' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /permission/);
    assert.equal((await me.commitments.get(human.id)).commitment.status, 'open', 'unchanged');
    const changes = (await me.commitments.get(own.id)).changes;
    assert.deepEqual(
      changes.map((c) => [c.to, c.by]),
      [['done', 'agent:bot']],
    );
  });

  test('summary_next hands over the window after the last cutoff; summary_add stores it through the gate', async () => {
    await me.summaries.create({ name: 'bot-notes', scope: 'agent:bot' });
    await ledger
      .as(ledger.principal('agent:bot'))
      .remember({ body: 'The build cache lives in /tmp/cache', scope: 'agent:bot' });
    const w = await ok<{
      memories: { id: string; body: string }[];
      until: string;
      token: string;
      more: boolean;
    }>('summary_next', { chain: 'bot-notes' });
    assert.ok(w.memories.some((m) => m.body.includes('build cache')));
    const added = await ok<{ id: string; state: string; covered: number; cutoff: string }>('summary_add', {
      chain: 'bot-notes',
      until: w.until,
      token: w.token,
      body: 'Notes: the build cache is in /tmp/cache',
    });
    assert.equal(added.state, 'active');
    assert.ok(added.covered >= 1);
    const again = await ok<{ memories: unknown[]; previous: string; next: string }>('summary_next', {
      chain: 'bot-notes',
    });
    assert.deepEqual(again.memories, []);
    assert.equal(again.previous, added.id);
    const stale = await callTool(bot.client, 'summary_add', {
      chain: 'bot-notes',
      until: w.until,
      token: w.token,
      body: 'A second take on the same window',
    });
    assert.equal(stale.isError, true, 'the window moved');
    assert.match(textOf(stale), /conflict/);
  });
});
