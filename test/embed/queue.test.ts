/**
 * The embedding queue and what search does with vectors: a write is acknowledged before its vector exists, a
 * home without an embedder queues nothing and the first drain catches it up, a search embeds a short queue
 * first and beyond `catchUp` embeds its query only, a backfill resumes, vectors of another model are never
 * used, and without an embedder search is exactly BM25's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Embedder, type Ledger, openLedger } from '../../src/index.ts';
import { manualClock } from '../conformance/helpers.ts';
import { WordEmbedder } from '../support/word-embedder.ts';

function withHome(fn: (home: string) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'ml-embed-queue-'));
  return fn(home).finally(() => rmSync(home, { recursive: true, force: true }));
}

/** An embedder that holds every batch until released: a write must not wait for it. */
class GatedEmbedder implements Embedder {
  readonly model = 'test/words-64';
  readonly dims = 64;
  readonly #inner = new WordEmbedder();
  #release!: () => void;
  readonly gate = new Promise<void>((resolve) => {
    this.#release = resolve;
  });
  started = 0;
  release(): void {
    this.#release();
  }
  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    this.started++;
    await this.gate;
    return this.#inner.embed(texts);
  }
  close(): void {}
}

test('a write is acknowledged before its vector exists, even while the embedder is busy; the vector follows', () =>
  withHome(async (home) => {
    const embedder = new GatedEmbedder();
    const ledger = openLedger({ home, semantic: { embedder } });
    try {
      const me = ledger.as(ledger.operator());
      await me.remember({ body: 'The wombat habitat survey starts Monday', scope: 'shared' });
      const draining = ledger.embedPending();
      while (embedder.started === 0) await new Promise((r) => setTimeout(r, 5));
      // The embedder holds the first batch; a second write lands and is readable at once.
      const second = await me.remember({ body: 'Budget review is on Friday', scope: 'shared' });
      assert.equal(second.state, 'active');
      assert.equal((await me.get(second.id)).body, 'Budget review is on Friday');
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 0, pending: 2 });
      embedder.release();
      assert.equal((await draining).embedded >= 1, true);
      await ledger.embedPending();
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 2, pending: 0 });
    } finally {
      ledger.close();
    }
  }));

test('search says how many text candidates lacked a vector of its model; a backfill fills them and resumes after a stop', () =>
  withHome(async (home) => {
    const bodies = ['wombat one', 'wombat two', 'wombat three', 'wombat four', 'wombat five'];
    const first = openLedger({ home, semantic: { embedder: new WordEmbedder('test/model-a') } });
    for (const body of bodies) await first.as(first.operator()).remember({ body, scope: 'shared' });
    await first.embedPending();
    first.close();

    // Another model: model-a's vectors are never compared with its queries. (catchUp 0: the search embeds its
    // query only, so what it reports is what lacks a vector.)
    const b = () =>
      openLedger({ home, semantic: { embedder: new WordEmbedder('test/model-b'), catchUp: 0 } });
    const second = b();
    try {
      const before = await second.as(second.operator()).search({ query: 'wombat' });
      assert.equal(before.vectors?.used, true);
      assert.equal(before.vectors?.missing, 5, 'no candidate has a model-b vector');
      assert.equal(before.vectors?.pending, 5, 'the search recorded the model: its memories are queued');
      assert.ok(before.hits.every((h) => h.why.vector === undefined));
      const partial = await second.embedPending({ backfill: true, limit: 2 });
      assert.deepEqual(partial, { queued: 0, embedded: 2 }, 'queued already, by the search');
      assert.deepEqual(await second.store.vectors.counts('test/model-b'), { vectors: 2, pending: 3 });
    } finally {
      second.close();
    }
    // A new process picks up where the stopped one left off.
    const third = b();
    try {
      assert.deepEqual(await third.embedPending({ backfill: true }), { queued: 0, embedded: 3 });
      assert.deepEqual(await third.store.vectors.counts('test/model-b'), { vectors: 5, pending: 0 });
      assert.deepEqual(await third.store.vectors.counts('test/model-a'), { vectors: 5, pending: 0 });
      const after = await third.as(third.operator()).search({ query: 'wombat' });
      assert.equal(after.vectors?.missing, 0);
      assert.ok(after.hits.every((h) => typeof h.why.vector === 'number'));
    } finally {
      third.close();
    }
  }));

