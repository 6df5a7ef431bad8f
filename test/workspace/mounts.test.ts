/**
 * What the mounts hold: `__commitments` shows current memories of kind commitment, `__corrections` what a
 * reviewer corrected in the agent's writes, `__events` the events on the mounted memories; each beside a
 * control (the other kinds, another agent's corrections) that must not be there.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withWorkspaceHome } from './helpers.ts';

describe('workspace mounts', () => {
  test('__commitments, __corrections and __events hold the caller’s own view of the ledger', () =>
    withWorkspaceHome(async ({ ledger, agent, sql }) => {
      const bot = agent('bot');
      const other = agent('other');
      await bot.remember({ body: 'Send the Q3 report on Friday', scope: 'agent:bot', kind: 'commitment' });
      await bot.remember({ body: 'The report template lives in docs', scope: 'agent:bot' });
      const held = await bot.remember({ body: 'Reports ship on Mondays', scope: 'shared' });
      const heldOther = await other.remember({ body: 'Reports ship on Sundays', scope: 'shared' });
      assert.equal(held.state, 'held');
      const op = ledger.as(ledger.operator());
      await op.reject({ id: held.id, reason: 'they ship on Fridays' });
      await op.reject({ id: heldOther.id, reason: 'no' });
      const r = await sql(
        bot,
        'SELECT kind, body FROM __commitments',
        'SELECT action, proposal_id, reason FROM __corrections',
        'SELECT count(*) FROM __memories',
        'SELECT DISTINCT type FROM __events ORDER BY type',
      );
      assert.deepEqual(r.results[0]?.rows, [['commitment', 'Send the Q3 report on Friday']]);
      assert.deepEqual(r.results[1]?.rows, [['rejected', held.id, 'they ship on Fridays']]);
      assert.equal(r.results[2]?.rows[0]?.[0], 2, 'both current memories of the bot, not the rejected ones');
      assert.deepEqual(r.results[3]?.rows, [['appended']]);
    }));
});
