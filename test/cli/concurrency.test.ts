/**
 * Several `memledger` processes on one home at once: every acknowledged write survives (I13), and of two
 * racing supersedes exactly one wins while the other exits with the conflict code naming the winner (I2).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { EXIT_CODES } from '../../src/surfaces/cli/exit-codes.ts';
import { type CliResult, cli, cliInProcess, ok, withTempHome } from './helpers.ts';

const WRITERS = 4;
// 4 × 12 spawned processes: enough interleaving to catch a lost write, few enough for two cores.
const WRITES_EACH = 12;
const RACES = 10;

/** Every memory in the home, in every state, by id. */
async function everyMemory(home: string): Promise<Map<string, { body: string; state: string }>> {
  const lines = ok(await cliInProcess(home, ['export']))
    .stdout.trim()
    .split('\n');
  return new Map(
    lines
      .map((l) => JSON.parse(l))
      .filter((d) => d.type === 'memory')
      .map((d) => [d.memory.id, d.memory] as const),
  );
}

test('I13 durable when acknowledged: concurrent CLI writers on one home lose nothing', () =>
  withTempHome(async (home) => {
    ok(await cli(home, ['init']));
    const acknowledged = new Map<string, string>();
    // Each writer is a chain of processes; the chains run at the same time, so their writes interleave.
    const writer = async (w: number) => {
      for (let i = 0; i < WRITES_EACH; i++) {
        const body = `writer ${w} note ${i}`;
        const r = await cli(home, ['remember', body, '--json'], {
          env: { MEMLEDGER_SESSION_ID: `writer-${w}` },
        });
        // Writers wait for the lock (busy timeout) rather than fail: each of these short writes must land.
        ok(r, `writer ${w} write ${i}`);
        acknowledged.set(r.json().id, body);
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));

    assert.equal(acknowledged.size, WRITERS * WRITES_EACH);
    const stored = await everyMemory(home);
    for (const [id, body] of acknowledged) {
      assert.equal(stored.get(id)?.body, body, `acknowledged write ${id} survived`);
      assert.equal(stored.get(id)?.state, 'active');
    }
    assert.equal(stored.size, acknowledged.size, 'and nothing else appeared');
  }));

test('I2 one successor: two racing `remember --supersedes X` processes, one wins, the other gets conflict naming the winner', () =>
  withTempHome(async (home) => {
    // The targets are written through the library, as a script would, to keep the test's time on the races.
    const ledger = openLedger({ home });
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    const targets: string[] = [];
    for (let i = 0; i < RACES; i++) {
      targets.push((await me.remember({ body: `The plan of account ${i} is Pro`, scope: 'shared' })).id);
    }
    ledger.close();

    const winners: string[] = [];
    for (const [i, target] of targets.entries()) {
      const race = (who: string) =>
        cli(home, ['remember', `The plan of account ${i} is ${who}`, '--supersedes', target, '--json'], {
          env: { MEMLEDGER_SESSION_ID: who },
        });
      const results: CliResult[] = await Promise.all([race('Enterprise'), race('Team')]);
      const won = results.filter((r) => r.code === 0);
      const lost = results.filter((r) => r.code !== 0);
      assert.equal(won.length, 1, `race ${i}: exactly one wins\n${results.map((r) => r.stderr).join('\n')}`);
      const winner = won[0]!.json();
      assert.equal(winner.supersedes, target);
      assert.equal(lost[0]!.code, EXIT_CODES.conflict, lost[0]!.stderr);
      const error = lost[0]!.error();
      assert.equal(error.class, 'conflict');
      assert.ok(error.message.includes(winner.id), `the loser is told the winner: ${error.message}`);
      assert.equal(error.details?.winner, winner.id);
      winners.push(winner.id);
    }

    // Nothing lost: each target is superseded by its winner, and no second successor landed.
    const stored = await everyMemory(home);
    assert.equal(stored.size, RACES * 2, 'each target and its one winner; the losers left nothing');
    for (const [i, target] of targets.entries()) {
      const t = stored.get(target) as unknown as { state: string; supersededBy: string };
      assert.equal(t.state, 'superseded');
      assert.equal(t.supersededBy, winners[i]);
      assert.equal(stored.get(winners[i]!)?.state, 'active');
    }
  }));

test('I5 rejection stands: `review approve` and `review reject` racing on one held write in two processes, exactly one wins', () =>
  withTempHome(async (home) => {
    const ledger = openLedger({ home });
    const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
    const held: string[] = [];
    for (let i = 0; i < RACES; i++) {
      const r = await agent.remember({ body: `Proposal ${i} for the shared scope`, scope: 'shared' });
      assert.equal(r.state, 'held');
      held.push(r.id);
    }
    ledger.close();

    for (const [i, id] of held.entries()) {
      const calls = [
        cli(home, ['review', 'approve', id, '--json']),
        cli(home, ['review', 'reject', id, '--reason', 'not so', '--json']),
      ];
      const results = await Promise.all(i % 2 === 0 ? calls : calls.reverse());
      const won = results.filter((r) => r.code === 0);
      const lost = results.filter((r) => r.code !== 0);
      assert.equal(won.length, 1, `race ${i}: one verdict wins\n${results.map((r) => r.stderr).join('\n')}`);
      assert.equal(lost[0]!.code, EXIT_CODES.conflict, lost[0]!.stderr);
      const state = won[0]!.json<{ state: string }>().state;
      assert.equal((await everyMemory(home)).get(id)?.state, state, 'the winner’s verdict is the state');
    }
  }));
