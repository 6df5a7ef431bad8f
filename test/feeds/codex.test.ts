/**
 * The Codex feed: rollouts with session_meta, turn_context, response_item and event_msg lines, read into the
 * review queue. Only what the person typed is read for requests and preferences (not the injected instructions,
 * not the model's reasoning); a failed shell call followed by the fix is a note; a partial last line waits.
 */
import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { syncFeed } from '../../src/feeds/sync.ts';
import type { Ledger, Memory } from '../../src/index.ts';
import { cx, withWorld, writeRollout } from './fixtures.ts';

async function everything(ledger: Ledger): Promise<Memory[]> {
  return (
    await ledger.as(ledger.operator()).list({ states: ['held', 'active', 'rejected'], limit: 200 })
  ).reverse();
}

test("I6 gate: a Codex rollout lands the person's claims and a fixed error, held and unverified, in the remote's project", () =>
  withWorld(async (world, ledger) => {
    const id = '5973b6c0-94b8-487b-a530-2aeb6098ae0e';
    const path = writeRollout({
      sessions: world.codexSessions,
      id,
      lines: [
        cx.sessionMeta(id, join(world.root, 'elsewhere'), 'https://github.com/acme/billing.git'),
        cx.turnContext(join(world.root, 'elsewhere')),
        cx.user('Remember that invoices are generated at midnight UTC.'),
        cx.reasoning(),
        cx.assistant("I'll look at the scheduler."),
        cx.shell('call_1', 'npm test', 'Error: Cannot find module "luxon"\nRequire stack: ...', 1),
        cx.assistant('The issue was that luxon was only a devDependency in the worker package.'),
        cx.tokens(),
        cx.shell('call_2', 'npm test', 'Tests: 12 passed\nAlways use yarn', 0),
        cx.compacted('The user prefers tabs. Remember that we deploy on Fridays.'),
        cx.user('We decided to move cron jobs to the worker because the API pods scale to zero.'),
      ],
      partial:
        '{"timestamp":"2025-11-01T09:10:00Z","type":"event_msg","payload":{"type":"user_message","message":"Never',
    });
    await ledger
      .as(ledger.operator())
      .feedAdd({ name: 'codex', connector: 'codex', config: { path: world.codexSessions } });
    const report = await syncFeed(ledger, ledger.as(ledger.operator()), 'codex');
    assert.equal(report.error, null);
    assert.equal(report.skipped, 0);
    const mined = await everything(ledger);
    assert.deepEqual(
      mined.map((m) => [m.kind, m.body]).sort(),
      [
        ['decision', 'We decided to move cron jobs to the worker because the API pods scale to zero.'],
        ['fact', 'Invoices are generated at midnight UTC.'],
        [
          'note',
          'The issue was that luxon was only a devDependency in the worker package (error: Error: Cannot find module "luxon").',
        ],
      ].sort(),
      'not mined: session instructions, injected user_instructions, reasoning, a passing tool output, the compaction summary',
    );
    for (const m of mined) {
      assert.deepEqual(
        [m.state, m.trust, m.scope, m.provenance.principal, m.provenance.sessionId, m.provenance.client],
        ['held', 'unverified', 'project:billing', 'agent:codex', id, 'codex/0.50.0'],
      );
      assert.match(m.provenance.source?.id ?? '', new RegExp(`^${id}@\\d+#`));
    }

    // The last line completes in a later chunk: session_meta (first line) is carried in the checkpoint.
    appendFileSync(path, ' push on Fridays.","images":[]}}\n');
    const second = await syncFeed(ledger, ledger.as(ledger.operator()), 'codex');
    assert.equal(second.written, 1);
    const last = (await everything(ledger)).at(-1)!;
    assert.deepEqual(
      [last.body, last.provenance.sessionId, last.scope],
      ['Never push on Fridays.', id, 'project:billing'],
    );
    const third = await syncFeed(ledger, ledger.as(ledger.operator()), 'codex');
    assert.deepEqual([third.entries, third.written], [0, 0], 'running it again changes nothing');
  }));

test('a rollout without a recorded remote maps its cwd to the repository there', () =>
  withWorld(async (world, ledger) => {
    const id = '0199a213-81c0-7800-8aa1-bbab2a035a53';
    writeRollout({
      sessions: world.codexSessions,
      id,
      lines: [cx.sessionMeta(id, join(world.repo, 'packages', 'web')), cx.user('We use Vitest, not Jest.')],
    });
    await ledger
      .as(ledger.operator())
      .feedAdd({ name: 'codex', connector: 'codex', config: { path: world.codexSessions } });
    await syncFeed(ledger, ledger.as(ledger.operator()), 'codex');
    const [m] = await everything(ledger);
    assert.deepEqual([m?.body, m?.scope], ['We use Vitest, not Jest.', 'project:acme-api']);
  }));
