/**
 * What fusion keeps and what it spares: BM25's best candidate is not buried under memories only near the
 * query's meaning, a repeated query is embedded once per ledger, and an unscoped scan reads a bounded number of
 * vectors besides the text candidates' own (run with a deterministic word embedder).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { quantise } from '../../src/embed/int8.ts';
import { type Ledger, openLedger, type SemanticOptions } from '../../src/index.ts';
import { WordEmbedder, wordVector } from '../support/word-embedder.ts';

async function withLedger(
  semantic: Omit<SemanticOptions, 'embedder'>,
  fn: (ledger: Ledger, embedder: WordEmbedder) => Promise<void>,
): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'ml-embed-fusion-'));
  const embedder = new WordEmbedder();
  const ledger = openLedger({ home, semantic: { ...semantic, embedder } });
  try {
    await fn(ledger, embedder);
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** One memory holding half the query's words but far from its meaning, six near its meaning holding none. */
async function writeTopic(ledger: Ledger): Promise<void> {
  const me = ledger.as(ledger.operator());
  await me.remember({
    body: 'The rota hangs beside kettle, printer, stapler, calendar, plant, mirror',
    scope: 'shared',
  });
  // Tagged with numbers of their own (two-digit words, which the word embedder skips): one vector, near the
  // query's meaning, but not repeats of one another's words (src/embed/spread.ts).
  for (let i = 1; i <= 6; i++) {
    await me.remember({ body: `Wombat wombats ${i}1 ${i}2 ${i}3 ${i}4`, scope: 'shared' });
  }
  await ledger.embedPending();
}

const top5 = async (ledger: Ledger, query: string) =>
  (await ledger.as(ledger.operator()).search({ query, limit: 10 })).hits
    .slice(0, 5)
    .map((h) => h.memory.body);

test('BM25’s best candidate with half the query’s words stays in the first three when vectors favour others', async () => {
  const query = 'marsupial rota';
  await withLedger({ keep: 0 }, async (ledger) => {
    await writeTopic(ledger);
    const hits = await top5(ledger, query);
    // Control: without keeping, the memories near the meaning fill the first five.
    assert.equal(hits.filter((b) => b.startsWith('Wombat')).length, 5);
    assert.ok(!hits.some((b) => b.startsWith('The rota')), 'control: fusion alone buries the text match');
  });
  await withLedger({}, async (ledger) => {
    await writeTopic(ledger);
    const hits = await top5(ledger, query);
    assert.equal(hits[2], 'The rota hangs beside kettle, printer, stapler, calendar, plant, mirror');
    assert.equal(
      hits.slice(0, 2).filter((b) => b.startsWith('Wombat')).length,
      2,
      'the vector hits still lead',
    );
    assert.equal(hits.filter((b) => b.startsWith('Wombat')).length, 4);
  });
});

test('BM25’s best candidate is kept with a third of the query’s words, and not with less', async () => {
  const rota = 'The rota hangs beside kettle, printer, stapler, calendar, plant, mirror';
  await withLedger({}, async (ledger) => {
    await writeTopic(ledger);
    // One word of three: kept in the first three, the vector hits still lead.
    const kept = await top5(ledger, 'marsupial rota sunday');
    assert.equal(kept[2], rota);
    assert.equal(kept.filter((b) => b.startsWith('Wombat')).length, 4);
    // Control: one word of four is below a third, so vectors alone order the first five.
    const below = await top5(ledger, 'marsupial rota sunday evening');
    assert.ok(!below.includes(rota), 'a weaker text match is not kept');
    assert.equal(below.filter((b) => b.startsWith('Wombat')).length, 5);
  });
});

test('BM25’s kept candidate keeps its place when a named time re-sorts the fused list', async () => {
  const rota = 'The rota hangs beside kettle, printer, stapler, calendar, plant, mirror';
  await withLedger({}, async (ledger) => {
    await writeTopic(ledger);
    // "last year" resolves to an interval none of these memories falls in: every score is kept, then re-sorted.
    const me = ledger.as(ledger.operator());
    const result = await me.search({ query: 'marsupial marsupial marsupial rota last year', limit: 10 });
    assert.ok(result.time !== undefined, 'control: the query named a time, so search re-sorted by score');
    const hits = result.hits.slice(0, 5).map((h) => h.memory.body);
    assert.equal(hits[2], rota, 'still third after the re-sort');
    assert.equal(hits.filter((b) => b.startsWith('Wombat')).length, 4, 'the vector hits still lead');
    for (let i = 1; i < result.hits.length; i++) {
      assert.ok(result.hits[i]!.score <= result.hits[i - 1]!.score, 'scores follow the order');
    }
  });
});

