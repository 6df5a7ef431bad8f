/**
 * `memledger import --from markdown DIR`: a folder of Basic Memory / Obsidian notes becomes one memory per
 * claim, with front matter and headings as kind, key and subjects; narration is left out, a credential is
 * refused on its own line while its neighbours land, and importing the folder again lands nothing twice.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cli, snapshot } from '../cli/helpers.ts';
import { memoriesIn, searchBodies, withTempDir } from './helpers.ts';

const COFFEE = `---
title: Coffee Brewing Methods
type: note
tags: [coffee, brewing]
permalink: coffee-brewing-methods
---
# Coffee Brewing Methods

The grinder moved to the kitchen in March. The office kettle holds 1.7 litres. Let me check the rest later.
Beans arrive every Tuesday from Roastery North. The espresso machine needs descaling monthly. The milk
frother belongs to the design team.

## Observations
- [method] Pour over gives more flavour clarity than a French press
- [technique] Water at 96 degrees extracts the best compounds #extraction
- [preference] Ethiopian beans work well with lighter roasts (personal experience)

## Decisions
- We chose the Baratza grinder because it is easy to repair.

## Relations
- relates_to [[Coffee Bean Origins]]

\`\`\`sh
# not a heading: code is left out
brew --strong
\`\`\`
`;

const DEPLOY = `---
title: Deploy day
kind: decision
key: deploy.day
tags: ops, release
---
Releases go out on Tuesdays after the standup.
`;

function writeNotes(dir: string): string {
  const notes = join(dir, 'notes');
  mkdirSync(join(notes, 'ops'), { recursive: true });
  writeFileSync(join(notes, 'coffee.md'), COFFEE);
  writeFileSync(join(notes, 'ops', 'deploy.md'), DEPLOY);
  writeFileSync(join(notes, 'ops', 'not-a-note.txt'), 'The staging password is hunter2.');
  return notes;
}

describe('import --from markdown', () => {
  test('a notes folder round-trips: one claim per memory, narration left out, front matter and headings as kind, key and subjects; again lands nothing', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const notes = writeNotes(dir);
      const r = await cli(home, ['import', '--from', 'markdown', notes, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json().records, 2, 'two notes; the .txt file is not one');
      assert.equal(r.json().dropped, 1, 'the narration sentence');
      assert.equal(r.json().failed.length, 0);

      const memories = await memoriesIn(home);
      const byBody = new Map(memories.map((m) => [m.body, m]));
      // A paragraph of six facts (over two source lines) is six memories; "Let me check the rest later." is not one.
      for (const fact of [
        'The grinder moved to the kitchen in March.',
        'The office kettle holds 1.7 litres.',
        'Beans arrive every Tuesday from Roastery North.',
        'The espresso machine needs descaling monthly.',
        'The milk frother belongs to the design team.',
      ]) {
        const m = byBody.get(fact);
        assert.ok(m, `${fact} landed`);
        assert.equal(m.kind, 'note', 'front matter type: note');
        assert.deepEqual(m.subjects, ['note:coffee-brewing-methods', 'tag:coffee', 'tag:brewing']);
      }
      assert.ok(![...byBody.keys()].some((b) => /let me check|brew --strong|not a heading/i.test(b)));

      const technique = byBody.get('Water at 96 degrees extracts the best compounds');
      assert.ok(technique, 'an observation, its #tag taken out of the text');
      assert.deepEqual(technique.subjects, [
        'note:coffee-brewing-methods',
        'tag:coffee',
        'tag:brewing',
        'tag:extraction',
        'category:technique',
      ]);
      assert.equal(
        byBody.get('Ethiopian beans work well with lighter roasts (personal experience)')?.kind,
        'preference',
        'a category that names a kind is the kind',
      );
      assert.equal(
        byBody.get('We chose the Baratza grinder because it is easy to repair.')?.kind,
        'decision',
        'a heading that names a kind',
      );
      const relation = byBody.get('Coffee Brewing Methods relates_to Coffee Bean Origins');
      assert.deepEqual(relation?.subjects, [
        'note:coffee-brewing-methods',
        'tag:coffee',
        'tag:brewing',
        'note:coffee-bean-origins',
      ]);

      const deploy = byBody.get('Releases go out on Tuesdays after the standup.');
      assert.equal(deploy?.kind, 'decision', 'front matter kind');
      assert.equal(deploy?.key, 'deploy.day', 'front matter key');
      assert.deepEqual(deploy?.subjects, ['note:deploy-day', 'tag:ops', 'tag:release']);
      assert.equal(deploy?.provenance.source?.connector, 'markdown');
      assert.match(deploy?.provenance.source?.id ?? '', /^ops\/deploy\.md#[0-9a-f]{32}$/);
      assert.ok(!memories.some((m) => m.body.includes('hunter2')));

      assert.deepEqual(await searchBodies(home, 'espresso descaling'), [
        'The espresso machine needs descaling monthly.',
      ]);
      assert.equal((await searchBodies(home, 'kettle', 'note:coffee-brewing-methods')).length, 1);

      const before = await snapshot(home);
      const again = await cli(home, ['import', '--from', 'markdown', notes, '--json']);
      assert.deepEqual([again.json().imported, again.json().skipped], [0, memories.length]);
      assert.equal(await snapshot(home), before);
    });
  });

  test('a line holding a credential is refused by the guard and reported, while the lines around it land', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const notes = join(dir, 'notes');
      mkdirSync(notes);
      const token = `ghp_${'Qw3rTy7u9P'.repeat(3)}abcdef`;
      writeFileSync(
        join(notes, 'ci.md'),
        `# CI\n\nThe CI runs on GitHub Actions. The bot token is ${token} for now. Builds cache pnpm stores.\n\n- The nightly job rebuilds the docs site\n- Deploy key: ${token}\n`,
      );
      const r = await cli(home, ['import', '--from', 'markdown', notes, '--json']);
      assert.equal(r.code, 2);
      assert.deepEqual(
        r.json().failed.map((f: { origin: string; class: string }) => [f.origin, f.class]),
        [
          ['ci.md claim 2', 'invalid_input'],
          ['ci.md claim 5', 'invalid_input'],
        ],
      );
      assert.equal(r.json().refused.length, 1);
      assert.equal(r.json().refused[0].lines, 2);
      assert.doesNotMatch(r.stdout + r.stderr, /Qw3rTy7u9P/, 'never echoed');
      assert.deepEqual((await memoriesIn(home)).map((m) => m.body).sort(), [
        'Builds cache pnpm stores.',
        'The CI runs on GitHub Actions.',
        'The nightly job rebuilds the docs site.',
      ]);

      const dry = await cli(home, ['import', '--from', 'markdown', notes, '--dry-run']);
      assert.equal(dry.code, 0);
      assert.match(dry.stdout, /5 memories would be written; nothing was written/);
      assert.doesNotMatch(dry.stdout, /Qw3rTy7u9P/, 'the preview masks it');
    });
  });

  test('a malformed note refuses the import, naming the file and line, and nothing is written', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const notes = join(dir, 'notes');
      mkdirSync(notes);
      writeFileSync(join(notes, 'good.md'), 'The harbour crane is blue.\n');
      await cli(home, ['remember', 'control memory about the lighthouse']);
      const before = await snapshot(home);
      const cases: [string, RegExp][] = [
        ['---\ntitle: Never closed\nThe body.\n', /bad\.md:1: front matter opened with --- is never closed/],
        ['---\ntitle: x\n: no name\n---\nText.\n', /bad\.md:3: front matter line/],
        [
          '---\nkey: one.slot\n---\n- First claim about one slot\n- Second claim about it\n',
          /bad\.md: .*"key".*2 claims/,
        ],
      ];
      for (const [text, message] of cases) {
        writeFileSync(join(notes, 'bad.md'), text);
        const r = await cli(home, ['import', '--from', 'markdown', notes, '--json']);
        assert.equal(r.error().class, 'invalid_input');
        assert.match(r.error().message, message);
        assert.equal(await snapshot(home), before);
      }
      assert.deepEqual(await searchBodies(home, 'lighthouse'), ['control memory about the lighthouse']);
    });
  });
});
