/**
 * `memledger import --from mem0`: a mem0 `get_all` export (a fixture hand-written in mem0's documented shape,
 * see fixtures/README.md) lands with mem0's ids as scopes and subjects, its metadata as the value and its
 * times as valid time; importing it again lands nothing twice.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { cli, snapshot } from '../cli/helpers.ts';
import { memoriesIn, searchBodies, withTempDir } from './helpers.ts';

const FIXTURE = new URL('./fixtures/mem0-get-all.from-docs.json', import.meta.url).pathname;

describe('import --from mem0', () => {
  test('a get_all export round-trips: user and agent ids as scopes and subjects, metadata as value, updated_at as validFrom; again lands nothing', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const r = await cli(home, ['import', '--from', 'mem0', FIXTURE, '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual([r.json().records, r.json().imported, r.json().failed.length], [3, 3, 0]);

      const memories = await memoriesIn(home);
      const trip = memories.find((m) => m.body.includes('San Francisco'));
      assert.ok(trip);
      assert.equal(trip.scope, 'user:alex');
      assert.equal(trip.kind, 'fact');
      assert.deepEqual(trip.subjects, ['user:alex', 'category:travel']);
      assert.deepEqual(trip.value, { source: 'chat', confidence: 'high' });
      assert.equal(trip.validFrom, '2024-07-01T12:00:00.000Z');
      assert.deepEqual(trip.provenance.source, {
        connector: 'mem0',
        id: 'f4cbdb08-7062-4f3e-8eb2-9f5c80dfe64c',
        note: 'mem0 created_at 2024-07-01T12:00:00.000Z, updated_at 2024-07-01T12:00:00.000Z',
      });
      // The recorded time is the import's, not mem0's: a write cannot forge when memledger learned it.
      assert.ok(trip.recordedAt > '2025-01-01');

      const veg = memories.find((m) => m.body.includes('vegetarian'));
      assert.equal(veg?.scope, 'user:alex');
      assert.deepEqual(veg?.subjects, [
        'user:alex',
        'agent:travel-assistant',
        'run:trip-planning-42',
        'category:food',
        'category:user_preferences',
      ]);
      assert.equal(veg?.value, null, 'empty metadata is no value');
      assert.equal(veg?.validFrom, '2024-07-20T13:52:23.374Z', 'updated_at, in UTC');

      const muir = memories.find((m) => m.body.includes('Muir Woods'));
      assert.equal(muir?.scope, 'agent:travel-assistant', 'no user id: the agent’s scope');
      assert.equal(muir?.validFrom, '2024-07-02T09:15:00.000Z', 'no updated_at: created_at');

      assert.deepEqual(await searchBodies(home, 'vegetarian restaurants'), [
        'Alex prefers vegetarian restaurants',
      ]);
      assert.deepEqual(await searchBodies(home, 'San Francisco', 'run:trip-planning-42'), []);
      assert.deepEqual(await searchBodies(home, 'vegetarian', 'run:trip-planning-42'), [
        'Alex prefers vegetarian restaurants',
      ]);

      const before = await snapshot(home);
      const again = await cli(home, ['import', '--from', 'mem0', FIXTURE, '--json']);
      assert.equal(again.code, 0);
      assert.deepEqual([again.json().imported, again.json().skipped], [0, 3]);
      assert.equal(await snapshot(home), before);
    });
  });

  test('--scope puts every memory in one scope; a bare array of memories is read too', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const bare = join(dir, 'bare.json');
      writeFileSync(bare, JSON.stringify(JSON.parse(readFileSync(FIXTURE, 'utf8')).results));
      const r = await cli(home, ['import', '--from', 'mem0', bare, '--scope', 'project:travel', '--json']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.json().imported, 3);
      const scopes = (await memoriesIn(home)).map((m) => m.scope);
      assert.deepEqual(scopes, ['project:travel', 'project:travel', 'project:travel']);
    });
  });

  test('a secret in one memory is refused while the others land; metadata holding a secret is refused too', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const file = join(dir, 'export.json');
      const token = `sk-ant-api03-${'Zq9'.repeat(30)}`;
      writeFileSync(
        file,
        JSON.stringify({
          results: [
            { id: 'm1', memory: `Alex's API key is ${token}`, user_id: 'alex' },
            { id: 'm2', memory: 'Alex flies out of Oakland', user_id: 'alex' },
            {
              id: 'm3',
              memory: 'Alex likes window seats',
              metadata: { note: `key ${token}` },
              user_id: 'alex',
            },
          ],
        }),
      );
      const r = await cli(home, ['import', '--from', 'mem0', file, '--json']);
      assert.equal(r.code, 2);
      assert.deepEqual(
        r.json().failed.map((f: { origin: string }) => f.origin),
        ['export.json record 1', 'export.json record 3'],
      );
      assert.doesNotMatch(r.stdout + r.stderr, /Zq9Zq9/, 'the secret is never echoed');
      const dry = await cli(home, ['import', '--from', 'mem0', file, '--dry-run', '--json']);
      assert.equal(dry.json().lines.length, 3);
      assert.doesNotMatch(dry.stdout, /Zq9Zq9/, 'a preview masks body and value');
      assert.deepEqual(
        (await memoriesIn(home)).map((m) => m.body),
        ['Alex flies out of Oakland'],
      );
    });
  });

  test('a malformed export is invalid_input naming the record, and nothing is written', async () => {
    await withTempDir(async (dir) => {
      const home = join(dir, 'home');
      const file = join(dir, 'export.json');
      await cli(home, ['remember', 'control memory about the harbour']);
      const before = await snapshot(home);
      const cases: [unknown, RegExp][] = [
        [
          {
            results: [
              { id: 'ok', memory: 'fine' },
              { id: 'x2', memory: 42 },
            ],
          },
          /record 2 \(id x2\).*"memory"/,
        ],
        [
          { results: [{ id: 'ok', memory: 'fine', created_at: '2024-02-30T00:00:00Z' }] },
          /record 1.*created_at/,
        ],
        [{ memories: [] }, /get_all shape/],
      ];
      for (const [doc, message] of cases) {
        writeFileSync(file, JSON.stringify(doc));
        const r = await cli(home, ['import', '--from', 'mem0', file, '--json']);
        assert.equal(r.error().class, 'invalid_input');
        assert.match(r.error().message, message);
      }
      writeFileSync(file, '{"results": [');
      const broken = await cli(home, ['import', '--from', 'mem0', file, '--json']);
      assert.match(broken.error().message, /export\.json: not JSON/);
      assert.equal(await snapshot(home), before);
    });
  });
});