test('with few scopes named, a small scope’s best text match is also read against its own scope’s best', async () => {
  await withLedger({}, async (ledger) => {
    const me = ledger.as(ledger.operator());
    for (let i = 1; i <= 30; i++) {
      await me.remember({ body: `Kettle descaling rota week ${i}`, scope: i % 2 ? 'shared' : 'project:app' });
    }
    for (let i = 1; i <= 6; i++) {
      await me.remember({
        body: `Production deploy checklist item ${i} for the shared runbook`,
        scope: 'shared',
      });
    }
    const answer = 'The app ships through fastlane with a staged rollout';
    await me.remember({ body: answer, scope: 'project:app' });
    await ledger.embedPending();
    const scores = async (scopes?: string[]) =>
      (
        await me.search({ query: 'production deploy rollout', limit: 10, ...(scopes ? { scopes } : {}) })
      ).hits.map((h) => [h.memory.body, h.score] as const);
    const everywhere = new Map(await scores());
    const named = new Map(await scores(['project:app', 'shared']));
    // Control: the project's answer holds one word of three; the shared checklist items hold two and lead.
    assert.ok(
      everywhere.get(answer)! < everywhere.get('Production deploy checklist item 1 for the shared runbook')!,
    );
    assert.ok(named.get(answer)! > everywhere.get(answer)!, 'named, it is also the best of its own scope');
    for (const [body, score] of named) if (body !== answer) assert.equal(score, everywhere.get(body), body);
  });
});

test('a repeated query is embedded once per ledger and searches alike; another query is embedded', async () => {
  await withLedger({}, async (ledger, embedder) => {
    await writeTopic(ledger);
    const me = ledger.as(ledger.operator());
    const before = embedder.texts;
    const first = await me.search({ query: 'marsupial rota' });
    assert.equal(embedder.texts, before + 1);
    const second = await me.search({ query: 'marsupial rota' });
    assert.equal(embedder.texts, before + 1, 'the second search reused the query’s vector');
    assert.deepEqual(second.hits, first.hits);
    await me.search({ query: 'wombat survey' });
    assert.equal(embedder.texts, before + 2, 'control: a new query reaches the embedder');
  });
});

test('a capped vector scan reads the newest memories’ vectors and the named candidates’, each once', async () => {
  await withLedger({}, async (ledger, embedder) => {
    const me = ledger.as(ledger.operator());
    const ids: string[] = [];
    for (let i = 0; i < 6; i++)
      ids.push((await me.remember({ body: `Wombat note ${i}`, scope: 'shared' })).id);
    await ledger.embedPending();
    const plan = {
      scopes: { all: true } as const,
      model: embedder.model,
      query: quantise(wordVector('wombat note')),
      k: 10,
      ids: [ids[0]!, ids[5]!],
    };
    const all = await ledger.store.vectors.nearest(plan);
    assert.equal(all.nearest.length, 6, 'control: uncapped, every vector is read');
    const capped = await ledger.store.vectors.nearest({ ...plan, scan: 2 });
    assert.deepEqual(capped.nearest.map((h) => h.memory.id).sort(), [ids[0], ids[4], ids[5]].sort());
    assert.deepEqual([...capped.similarities.keys()].sort(), [ids[0], ids[5]].sort());
    assert.equal(capped.similarities.get(ids[0]!), all.similarities.get(ids[0]!));
  });
});

test('when more memories share the k-th similarity than places remain, the smaller ids win, whatever the scan order', async () => {
  await withLedger({}, async (ledger, embedder) => {
    const me = ledger.as(ledger.operator());
    const ids: string[] = [];
    // Bodies differing only in a two-letter word (the word embedder skips those): identical vectors, so every
    // similarity ties. Two scopes, so the scan order is not the id order.
    for (let i = 0; i < 24; i++) {
      const tag = String.fromCharCode(97 + (i % 26), 97 + Math.floor(i / 26));
      const body = `Wombat burrow ${i % 2 ? 'east' : 'west'} ${tag}`;
      ids.push((await me.remember({ body, scope: i % 3 ? 'shared' : 'project:z' })).id);
    }
    await ledger.embedPending();
    const plan = {
      scopes: { all: true } as const,
      model: embedder.model,
      query: quantise(wordVector('wombat burrow east')),
      k: 5,
      ids: [],
    };
    const east = ids.filter((_, i) => i % 2 === 1).sort();
    const got = await ledger.store.vectors.nearest(plan);
    assert.deepEqual(
      got.nearest.map((h) => h.memory.id),
      east.slice(0, 5),
      'the five smallest ids among the twelve equally near',
    );
    assert.ok(got.nearest[0]!.similarity > 0.99);
    // Control: with room for all of them, all twelve of the nearest come back, and then the others.
    const all = await ledger.store.vectors.nearest({ ...plan, k: 30 });
    assert.deepEqual(
      all.nearest.slice(0, 12).map((h) => h.memory.id),
      east,
    );
    assert.equal(all.nearest.length, 24);
  });
});
