/**
 * `memledger import --from mcp-memory`: a `memory.jsonl` written by the real MCP reference memory server
 * (driven over stdio with the SDK client) becomes facts about its entities, through the guard, the rejection
 * check and the gate; importing it again lands nothing twice.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { cli, snapshot } from '../cli/helpers.ts';
import { memoriesIn, searchBodies, withMemoryServer, withTempDir } from './helpers.ts';

/** A GitHub token's shape, split so the source holds no credential-shaped literal. */
const SECRET = `ghp_${'a1B2c3D4e5'.repeat(3)}abcdef`;

async function serverFile(dir: string): Promise<string> {
  const file = join(dir, 'memory.jsonl');
  await withMemoryServer(file, async (call) => {
    await call('create_entities', {
      entities: [
        { name: 'Alice Smith', entityType: 'person', observations: ['Works on the billing service'] },
        { name: 'Acme Corp', entityType: 'organization', observations: [] },
      ],
    });
    await call('create_relations', {
      relations: [{ from: 'Alice Smith', to: 'Acme Corp', relationType: 'works_at' }],
    });
    await call('add_observations', {
      observations: [
        { entityName: 'Alice Smith', contents: ['Prefers tea over coffee', `Her deploy token is ${SECRET}`] },
      ],
    });
  });
  return file;
}

describe('import --from mcp-memory', () => {
  test('a memory.jsonl the real server wrote round-trips: observations and relations are facts with subjects, found by search; again lands nothing', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const file = await serverFile(dir);
      const first = await cli(home, ['import', '--from', 'mcp-memory', file, '--json']);
      // The secret observation is refused (exit 2 after the summary); everything else landed.
      assert.equal(first.code, 2, first.stderr);
      const r = first.json();
      assert.equal(r.format, 'mcp-memory');
      assert.equal(r.records, 3);
      assert.equal(r.lines, 5);
      assert.equal(r.imported, 4);
      assert.equal(r.failed.length, 1);
      assert.equal(r.failed[0].origin, 'memory.jsonl:1 observation 3');
      assert.equal(r.failed[0].class, 'invalid_input');
      assert.match(r.failed[0].message, /credential/);
      assert.equal(r.refused[0].lines, 1);

      const memories = await memoriesIn(home);
      const bodies = memories.map((m) => m.body).sort();
      assert.deepEqual(bodies, [
        'Acme Corp is an organization.',
        'Alice Smith works_at Acme Corp',
        'Alice Smith: Prefers tea over coffee',
        'Alice Smith: Works on the billing service',
      ]);
      for (const m of memories) assert.equal(m.kind, 'fact');
      const relation = memories.find((m) => m.body.includes('works_at'));
      assert.deepEqual(relation?.subjects, ['person:alice-smith', 'organization:acme-corp']);
      const tea = memories.find((m) => m.body.includes('tea'));
      assert.deepEqual(tea?.subjects, ['person:alice-smith']);
      assert.equal(tea?.provenance.source?.connector, 'mcp-memory');

      assert.deepEqual(await searchBodies(home, 'billing'), ['Alice Smith: Works on the billing service']);
      assert.deepEqual((await searchBodies(home, 'acme', 'organization:acme-corp')).sort(), [
        'Acme Corp is an organization.',
        'Alice Smith works_at Acme Corp',
      ]);
      // I10: the refused observation is nowhere, in any state.
      const all = await memoriesIn(home, ['active', 'held', 'rejected', 'retracted', 'superseded']);
      assert.equal(all.length, 4);
      assert.ok(!all.some((m) => m.body.includes('deploy token')));

      const before = await snapshot(home);
      const again = await cli(home, ['import', '--from', 'mcp-memory', file, '--json']);
      assert.equal(again.code, 2); // the secret is refused again, and reported again
      assert.equal(again.json().imported, 0);
      assert.equal(again.json().skipped, 4);
      assert.equal(await snapshot(home), before, 're-import changed nothing');
    });
  });

  test('an imported observation a person rejected stays absent when the file is imported again, while its control is present', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const file = await serverFile(dir);
      await cli(home, ['import', '--from', 'mcp-memory', file]);
      const tea = (await memoriesIn(home)).find((m) => m.body.includes('tea'));
      assert.ok(tea);
      const ledger = openLedger({ home });
      try {
        const me = ledger.as(ledger.operator(), { surface: 'library', tool: 'test' });
        await me.reject({ id: tea.id, reason: 'not true any more', expect: 'active' });
      } finally {
        ledger.close();
      }
      const again = await cli(home, ['import', '--from', 'mcp-memory', file, '--json']);
      assert.equal(again.json().imported, 0);
      const current = (await memoriesIn(home)).map((m) => m.body);
      assert.ok(!current.some((b) => b.includes('tea')), 'the rejected claim is not current');
      assert.ok(current.includes('Alice Smith: Works on the billing service'), 'the control is present');
      assert.deepEqual(await searchBodies(home, 'tea coffee'), []);
    });
  });

  test('a malformed line refuses the file: invalid_input naming file and line, nothing written', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const file = join(dir, 'memory.jsonl');
      writeFileSync(
        file,
        [
          JSON.stringify({ type: 'entity', name: 'Bob', entityType: 'person', observations: ['Likes jazz'] }),
          '{"type":"entity","name":',
        ].join('\n'),
      );
      await cli(home, ['remember', 'control memory about the weather station']);
      const before = await snapshot(home);
      const r = await cli(home, ['import', '--from', 'mcp-memory', file, '--json']);
      assert.equal(r.code, 2);
      assert.equal(r.error().class, 'invalid_input');
      assert.match(r.error().message, /memory\.jsonl:2/);
      assert.equal(await snapshot(home), before);

      writeFileSync(
        file,
        JSON.stringify({ type: 'entity', name: 'Bob', entityType: 'person', observations: [3] }),
      );
      const typed = await cli(home, ['import', '--from', 'mcp-memory', file, '--json']);
      assert.equal(typed.error().class, 'invalid_input');
      assert.match(typed.error().message, /memory\.jsonl:1.*observations/);
      assert.equal(await snapshot(home), before);
      assert.deepEqual(await searchBodies(home, 'weather station'), [
        'control memory about the weather station',
      ]);
    });
  });

  test('an unknown format is invalid_input listing the formats; a missing file is not_found', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const r = await cli(home, ['import', '--from', 'letta', join(dir, 'x.json'), '--json']);
      assert.equal(r.code, 2);
      assert.equal(r.error().class, 'invalid_input');
      assert.match(r.error().message, /mcp-memory, mem0, markdown/);
      const missing = await cli(home, ['import', '--from', 'mem0', join(dir, 'none.json'), '--json']);
      assert.equal(missing.error().class, 'not_found');
    });
  });
});