test('with no embedder, search is exactly BM25’s: same ids, order, scores and why, with vectors stored or not', () =>
  withHome(async (home) => {
    const clock = manualClock('2025-05-01T09:00:00Z');
    const open = (semantic?: boolean): Ledger =>
      openLedger({
        home,
        now: clock.now,
        ...(semantic ? { semantic: { embedder: new WordEmbedder() } } : {}),
      });
    const plain = open();
    const me = plain.as(plain.operator());
    for (const body of [
      'The wombat habitat survey starts Monday',
      'Wombat burrow near the creek',
      'Budget review is on Friday',
      'The creek floods in spring',
      'Marsupial census results are in',
    ]) {
      await me.remember({ body, scope: 'shared' });
      clock.advance(3_600_000);
    }
    const queries = ['wombat creek', 'budget', 'marsupial den', 'survey spring floods'];
    const before = [];
    for (const query of queries) before.push(await me.search({ query }));
    plain.close();

    const withVectors = open(true);
    await withVectors.embedPending();
    // Control: with the embedder the synonym query finds the wombat memories by vector.
    const semantic = await withVectors.as(withVectors.operator()).search({ query: 'marsupial den' });
    assert.ok(semantic.hits.some((h) => /wombat/i.test(h.memory.body)));
    withVectors.close();

    const again = open();
    try {
      for (const [i, query] of queries.entries()) {
        const now = await again.as(again.operator()).search({ query });
        assert.deepEqual(now, before[i], query);
        assert.equal('vectors' in now, false);
      }
      assert.ok(
        !before[2]!.hits.some((h) => /wombat/i.test(h.memory.body)),
        'BM25 alone misses the synonyms',
      );
    } finally {
      again.close();
    }
  }));

test('a home without an embedder writes no queue rows; the first drain queues and embeds what was written, and later writes are queued', () =>
  withHome(async (home) => {
    const model = new WordEmbedder().model;
    const plain = openLedger({ home });
    for (const body of ['wombat one', 'wombat two', 'wombat three']) {
      await plain.as(plain.operator()).remember({ body, scope: 'shared' });
    }
    assert.deepEqual(await plain.store.vectors.counts(model), { vectors: 0, pending: 0 }, 'nothing queued');
    plain.close();

    const semantic = openLedger({ home, semantic: { embedder: new WordEmbedder() } });
    try {
      assert.deepEqual(await semantic.embedPending(), { queued: 3, embedded: 3 });
      assert.deepEqual(await semantic.store.vectors.counts(model), { vectors: 3, pending: 0 });
      assert.deepEqual(await semantic.embedPending(), { queued: 0, embedded: 0 }, 'once caught up, nothing');
    } finally {
      semantic.close();
    }
    // Now the home records the model: a write by a process without an embedder is queued for the next drain.
    const later = openLedger({ home });
    try {
      await later.as(later.operator()).remember({ body: 'wombat four', scope: 'shared' });
      assert.deepEqual(await later.store.vectors.counts(model), { vectors: 3, pending: 1 });
    } finally {
      later.close();
    }
    const again = openLedger({ home, semantic: { embedder: new WordEmbedder() } });
    try {
      assert.deepEqual(await again.embedPending(), { queued: 0, embedded: 1 });
      assert.deepEqual(await again.store.vectors.counts(model), { vectors: 4, pending: 0 });
    } finally {
      again.close();
    }
  }));

