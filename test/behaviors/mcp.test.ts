/**
 * Behaviors over MCP: an SDK client over stdio (the server in a child process, as an agent) claims a window with
 * behavior_next and hands back its outputs with behavior_complete; the results validate against the tools'
 * output schemas, the outputs name their run, and the consumed events are not handed out again.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openLedger, type Ledger, type LedgerSession } from '../../src/index.ts';
import { callTool, type Connected, dataOf, stdioClient, tempHome, textOf } from '../mcp/helpers.ts';

describe('behaviors over MCP (stdio, SDK client)', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let me: LedgerSession;
  let bot: Connected;

  before(async () => {
    home = tempHome('behaviors');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    await me.behaviors.add({
      name: 'digest',
      prompt: 'Write one note summarising the new decisions.',
      triggers: [{ type: 'event', kinds: ['decision'] }],
      reads: { scopes: ['shared'] },
      writes: { kinds: ['note'], scopes: ['agent:bot', 'shared'] },
      settleSeconds: 0,
    });
    bot = await stdioClient(home.home, { as: 'agent:bot' });
  });
  after(async () => {
    await bot.close();
    ledger.close();
    home.cleanup();
  });

  test('behavior_next hands the outstanding window; behavior_complete writes through the gate and consumes it', async () => {
    const d = await me.remember({ scope: 'shared', kind: 'decision', body: 'We deploy on Tuesdays.' });
    const next = await callTool(bot.client, 'behavior_next', { behavior: 'digest' });
    assert.notEqual(next.isError, true, textOf(next));
    const w = dataOf<{
      outstanding: boolean;
      run: string;
      token: string;
      prompt: string;
      events: { memory: { id: string; body: string } }[];
    }>(next);
    assert.equal(w.outstanding, true);
    assert.equal(w.prompt, 'Write one note summarising the new decisions.');
    assert.deepEqual(
      w.events.map((e) => e.memory.id),
      [d.id],
    );

    const done = await callTool(bot.client, 'behavior_complete', {
      run: w.run,
      token: w.token,
      outputs: [
        { scope: 'agent:bot', kind: 'note', body: 'Deploys: Tuesdays.' },
        { scope: 'shared', kind: 'note', body: 'Team note: deploys are on Tuesdays.' },
      ],
    });
    assert.notEqual(done.isError, true, textOf(done));
    const r = dataOf<{ consumed: number; outputs: { id: string; state: string }[] }>(done);
    assert.equal(r.consumed, 1);
    assert.deepEqual(
      r.outputs.map((o) => o.state),
      ['active', 'held'],
      'its own scope lands; shared waits for a person, as any agent write does (I18)',
    );
    const note = await me.get(r.outputs[0]!.id);
    assert.equal(note.provenance.runId, w.run);
    assert.equal(note.provenance.principal, 'agent:bot');

    const again = dataOf<{ outstanding: boolean }>(
      await callTool(bot.client, 'behavior_next', { behavior: 'digest' }),
    );
    assert.equal(again.outstanding, false);
    const runs = await me.behaviors.runs('digest');
    assert.equal(runs[0]!.consumed.length, 1);
  });

  test('behavior_complete with a wrong token is an error result and writes nothing', async () => {
    await me.remember({ scope: 'shared', kind: 'decision', body: 'Retros are monthly.' });
    const w = dataOf<{ run: string; token: string }>(
      await callTool(bot.client, 'behavior_next', { behavior: 'digest' }),
    );
    const before = (await me.list({ scopes: ['agent:bot'] })).length;
    const bad = await callTool(bot.client, 'behavior_complete', {
      run: w.run,
      token: `${w.token.split('.')[0]}.forged`,
      outputs: [{ scope: 'agent:bot', kind: 'note', body: 'Must not land.' }],
    });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /permission/);
    assert.equal((await me.list({ scopes: ['agent:bot'] })).length, before);
    // The control: the right token completes the same run.
    const good = await callTool(bot.client, 'behavior_complete', { run: w.run, token: w.token, outputs: [] });
    assert.notEqual(good.isError, true, textOf(good));
  });
});
