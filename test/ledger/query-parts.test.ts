/**
 * A question that asks two things is ranked part by part when search has an embedder, so the answer to each
 * part reaches the head; without an embedder search is BM25's alone, whatever the question's shape.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Ledger, openLedger } from '../../src/index.ts';
import { queryParts } from '../../src/ledger/query-parts.ts';
import { WordEmbedder } from '../support/word-embedder.ts';

const TWO_PART = 'where do wombats burrow in deep winter frost, and which kettle does the office use';
/** The same words as one question: the same text candidates, one vector for both topics. */
const ONE_PART = 'where do wombats burrow in deep winter frost which kettle does the office use';
const KETTLE = 'The office kettle we use is the red one upstairs';

async function withLedger(embedder: boolean, fn: (ledger: Ledger) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'ml-query-parts-'));
  const ledger = openLedger({ home, ...(embedder ? { semantic: { embedder: new WordEmbedder() } } : {}) });
  try {
    const me = ledger.as(ledger.operator());
    for (let i = 1; i <= 8; i++) {
      await me.remember({
        body: `Wombats burrow deep where winter frost is light, survey ${i}${' of the valley'.repeat(i % 3)}`,
        scope: 'shared',
      });
    }
    await me.remember({ body: KETTLE, scope: 'shared' });
    for (let i = 1; i <= 20; i++)
      await me.remember({ body: `Build server ${i} restarts nightly`, scope: 'shared' });
    await me.remember({ body: 'The office plant is watered on Fridays', scope: 'shared' });
    await me.remember({ body: 'A descaler for the kettle is in the cupboard', scope: 'shared' });
    if (embedder) await ledger.embedPending();
    await fn(ledger);
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const top = async (ledger: Ledger, query: string, n = 3) =>
  (await ledger.as(ledger.operator()).search({ query, limit: 10 })).hits
    .slice(0, n)
    .map((h) => h.memory.body);

test('queryParts splits a question at ", and", "and who/what…", ";" and "? ", only into parts that stand alone', () => {
  assert.deepEqual(queryParts('which release is ingest waiting for, and which queue does ingest run on'), [
    'which release is ingest waiting for',
    'which queue does ingest run on',
  ]);
  assert.deepEqual(queryParts('who owns billing deploys and when does Sofia log off'), [
    'who owns billing deploys',
    'when does Sofia log off',
  ]);
  assert.deepEqual(queryParts('kettle brand; printer toner supplier'), [
    'kettle brand',
    'printer toner supplier',
  ]);
  assert.deepEqual(queryParts('is the deploy broken? who changed the runner image'), [
    'is the deploy broken',
    'who changed the runner image',
  ]);
  // One thing asked, or a second part that needs the first one's subject: searched whole.
  assert.deepEqual(queryParts('how does the billing api get deployed to production'), []);
  assert.deepEqual(queryParts('what does Lumen Retail do and where are they based'), []);
  assert.deepEqual(queryParts('salt and pepper shakers in the office kitchen'), []);
});

test('with an embedder, the answer to each part of a two-part question is at the head', async () => {
  await withLedger(true, async (ledger) => {
    // Control: asked as one question, the many memories of the first topic fill the head.
    assert.ok(
      !(await top(ledger, ONE_PART)).includes(KETTLE),
      'control: one vector for both topics buries it',
    );
    const head = await top(ledger, TWO_PART);
    assert.ok(head.includes(KETTLE), 'the second part’s answer is in the first three');
    assert.ok(
      head.some((b) => b.startsWith('Wombats burrow')),
      'and the first part’s answer too',
    );
  });
});

test('without an embedder, a two-part question searches exactly as its words in one question do', async () => {
  await withLedger(false, async (ledger) => {
    const me = ledger.as(ledger.operator());
    const split = await me.search({ query: TWO_PART, limit: 10 });
    const whole = await me.search({ query: ONE_PART, limit: 10 });
    assert.deepEqual(split.terms, whole.terms);
    assert.deepEqual(split.hits, whole.hits);
    assert.ok(split.hits.length > 0, 'control: the words found memories');
    assert.equal(split.vectors, undefined);
  });
});
