/** The HTTP embedder against a local node:http server speaking the OpenAI-compatible `/v1/embeddings`. */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HttpEmbedder, MemoryError, openLedger } from '../../src/index.ts';
import { wordVector } from '../support/word-embedder.ts';

const KEY = 'sk-test-0123456789abcdefghijklmnopqrstuv';
let server: Server;
let base: string;
const seen: { auth: string | undefined; model: unknown; input: unknown }[] = [];
/** The status the server answers with next (200 unless a test sets it). */
let status = 200;

before(async () => {
  server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; input: string[] };
    seen.push({ auth: req.headers.authorization, model: body.model, input: body.input });
    if (req.url !== '/v1/embeddings' || req.method !== 'POST' || status !== 200) {
      res.writeHead(req.url !== '/v1/embeddings' ? 404 : status).end('{"error":"no"}');
      return;
    }
    // Out of order on purpose: the client orders by `index`.
    const data = body.input.map((text, index) => ({
      object: 'embedding',
      index,
      embedding: [...wordVector(text)],
    }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ object: 'list', data: data.reverse(), model: body.model }));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(() => server.close());

test('the HTTP embedder posts the texts with the model and the bearer key from the named variable, and orders by index', async () => {
  process.env.ML_TEST_EMBED_KEY = KEY;
  const embedder = new HttpEmbedder({ url: base, model: 'nomic-embed-text', apiKeyEnv: 'ML_TEST_EMBED_KEY' });
  seen.length = 0;
  const [a, b] = await embedder.embed(['wombat habitat', 'budget review']);
  assert.deepEqual(seen, [
    { auth: `Bearer ${KEY}`, model: 'nomic-embed-text', input: ['wombat habitat', 'budget review'] },
  ]);
  assert.deepEqual(
    [...a!].map((x) => Math.round(x * 1e5)),
    [...wordVector('wombat habitat')].map((x) => Math.round(x * 1e5)),
  );
  assert.deepEqual(
    [...b!].map((x) => Math.round(x * 1e5)),
    [...wordVector('budget review')].map((x) => Math.round(x * 1e5)),
  );
  assert.equal(embedder.dims, 64);
  assert.match(embedder.model, /^http:127\.0\.0\.1:\d+\/nomic-embed-text$/);
});

test('an HTTP embedder failure is an upstream error naming host and status, never the key (I10)', async () => {
  process.env.ML_TEST_EMBED_KEY = KEY;
  const embedder = new HttpEmbedder({ url: base, model: 'm', apiKeyEnv: 'ML_TEST_EMBED_KEY' });
  status = 401;
  try {
    await assert.rejects(embedder.embed(['x']), (error: unknown) => {
      assert.ok(error instanceof MemoryError);
      assert.equal(error.class, 'upstream');
      assert.match(error.message, /answered 401/);
      assert.ok(!error.message.includes(KEY));
      assert.ok(!JSON.stringify(error).includes(KEY));
      return true;
    });
  } finally {
    status = 200;
  }
  // Control: the same embedder works once the server does.
  assert.equal((await embedder.embed(['x'])).length, 1);
  const unreachable = new HttpEmbedder({
    url: 'http://127.0.0.1:9/v1',
    model: 'm',
    apiKeyEnv: 'ML_TEST_EMBED_KEY',
  });
  await assert.rejects(
    unreachable.embed(['x']),
    (e: MemoryError) => e.class === 'upstream' && !e.message.includes(KEY),
  );
  assert.throws(() => new HttpEmbedder({ url: 'file:///etc/passwd', model: 'm' }), /http or https/);
});

test('a home configured with embedder.json searches through the HTTP embedder; a failing endpoint falls back to text and says so', async () => {
  const home = mkdtempSync(join(tmpdir(), 'ml-http-embed-'));
  try {
    openLedger({ home }).close();
    writeFileSync(join(home, 'embedder.json'), JSON.stringify({ kind: 'http', url: base, model: 'words' }));
    const ledger = openLedger({ home, semantic: { embedder: 'auto' } });
    try {
      const me = ledger.as(ledger.operator());
      await me.remember({ body: 'The wombat habitat survey starts Monday', scope: 'shared' });
      await me.remember({ body: 'Budget review is on Friday', scope: 'shared' });
      await ledger.embedPending();
      const r = await me.search({ query: 'marsupial den' });
      assert.equal(r.vectors?.used, true);
      assert.match(r.vectors!.model, /^http:127\.0\.0\.1/);
      assert.deepEqual(
        r.hits.map((h) => h.memory.body),
        ['The wombat habitat survey starts Monday'],
      );
      status = 500;
      const down = await me.search({ query: 'budget review' });
      assert.equal(down.vectors?.used, false);
      assert.equal(down.vectors?.reason, 'the embedder failed');
      assert.deepEqual(
        down.hits.map((h) => h.memory.body),
        ['Budget review is on Friday'],
        'text still answers',
      );
    } finally {
      status = 200;
      ledger.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