test('a search embeds a short queue first: a memory written a moment ago is found by meaning, with nothing pending', () =>
  withHome(async (home) => {
    const embedder = new WordEmbedder();
    const ledger = openLedger({ home, semantic: { embedder } });
    try {
      const me = ledger.as(ledger.operator());
      await me.remember({ body: 'Budget review is on Friday', scope: 'shared' });
      await ledger.embedPending();
      const fresh = await me.remember({ body: 'The wombat habitat survey starts Monday', scope: 'shared' });
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 1, pending: 1 });
      const { calls, texts } = embedder;
      const r = await me.search({ query: 'marsupial den' });
      assert.equal(embedder.calls, calls + 1, 'the query and the queued memory in one embedder call');
      assert.equal(embedder.texts, texts + 2);
      assert.deepEqual(
        r.hits.map((h) => h.memory.id),
        [fresh.id],
        'found by its vector alone: it shares no word with the query',
      );
      assert.equal(r.vectors?.pending, 0);
      assert.equal(r.vectors?.missing, 0);
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 2, pending: 0 });
    } finally {
      ledger.close();
    }
  }));

test('a search on a home whose embedder never ran records the model and embeds what was written before it', () =>
  withHome(async (home) => {
    // Written by a process without an embedder: no queue rows, no vectors.
    const plain = openLedger({ home });
    const old = await plain
      .as(plain.operator())
      .remember({ body: 'The wombat habitat survey starts Monday', scope: 'shared' });
    plain.close();
    const embedder = new WordEmbedder();
    const ledger = openLedger({ home, semantic: { embedder } });
    try {
      const r = await ledger.as(ledger.operator()).search({ query: 'marsupial den' });
      assert.deepEqual(
        r.hits.map((h) => h.memory.id),
        [old.id],
      );
      assert.equal(r.vectors?.pending, 0);
      // Control: the same search with catch-up off reports the memory as pending rather than nothing.
      const later = openLedger({ home: join(home, 'second'), semantic: { embedder, catchUp: 0 } });
      try {
        const writer = later.as(later.operator());
        await writer.remember({ body: 'The wombat habitat survey starts Monday', scope: 'shared' });
        const off = await writer.search({ query: 'marsupial den' });
        assert.deepEqual(off.hits, [], 'no vector and no shared word');
        assert.equal(off.vectors?.pending, 1, 'said, not hidden');
      } finally {
        later.close();
      }
    } finally {
      ledger.close();
    }
  }));

test('past catchUp, a search embeds its query only: queued memories stay queued, no vector is written, and it answers by words and the vectors there are', () =>
  withHome(async (home) => {
    const embedder = new WordEmbedder();
    const ledger = openLedger({ home, semantic: { embedder, catchUp: 1 } });
    try {
      const me = ledger.as(ledger.operator());
      const embedded = await me.remember({
        body: 'The wombat habitat survey starts Monday',
        scope: 'shared',
      });
      await ledger.embedPending();
      const queued = await me.remember({ body: 'Budget review is on Friday', scope: 'shared' });
      await me.remember({ body: 'Lunch is at noon', scope: 'shared' });
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 1, pending: 2 });
      const texts = embedder.texts;
      const r = await me.search({ query: 'marsupial den budget' });
      assert.equal(embedder.texts, texts + 1, 'the query alone was embedded');
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 1, pending: 2 });
      assert.deepEqual(
        r.hits.map((h) => h.memory.id).sort(),
        [embedded.id, queued.id].sort(),
        'the queued memory by its word, the embedded one by its vector (it shares no word)',
      );
      assert.equal(r.vectors?.pending, 2);
      assert.equal(r.vectors?.missing, 1, 'the queued memory is a text candidate without a vector');
      // Control: the drain does write the vectors the search left alone.
      await ledger.embedPending();
      assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 3, pending: 0 });
    } finally {
      ledger.close();
    }
  }));
