/**
 * Migration 19 on a home written by an older memledger (schema 18, an embedder recorded and memories queued
 * without their scope): the queued rows get their memory's scope, so a scoped count and a scoped catch-up read
 * them, and later writes are queued with theirs.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { MEMORY_MIGRATIONS } from '../../src/store/sqlite/migrations/index.ts';
import { WordEmbedder } from '../support/word-embedder.ts';

const MODEL = new WordEmbedder().model;
const provenance = { principal: 'human:operator', principalKind: 'human', surface: 'cli' };
const only = (scope: string) => ({ all: false as const, exact: [scope], prefixes: [] });

test('migration 19 gives queued memories their scope: counted and drained per scope, new writes queued with theirs', async () => {
  const home = mkdtempSync(join(tmpdir(), 'ml-migration19-'));
  try {
    const db = openDatabase(join(home, 'memory.db'), MEMORY_MIGRATIONS.slice(0, 18));
    db.prepare('INSERT INTO embed_models (model) VALUES (?)').run(MODEL);
    const at = '2025-01-01T00:00:00.000Z';
    const rows: [string, string][] = [
      ['shared', 'wombat habitat survey'],
      ['project:x', 'wombat burrow count'],
      ['project:x', 'budget review friday'],
    ];
    rows.forEach(([scope, body], i) => {
      db.prepare(
        `INSERT INTO memories (id, scope, kind, body, confidence, fingerprint, provenance, recorded_at, state, trust,
           active_from) VALUES (?, ?, 'note', ?, 1, ?, ?, ?, 'active', 'confirmed', ?)`,
      ).run(newId('mem'), scope, body, `fp${i}`, JSON.stringify(provenance), at, at);
    });
    const queued = db.prepare('SELECT count(*) AS n FROM embed_queue').get() as { n: number };
    assert.equal(queued.n, 3, 'setup: schema 18 queued all three (an embedder is recorded)');
    db.close();

    const ledger = openLedger({ home, semantic: { embedder: new WordEmbedder(), catchUp: 0 } });
    try {
      const vectors = ledger.store.vectors;
      assert.equal(await vectors.queued(only('shared')), 1);
      assert.equal(await vectors.queued(only('project:x')), 2);
      assert.equal(await vectors.queued(only('project:y')), 0, 'a scope with nothing queued');
      assert.equal(await vectors.queued({ all: true }), 3, 'control: the whole queue');
      assert.deepEqual(
        (await vectors.pending(10, only('project:x'))).map((p) => p.text),
        ['wombat burrow count', 'budget review friday'],
        'oldest first, of that scope only',
      );
      await ledger.as(ledger.operator()).remember({ body: 'wombat census', scope: 'shared' });
      assert.equal(await vectors.queued(only('shared')), 2, 'a new write is queued with its scope');
      assert.deepEqual(await vectors.counts(MODEL), { vectors: 0, pending: 4 });
    } finally {
      ledger.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
