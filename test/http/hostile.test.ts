/**
 * Hostile input over the HTTP API and `/mcp`: malformed JSON and JSON-RPC, wrong types, huge bodies, FTS
 * operators, unicode edge cases and path-traversal-shaped ids. Each gets a clear error (never a 500), the
 * server stays up, and the store is unchanged (I11).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STATES, type LedgerSession } from '../../src/index.ts';
import { type RunningServer, startServer } from '../../src/surfaces/http/server.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

const CLIENT_FAULTS = new Set([400, 401, 403, 404, 409, 413]);

describe('hostile input over HTTP', () => {
  let home: ReturnType<typeof tempHome>;
  let server: RunningServer;
  let me: LedgerSession;
  let secret: string;
  let existing: string;

  before(async () => {
    home = tempHome('hostile');
    secret = makeTokens(home.home, {
      admin: { name: 'ada', kind: 'human', roles: ['admin'], grants: ['*:rw'] },
    }).admin!.secret;
    server = await startServer({ home: home.home, port: 0 });
    me = server.ledger.as(server.ledger.operator(), { surface: 'library' });
    existing = (await me.remember({ body: 'The hostile fixture memory about otters', scope: 'shared' })).id;
  });
  after(async () => {
    await server.close();
    home.cleanup();
  });

  const snapshot = async () => {
    const rows = await me.list({ states: [...STATES], limit: 200 });
    return rows.map((m) => `${m.id}:${m.state}:${m.trust}`).sort();
  };
  const send = (method: string, path: string, body?: string, extra: Record<string, string> = {}) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', ...extra },
      body,
    });
  const expectClientFault = async (
    res: Response,
    label: string,
  ): Promise<{ class: string; message: string }> => {
    const text = await res.text();
    assert.ok(CLIENT_FAULTS.has(res.status), `${label}: status ${res.status} ${text.slice(0, 200)}`);
    const parsed = JSON.parse(text) as { error: { class: string; message: string } };
    assert.notEqual(parsed.error.class, 'internal', label);
    return parsed.error;
  };
  const stillUp = async () => assert.equal((await fetch(`${server.url}/healthz`)).status, 200);

  test('I11 malformed JSON bodies are invalid_input, the server stays up, the store is unchanged', async () => {
    const before = await snapshot();
    for (const body of [
      '{',
      '[1,2',
      '{"body":',
      'nul',
      "{'single':'quotes'}",
      '\u0000',
      '{"a":1}}',
      '\ufeff{"body":"x"}',
    ]) {
      const error = await expectClientFault(await send('POST', '/v1/memories', body), JSON.stringify(body));
      assert.equal(error.class, 'invalid_input');
    }
    for (const body of ['null', '"a string"', '42', '[]', 'true']) {
      const error = await expectClientFault(await send('POST', '/v1/memories', body), body);
      assert.equal(error.class, 'invalid_input');
    }
    await stillUp();
    assert.deepEqual(await snapshot(), before);
  });

  test('I11 wrong types and unknown fields name the field in a 400', async () => {
    const before = await snapshot();
    const cases: [string, string, unknown, RegExp][] = [
      ['POST', '/v1/memories', { body: 5, scope: 'shared' }, /body/],
      ['POST', '/v1/memories', { body: 'x', scope: ['shared'] }, /scope/],
      ['POST', '/v1/memories', { body: 'x', scope: 'shared', confidence: 'high' }, /confidence/],
      ['POST', '/v1/memories', { body: 'x', scope: 'shared', subjects: 'person:a' }, /subjects/],
      ['POST', '/v1/memories', { body: 'x', scope: 'shared', admin: true }, /admin|unrecognized/i],
      ['POST', '/v1/memories', { body: 'x', scope: '../etc' }, /scope/],
      ['POST', '/v1/memories', { body: 'x', scope: 'shared', validFrom: 'yesterday' }, /validFrom/],
      ['POST', '/v1/search', { query: 'x', limit: 'ten' }, /limit/],
      ['POST', '/v1/search', { query: 'x', limit: 1e9 }, /limit/],
      ['POST', '/v1/search', { query: { $ne: 1 } }, /query/],
      ['POST', '/v1/erase', { subject: 'not a subject' }, /subject/],
      ['POST', `/v1/memories/${existing}/retract`, { reason: 7 }, /reason/],
    ];
    for (const [method, path, body, field] of cases) {
      const error = await expectClientFault(
        await send(method, path, JSON.stringify(body)),
        `${path} ${JSON.stringify(body)}`,
      );
      assert.equal(error.class, 'invalid_input');
      assert.match(error.message, field);
    }
    for (const query of [
      'limit=abc',
      'limit=-1',
      'states=alive',
      'scopes=%2e%2e',
      'nonsense=1',
      'asOf=whenever',
    ]) {
      const error = await expectClientFault(await send('GET', `/v1/memories?${query}`), query);
      assert.equal(error.class, 'invalid_input', query);
    }
    await stillUp();
    assert.deepEqual(await snapshot(), before);
  });

  test('I11 huge bodies are refused with 413 invalid_input, with or without Content-Length', async () => {
    const before = await snapshot();
    const big = JSON.stringify({ body: 'x'.repeat(300 * 1024), scope: 'shared' });
    const sized = await expectClientFault(await send('POST', '/v1/memories', big), 'content-length');
    assert.equal(sized.class, 'invalid_input');
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        const piece = new TextEncoder().encode('x'.repeat(64 * 1024));
        controller.enqueue(new TextEncoder().encode('{"body":"'));
        for (let i = 0; i < 6; i++) controller.enqueue(piece);
        controller.enqueue(new TextEncoder().encode('","scope":"shared"}'));
        controller.close();
      },
    });
    const streamed = await fetch(`${server.url}/v1/memories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    assert.equal(streamed.status, 413);
    assert.equal(((await streamed.json()) as { error: { class: string } }).error.class, 'invalid_input');
    const mcp = await send(
      'POST',
      '/mcp',
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { p: 'x'.repeat(300 * 1024) } }),
    );
    assert.equal(mcp.status, 413);
    // control: a body just under the memory limit is accepted
    const fine = await send(
      'POST',
      '/v1/memories',
      JSON.stringify({ body: `long otter note ${'y'.repeat(7000)}`, scope: 'shared' }),
    );
    assert.equal(fine.status, 201);
    await stillUp();
    assert.equal((await snapshot()).length, before.length + 1);
  });

  test('I11 FTS operators and unicode edge cases in queries give results or invalid_input, never a crash', async () => {
    const before = await snapshot();
    const queries = [
      '"NEAR(',
      'otters AND OR NOT',
      '*',
      'body:otters',
      '^otters',
      '(((otters',
      '"',
      "'; DROP TABLE memories; --",
      'NEAR/2 otters',
      '-otters',
      'otters\u0000',
      '\ud800 otters',
      'ot\u200bters',
      '\u202eotters',
      'otters 🦦',
      'ottérs',
      'o\u0301tters',
      '中文 otters',
      'ＯＴＴＥＲＳ',
      ' ',
      '',
    ];
    let found = 0;
    for (const query of queries) {
      const res = await send('POST', '/v1/search', JSON.stringify({ query }));
      if (res.status === 200) {
        const result = (await res.json()) as { hits: { memory: { id: string } }[] };
        if (result.hits.some((h) => h.memory.id === existing)) found++;
      } else {
        const error = await expectClientFault(res, JSON.stringify(query));
        assert.equal(error.class, 'invalid_input', JSON.stringify(query));
      }
    }
    assert.ok(found >= 10, `the fixture was found by only ${found} of the queries that name otters`);
    await stillUp();
    assert.deepEqual(await snapshot(), before);
  });

  test('I11 path-traversal-shaped and oversized ids are invalid_input or not_found, and touch nothing', async () => {
    const before = await snapshot();
    const ids = [
      '..%2F..%2Fetc%2Fpasswd',
      '%2e%2e',
      'mem_..%2f..%2f',
      'mem_%00',
      encodeURIComponent("mem_' OR 1=1 --"),
      'x'.repeat(5000),
      `${existing}%00`,
      existing.toUpperCase(),
      'mem_zzzzzzzzzzzzzzzzzzzzzz',
    ];
    for (const id of ids) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['GET', '/history', undefined],
        ['POST', '/retract', '{"reason":"x"}'],
        ['POST', '/confirm', undefined],
      ] as const) {
        const res = await send(method, `/v1/memories/${id}${suffix}`, body);
        const error = await expectClientFault(res, `${method} ${id.slice(0, 40)}${suffix}`);
        assert.ok(['invalid_input', 'not_found'].includes(error.class), error.class);
      }
    }
    const res = await fetch(`${server.url}/v1/memories/../../../etc/passwd`, {
      headers: { authorization: `Bearer ${secret}` },
    });
    assert.equal(res.status, 404);
    await stillUp();
    assert.deepEqual(await snapshot(), before);
  });

  test('I11 unicode bodies round-trip byte for byte through write and read', async () => {
    for (const body of [
      'Otters 🦦 hold hands',
      'ملاحظة: القنادس',
      'e\u0301 and é differ',
      'zero\u200bwidth',
      '\u202eRTL override',
    ]) {
      const created = await send('POST', '/v1/memories', JSON.stringify({ body, scope: 'shared' }));
      assert.equal(created.status, 201, body);
      const { id } = (await created.json()) as { id: string };
      const read = (await (await send('GET', `/v1/memories/${id}`)).json()) as { body: string };
      assert.equal(read.body, body);
    }
  });

  test('I11 malformed JSON-RPC on /mcp gets JSON-RPC errors, and a proper session still works afterwards', async () => {
    const before = await snapshot();
    const mcpHeaders = { accept: 'application/json, text/event-stream' };
    const cases: [string, number][] = [
      ['not json', 400],
      ['{"jsonrpc":"2.0"}', 400],
      ['[]', 400],
      ['{"jsonrpc":"2.0","id":1,"method":"tools/list"}', 400],
      ['{"jsonrpc":"1.0","id":1,"method":"initialize"}', 400],
    ];
    for (const [body, status] of cases) {
      const res = await send('POST', '/mcp', body, mcpHeaders);
      assert.equal(res.status, status, body);
      const reply = (await res.json()) as { jsonrpc: string; error: { code: number } };
      assert.equal(reply.jsonrpc, '2.0');
      assert.ok(reply.error.code < 0, body);
    }
    const ghost = await send('POST', '/mcp', '{"jsonrpc":"2.0","id":1,"method":"tools/list"}', {
      ...mcpHeaders,
      'mcp-session-id': '00000000-0000-0000-0000-000000000000',
    });
    assert.equal(ghost.status, 404);
    const refused = (await me.audit({ operation: 'mcp.request', limit: 50 })).filter(
      (r) => r.outcome === 'error',
    );
    assert.ok(refused.length >= cases.length + 1, `only ${refused.length} refusals audited`);
    // control: a well-formed initialize opens a session
    const init = await send(
      'POST',
      '/mcp',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
      }),
      mcpHeaders,
    );
    assert.equal(init.status, 200);
    assert.ok(init.headers.get('mcp-session-id'));
    await stillUp();
    assert.deepEqual(await snapshot(), before);
  });
});
