/**
 * With an embedder, the turn said just after a found turn is ranked with it (src/ledger/search-replies.ts):
 * below the hit it answers, marked `replyTo`; never a turn the caller cannot read (I4) or one the search's own
 * filters leave out; without an embedder search is exactly BM25's (run with a deterministic word embedder).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { type Ledger, openLedger } from '../../src/index.ts';
import { principal } from '../conformance/helpers.ts';
import { WordEmbedder } from '../support/word-embedder.ts';

async function withLedger(embedder: boolean, fn: (ledger: Ledger) => Promise<void>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), 'ml-embed-replies-'));
  const ledger = openLedger({ home, ...(embedder ? { semantic: { embedder: new WordEmbedder() } } : {}) });
  try {
    await fn(ledger);
  } finally {
    ledger.close();
    rmSync(home, { recursive: true, force: true });
  }
}

const ASK = 'Priya: the quokka checkout test keeps failing on main';
const REPLY = 'Tom: each worker gets its own port now, so it stopped';
const PRIVATE = 'Elena: the ops vault holds the runner token for it';

/** A conversation (ask, then its reply: turns, kind episode) and an unrelated memory holding one of the query's words. */
async function conversation(
  ledger: Ledger,
  replyScope = 'shared',
  replyKind: 'episode' | 'note' = 'episode',
) {
  const writer = ledger.as(principal('human', 'writer'), { surface: 'library', sessionId: 'conv-1' });
  const ask = await writer.remember({
    body: ASK,
    scope: 'shared',
    kind: 'episode',
    subjects: ['project:checkout'],
  });
  const reply = await writer.remember({
    body: replyScope === 'shared' ? REPLY : PRIVATE,
    scope: replyScope,
    kind: replyKind,
  });
  await ledger.as(ledger.operator()).remember({ body: 'The quokka mascot is on the wiki', scope: 'shared' });
  if (ledger.semantic !== undefined) await ledger.embedPending();
  return { ask: ask.id, reply: reply.id };
}

const reader = (ledger: Ledger, grants: string[]) =>
  ledger.as(principal('human', `reader-${grants.length}`, { roles: ['reader'], grants }), {
    surface: 'library',
  });

test('with an embedder, the reply to a found turn is ranked just below it and marked; without one it is not', async () => {
  await withLedger(true, async (ledger) => {
    const ids = await conversation(ledger);
    const found = await ledger.as(ledger.operator()).search({ query: 'quokka checkout test failing' });
    assert.equal(found.hits[0]?.memory.id, ids.ask, 'control: the turn holding the words leads');
    assert.equal(found.hits[1]?.memory.id, ids.reply, 'its reply, which holds none of them, is next');
    assert.equal(found.hits[1]?.why.replyTo, ids.ask);
    assert.ok(found.hits[1]!.score < found.hits[0]!.score, 'below the hit it answers');
  });
  await withLedger(false, async (ledger) => {
    const ids = await conversation(ledger);
    const found = await ledger.as(ledger.operator()).search({ query: 'quokka checkout test failing' });
    assert.equal(found.hits[0]?.memory.id, ids.ask, 'control: the same first hit');
    assert.ok(!found.hits.some((h) => h.memory.id === ids.reply), 'BM25 alone does not find the reply');
    assert.ok(found.hits.every((h) => h.why.replyTo === undefined));
  });
});

test('I4 scope: a reply the caller cannot read is never ranked or hinted; a reader of its scope gets it', async () => {
  await withLedger(true, async (ledger) => {
    const ids = await conversation(ledger, 'user:ops');
    const limited = await reader(ledger, ['shared:r']).search({ query: 'quokka checkout test failing' });
    assert.equal(limited.hits[0]?.memory.id, ids.ask, 'control: the question is found');
    const text = JSON.stringify(limited);
    assert.ok(!text.includes(ids.reply) && !text.includes('vault'), 'no id, no word of the private turn');
    const full = await reader(ledger, ['shared:r', 'user:ops:r']).search({
      query: 'quokka checkout test failing',
    });
    assert.equal(full.hits[1]?.memory.id, ids.reply, 'control: a reader of user:ops gets it');
    // Named scopes restrict replies as they restrict hits.
    const named = await reader(ledger, ['shared:r', 'user:ops:r']).search({
      query: 'quokka checkout test failing',
      scopes: ['shared'],
    });
    assert.ok(!named.hits.some((h) => h.memory.id === ids.reply), 'outside the named scopes');
  });
});

test('a reply the search’s filters leave out (another subject) or that is not a turn is not ranked', async () => {
  await withLedger(true, async (ledger) => {
    const ids = await conversation(ledger);
    const me = ledger.as(ledger.operator());
    const named = await me.search({ query: 'quokka checkout test failing', subject: 'project:checkout' });
    assert.equal(named.hits[0]?.memory.id, ids.ask, 'control: the turn about checkout is found');
    assert.ok(!named.hits.some((h) => h.memory.id === ids.reply), 'the reply has no such subject');
    const all = await me.search({ query: 'quokka checkout test failing' });
    assert.equal(all.hits[1]?.memory.id, ids.reply, 'control: unfiltered, it is ranked');
  });
  await withLedger(true, async (ledger) => {
    // A note written after a turn in the same session is a statement of its own, not a reply.
    const ids = await conversation(ledger, 'shared', 'note');
    const all = await ledger.as(ledger.operator()).search({ query: 'quokka checkout test failing' });
    assert.equal(all.hits[0]?.memory.id, ids.ask, 'control: the turn is found');
    assert.ok(!all.hits.some((h) => h.memory.id === ids.reply), 'the note after it is not lifted');
  });
});
