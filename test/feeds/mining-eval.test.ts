/**
 * The eval harness's mining mode on a tiny set: `npm run eval -- FILE` recognises a mining set, runs each
 * fragment through the connector and the miner, and reports precision, recall and leaks as JSON.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { overlap } from '../../eval/mining/match.ts';

const RUN = new URL('../../eval/run.ts', import.meta.url).pathname;
const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

const tiny = {
  type: 'mining',
  name: 'tiny',
  fragments: [
    {
      id: 'tiny-notes',
      connector: 'folder',
      origin: 'written',
      lines: [
        {
          text: 'The API is versioned by date. The weather was nice today.',
          keep: [{ body: 'The API is versioned by date.', kind: 'note' }],
        },
        { text: `The deploy bot pushes with ${TOKEN}` },
        {
          text: 'Never push to main without review.',
          keep: [{ body: 'Never push to main without review.', kind: 'preference' }],
        },
        // A keep no rule can find (no words of the line): recall must show it.
        { text: 'Ask Sam.', keep: [{ body: 'Sam owns the release calendar.', kind: 'fact' }] },
      ],
      forbid: [TOKEN],
    },
    {
      id: 'tiny-transcript',
      connector: 'claude-code',
      origin: 'written',
      lines: [
        {
          record: {
            type: 'user',
            uuid: '11111111-1111-4111-a111-111111111111',
            sessionId: '22222222-2222-4222-a222-222222222222',
            message: {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 't1', content: 'npm ERR! code ENOENT', is_error: true },
              ],
            },
          },
        },
        {
          record: {
            type: 'assistant',
            uuid: '33333333-3333-4333-a333-333333333333',
            sessionId: '22222222-2222-4222-a222-222222222222',
            message: {
              role: 'assistant',
              content: [{ type: 'text', text: 'Let me look around. The issue is the tsconfig.' }],
            },
          },
        },
      ],
    },
  ],
};

test('the eval mode runs a tiny mining set and reports precision, recall, halves and leaks as JSON', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-mining-tiny-'));
  try {
    const file = join(dir, 'tiny.json');
    writeFileSync(file, JSON.stringify(tiny));
    const out = execFileSync(process.execPath, [RUN, file, '--json', '--misses'], { encoding: 'utf8' });
    const report = JSON.parse(out);
    assert.equal(report.mode, 'mining');
    assert.deepEqual(report.overall, {
      fragments: 2,
      keeps: 3,
      candidates: 2,
      correct: 2,
      precision: 1,
      recall: 0.6667,
      leaks: 0,
    });
    const halves = Object.values(report.halves) as { fragments: number }[];
    assert.equal(
      halves.reduce((n, h) => n + h.fragments, 0),
      2,
      'each fragment lands in one half',
    );
    assert.deepEqual(
      report.misses.map((m: { type: string; body: string }) => [m.type, m.body]),
      [['missed', 'Sam owns the release calendar.']],
    );
    assert.ok(!out.includes(TOKEN), 'the report never prints the secret');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('matching is word overlap (Dice) over normalised words', () => {
  assert.equal(overlap('Use pnpm, never npm.', 'We use pnpm and never npm'), 0.8);
  assert.equal(overlap('**The API** is versioned by date', 'the api is versioned by date.'), 1);
  assert.equal(overlap('Tabs.', ''), 0);
});
