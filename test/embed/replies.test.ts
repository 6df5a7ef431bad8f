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

test('a reply that asks back is weighed as a question, and the turn that answers it is ranked after it; a statement reply brings no second turn', async () => {
  await withLedger(true, async (ledger) => {
    const writer = ledger.as(principal('human', 'writer'), { surface: 'library', sessionId: 'conv-2' });
    const turn = (body: string) => writer.remember({ body, scope: 'shared', kind: 'episode' });
    const news = await turn('Bilal: bad news, the wombat summer party on the roof is off');
    const asks = await turn('Anke: Noooo. Where instead?');
    const answer = await turn('Bilal: the beer garden at the Klosterhof, same date');
    const after = await turn('Anke: lovely, see you there');
    // Control: a conversation whose reply is a statement.
    const other = ledger.as(principal('human', 'writer'), { surface: 'library', sessionId: 'conv-3' });
    const told = await other.remember({
      body: 'Priya: the wombat picnic moved to June',
      scope: 'shared',
      kind: 'episode',
    });
    const ack = await other.remember({
      body: 'Tom: noted, it goes in the team calendar',
      scope: 'shared',
      kind: 'episode',
    });
    const third = await other.remember({
      body: 'Priya: also bring sunscreen for everyone',
      scope: 'shared',
      kind: 'episode',
    });
    await ledger.embedPending();
    const r = await ledger.as(ledger.operator()).search({ query: 'wombat summer party roof' });
    const hit = (id: string) => r.hits.find((h) => h.memory.id === id);
    assert.equal(r.hits[0]?.memory.id, news.id, 'control: the turn holding the words leads');
    const q = hit(asks.id);
    assert.equal(q?.why.replyTo, news.id);
    assert.equal(q?.why.shape, 'question');
    assert.ok(
      Math.abs(q!.score - r.hits[0]!.score * 0.75 * 0.3) < 1e-5,
      'a question reply weighs 0.3 of a reply',
    );
    const a = hit(answer.id);
    assert.equal(a?.why.replyTo, asks.id, 'the answer to the question reply is ranked, marked as its reply');
    assert.ok(Math.abs(a!.score - r.hits[0]!.score * 0.75 * 0.75) < 1e-5);
    assert.ok(r.hits.indexOf(a!) < r.hits.indexOf(q!), 'the answer ranks above the question it answers');
    assert.equal(hit(after.id), undefined, 'two turns on, no further');
    // The statement reply is ranked as a reply; the turn after it is not.
    const t = hit(told.id);
    assert.ok(t !== undefined, 'control: the other conversation is found by its word');
    assert.equal(hit(ack.id)?.why.replyTo, told.id, 'control: a statement reply is ranked as a reply');
    assert.equal(hit(third.id), undefined, 'a statement reply brings no second turn');
  });
});
