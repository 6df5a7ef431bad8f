/**
 * Migration 16 on a home written by an older memledger (schema 15, where every write was queued and vectors were
 * keyed by memory id): a home that stored vectors keeps them, now in scope order, still searched within the
 * caller's scopes only and still deleted by erasure; a home that never stored one drops its queue rows and
 * queues no new write until an embedder runs there.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { test } from 'node:test';
import { quantise } from '../../src/embed/int8.ts';
import { openLedger } from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { MEMORY_MIGRATIONS } from '../../src/store/sqlite/migrations/index.ts';
import { WordEmbedder, wordVector } from '../support/word-embedder.ts';

const MODEL = new WordEmbedder().model;
const provenance = { principal: 'human:operator', principalKind: 'human', surface: 'cli' };

/** A schema-15 home with three active memories (each queued by migration 14's trigger on insert). */
function oldHome(home: string, bodies: [string, string][]): { db: DatabaseSync; ids: string[] } {
  const db = openDatabase(join(home, 'memory.db'), MEMORY_MIGRATIONS.slice(0, 15));
  const at = '2025-01-01T00:00:00.000Z';
  const ids = bodies.map(([scope, body], i) => {
    const id = newId('mem');
    db.prepare(
      `INSERT INTO memories (id, scope, kind, body, confidence, fingerprint, provenance, recorded_at, state, trust,
         active_from) VALUES (?, ?, 'note', ?, 1, ?, ?, ?, 'active', 'confirmed', ?)`,
    ).run(id, scope, body, `fp${i}`, JSON.stringify({ ...provenance, sessionId: `ses-old-${i}` }), at, at);
    return id;
  });
  return { db, ids };
}

function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'ml-migration16-'));
  return fn(home).finally(() => rmSync(home, { recursive: true, force: true }));
}

test('migration 16 keeps a home’s vectors in scope order: scoped to the caller’s scopes, erased with their memory; writes stay queued', () =>
  withHome(async (home) => {
    const bodies: [string, string][] = [
      ['shared', 'wombat habitat survey'],
      ['project:x', 'wombat habitat survey'],
      ['shared', 'budget review friday'],
    ];
    const { db, ids } = oldHome(home, bodies);
    const [a, b, c] = ids as [string, string, string];
    // a and b were embedded (schema 14's layout, their queue rows gone); c still waits.
    for (const id of [a, b]) {
      const v = quantise(wordVector('wombat habitat survey'));
      db.prepare('INSERT INTO memory_vectors (memory_id, model, dims, norm, vec) VALUES (?, ?, ?, ?, ?)').run(
        id,
        MODEL,
        v.bytes.length,
        v.norm,
        new Uint8Array(v.bytes.buffer),
      );
      db.prepare('DELETE FROM embed_queue WHERE memory_id = ?').run(id);
    }
    db.close();

    const ledger = openLedger({ home });
    try {
      const vectors = ledger.store.vectors;
      assert.deepEqual(await vectors.counts(MODEL), { vectors: 2, pending: 1 });
      const plan = { model: MODEL, query: quantise(wordVector('wombat habitat')), k: 10, ids: [a, b] };
      const shared = await vectors.nearest({
        ...plan,
        scopes: { all: false, exact: ['shared'], prefixes: [] },
      });
      assert.deepEqual(
        shared.nearest.map((h) => h.memory.id),
        [a],
        'the other scope’s identical vector is not read',
      );
      assert.deepEqual([...shared.similarities.keys()], [a]);
      const both = await vectors.nearest({ ...plan, scopes: { all: true } });
      assert.deepEqual(both.nearest.map((h) => h.memory.id).sort(), [a, b].sort(), 'control: both are there');
      // The home keeps this model's vectors: a new write is queued.
      await ledger.as(ledger.operator()).remember({ body: 'wombat census', scope: 'shared' });
      assert.deepEqual(await vectors.counts(MODEL), { vectors: 2, pending: 2 });
      // Erasure deletes by the new key, in the erasure's transaction (I9); the other scope's vector stays.
      assert.equal((await ledger.as(ledger.operator()).erase({ sessionId: 'ses-old-0' })).erased, 1);
      assert.deepEqual(await vectors.counts(MODEL), { vectors: 1, pending: 2 });
      const after = await vectors.nearest({ ...plan, scopes: { all: true } });
      assert.deepEqual(
        after.nearest.map((h) => h.memory.id),
        [b],
      );
    } finally {
      ledger.close();
    }
    assert.ok(c.startsWith('mem'));
  }));

test('migration 16 drops the queue of a home that never stored a vector; its writes are queued once an embedder has run', () =>
  withHome(async (home) => {
    const { db, ids } = oldHome(home, [
      ['shared', 'wombat one'],
      ['shared', 'wombat two'],
    ]);
    assert.equal((db.prepare('SELECT count(*) AS n FROM embed_queue').get() as { n: number }).n, 2, 'setup');
    db.close();
    const plain = openLedger({ home });
    try {
      assert.deepEqual(await plain.store.vectors.counts(MODEL), { vectors: 0, pending: 0 });
      await plain.as(plain.operator()).remember({ body: 'wombat three', scope: 'shared' });
      assert.deepEqual(await plain.store.vectors.counts(MODEL), { vectors: 0, pending: 0 }, 'not queued');
    } finally {
      plain.close();
    }
    const semantic = openLedger({ home, semantic: { embedder: new WordEmbedder() } });
    try {
      assert.deepEqual(
        await semantic.embedPending(),
        { queued: 3, embedded: 3 },
        'the first drain catches up',
      );
      const hits = await semantic.as(semantic.operator()).search({ query: 'wombat' });
      assert.deepEqual(hits.vectors?.missing, 0);
      assert.ok(ids.every((id) => hits.hits.some((h) => h.memory.id === id)));
    } finally {
      semantic.close();
    }
  }));
