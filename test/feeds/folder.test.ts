/**
 * The notes feed: Markdown files (AGENTS.md, CLAUDE.md, memory files) read whole when they change, each bullet or
 * paragraph an item keyed by its text, so an edit adds only what is new. memledger's own AGENTS.md block, code,
 * front matter and headings are not notes.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { noteUnits } from '../../src/feeds/connectors/folder.ts';
import { syncFeed } from '../../src/feeds/sync.ts';
import type { Ledger } from '../../src/index.ts';
import { AGENT_INSTRUCTIONS, withBlock } from '../../src/integrations/markdown-block.ts';
import { withWorld } from './fixtures.ts';

const sync = (ledger: Ledger) => syncFeed(ledger, ledger.as(ledger.operator()), 'notes');
const bodies = async (ledger: Ledger) =>
  (await ledger.as(ledger.operator()).list({ states: ['held', 'active'], limit: 200 }))
    .map((m) => m.body)
    .sort();

test('notes: bullets and paragraphs are items; code, headings, front matter and the memledger block are not', () => {
  const units = noteUnits(
    [
      '---',
      'title: team memory',
      '---',
      '# Conventions',
      '',
      '- Use pnpm, never npm.',
      '- [x] The billing service owns the invoices table',
      '  and nobody else writes to it.',
      '',
      '```sh',
      '- always run this: rm -rf /',
      '```',
      '<!-- a comment: always ignore this -->',
      '| a | b |',
      '',
      'We decided to keep Postgres because the team knows it.',
    ].join('\n'),
  );
  assert.deepEqual(units, [
    'Use pnpm, never npm.',
    'The billing service owns the invoices table and nobody else writes to it.',
    'We decided to keep Postgres because the team knows it.',
  ]);
  const withOurs = withBlock('- Deploys go through staging.\n', AGENT_INSTRUCTIONS);
  assert.deepEqual(
    noteUnits(withOurs),
    ['Deploys go through staging.'],
    'the instructions block is not a note',
  );
});

test('the notes feed writes each note once, held for review, and an edit adds only the new bullet', () =>
  withWorld(async (world, ledger) => {
    const notes = join(world.repo, 'docs');
    mkdirSync(join(notes, 'memory'), { recursive: true });
    writeFileSync(
      join(world.repo, 'AGENTS.md'),
      withBlock('# Agents\n\n- Run `pnpm test` before pushing.\n', AGENT_INSTRUCTIONS),
    );
    writeFileSync(
      join(notes, 'CLAUDE.md'),
      '# Project\n\n- Never edit generated files under src/gen.\n- The API is versioned by date.\n',
    );
    writeFileSync(join(notes, 'memory', 'db.md'), 'We decided to keep Postgres because the team knows it.\n');
    writeFileSync(join(notes, 'ignored.txt'), '- Always ignore text files.\n');
    mkdirSync(join(world.repo, 'node_modules', 'left-pad'), { recursive: true });
    writeFileSync(join(world.repo, 'node_modules', 'left-pad', 'README.md'), '- Always pad on the left.\n');
    await ledger
      .as(ledger.operator())
      .feedAdd({ name: 'notes', connector: 'folder', config: { path: world.repo } });
    const first = await sync(ledger);
    assert.equal(first.error, null);
    assert.deepEqual(await bodies(ledger), [
      'Never edit generated files under src/gen.',
      'Run `pnpm test` before pushing.',
      'The API is versioned by date.',
      'We decided to keep Postgres because the team knows it.',
    ]);
    const queue = await ledger.as(ledger.operator()).reviewList();
    assert.ok(
      queue.every(
        (m) => m.state === 'held' && m.trust === 'unverified' && m.provenance.principal === 'agent:notes',
      ),
    );
    assert.ok(queue.every((m) => m.scope === 'project:acme-api'));

    const again = await sync(ledger);
    assert.deepEqual([again.batches, again.written], [0, 0], 'unchanged files are not read again');

    writeFileSync(
      join(notes, 'CLAUDE.md'),
      '# Project\n\n- Never edit generated files under src/gen.\n- The API is versioned by date.\n- Feature flags live in LaunchDarkly.\n',
    );
    const edited = await sync(ledger);
    assert.deepEqual([edited.written, edited.duplicates], [1, 2]);
    assert.ok((await bodies(ledger)).includes('Feature flags live in LaunchDarkly.'));
  }));
