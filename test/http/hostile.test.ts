/**
 * Hostile input over the HTTP API and `/mcp`: malformed JSON and JSON-RPC, wrong types, huge bodies, FTS
 * operators, unicode edge cases and path-traversal-shaped ids. Each gets a clear error (never a 500), the
 * server stays up, and the store is unchanged (I11).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { KINDS, STATES, type LedgerSession } from '../../src/index.ts';
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
    secret = (
      await makeTokens(home.home, {
        admin: { name: 'ada', kind: 'human', roles: ['admin'], grants: ['*:rw'] },
      })
    ).admin!.secret;
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

  /** The newest audit record of an operation: the one the call just made. */
  const lastAudit = async (operation: string) => (await me.audit({ operation, limit: 1 }))[0];
  const invalidInputCount = async () =>
    (await me.audit({ outcome: 'error', failureClass: 'invalid_input', limit: 10_000 })).length;
  const nested = (levels: number): unknown => {
    let v: unknown = 'leaf';
    for (let i = 0; i < levels; i++) v = [v];
    return v;
  };
  const heldProposal = async () =>
    (
      await server.ledger
        .as(server.ledger.principal('agent:bot'), { surface: 'library' })
        .remember({ body: `A proposal held for review ${Math.random()}`, scope: 'shared' })
    ).id;

  test('I11 a value 3,000 levels deep and 35,000 kinds are 400 invalid_input, audited, and write nothing', async () => {
    const held = await heldProposal();
    const before = await snapshot();
    const deep = nested(3_000);
    const cases: [string, string, unknown, string][] = [
      ['POST', '/v1/memories', { body: 'deep', scope: 'shared', value: deep }, 'remember'],
      ['POST', `/v1/review/${held}/approve`, { value: deep }, 'review.approve'],
      ['POST', '/v1/memories', { body: 'deep', scope: 'shared', value: nested(65) }, 'remember'],
      ['POST', '/v1/search', { query: 'otters', kinds: Array(35_000).fill('fact') }, 'search'],
      ['POST', '/v1/search', { query: 'otters', scopes: Array(20_000).fill('shared') }, 'search'],
      ['POST', '/v1/context', { task: 'otters', scopes: Array(20_000).fill('shared') }, 'context'],
    ];
    for (const [method, path, body, operation] of cases) {
      const res = await send(method, path, JSON.stringify(body));
      const text = await res.text();
      assert.equal(res.status, 400, `${path}: ${text.slice(0, 200)}`);
      assert.equal((JSON.parse(text) as { error: { class: string } }).error.class, 'invalid_input');
      const record = await lastAudit(operation);
      assert.equal(record?.failureClass, 'invalid_input', `${path} is audited`);
      assert.equal(record?.surface, 'http');
    }
    const states = await send('GET', `/v1/memories?${'states=active&'.repeat(7)}limit=5`);
    assert.equal(states.status, 400, 'seven states where six exist');
    await stillUp();
    assert.deepEqual(await snapshot(), before);
    // Controls: a value at the depth limit lands; every kind at once is a search.
    const fine = await send(
      'POST',
      '/v1/memories',
      JSON.stringify({ body: 'A deep otter value', scope: 'shared', value: nested(64) }),
    );
    assert.equal(fine.status, 201);
    const kinds = await send(
      'POST',
      '/v1/search',
      JSON.stringify({ query: 'otter value', kinds: [...KINDS] }),
    );
    assert.equal(kinds.status, 200);
    assert.ok(((await kinds.json()) as { hits: unknown[] }).hits.length > 0);
  });

  test('I11 invalid dates on every time field are 400 invalid_input naming the field, each audited', async () => {
    const held = await heldProposal();
    const before = await snapshot();
    const bad = [
      '2024-02-30',
      '2023-02-29',
      '2024-13-01',
      '2024-05-01T24:00Z',
      '0000-01-01',
      '2024-05-01T10:00',
    ];
    const counted = await invalidInputCount();
    let calls = 0;
    for (const t of bad) {
      const q = encodeURIComponent(t);
      const cases: [string, string, unknown, string][] = [
        ['POST', '/v1/memories', { body: 'x', scope: 'shared', validFrom: t }, 'validFrom'],
        ['POST', '/v1/memories', { body: 'x', scope: 'shared', validTo: t }, 'validTo'],
        ['POST', '/v1/search', { query: 'otters', asOf: t }, 'asOf'],
        ['POST', '/v1/search', { query: 'otters', validAt: t }, 'validAt'],
        ['GET', `/v1/memories?asOf=${q}`, undefined, 'asOf'],
        ['GET', `/v1/memories?validAt=${q}`, undefined, 'validAt'],
        ['POST', `/v1/review/${held}/approve`, { validFrom: t }, 'validFrom'],
        ['POST', `/v1/review/${held}/approve`, { validTo: t }, 'validTo'],
        ['GET', `/v1/audit?since=${q}`, undefined, 'since'],
        ['GET', `/v1/audit/failures?since=${q}`, undefined, 'since'],
      ];
      for (const [method, path, body, field] of cases) {
        const res = await send(method, path, body === undefined ? undefined : JSON.stringify(body));
        const error = await expectClientFault(res, `${method} ${path} ${t}`);
        assert.equal(res.status, 400);
        assert.equal(error.class, 'invalid_input', `${path} ${t}`);
        assert.match(error.message, new RegExp(field));
        calls++;
      }
    }
    assert.equal((await invalidInputCount()) - counted, calls, 'every refusal has its audit record');
    const zoneless = await send(
      'POST',
      '/v1/search',
      JSON.stringify({ query: 'x', asOf: '2024-05-01T10:00' }),
    );
    assert.match(((await zoneless.json()) as { error: { message: string } }).error.message, /add Z/);
    await stillUp();
    assert.deepEqual(await snapshot(), before);
    // Control: a plain date and a time with an offset land, canonical.
    const created = await send(
      'POST',
      '/v1/memories',
      JSON.stringify({
        body: 'Dated otters',
        scope: 'shared',
        validFrom: '2024-02-29',
        validTo: '2024-05-01T10:00+02:00',
      }),
    );
    assert.equal(created.status, 201);
    const { id } = (await created.json()) as { id: string };
    const read = (await (await send('GET', `/v1/memories/${id}`)).json()) as {
      validFrom: string;
      validTo: string;
    };
    assert.deepEqual(
      [read.validFrom, read.validTo],
      ['2024-02-29T00:00:00.000Z', '2024-05-01T08:00:00.000Z'],
    );
  });

  test('I11 whitespace-only and invisible-only bodies are refused on remember and approve, and audited', async () => {
    const held = await heldProposal();
    const before = await snapshot();
    for (const body of [' ', '\n\t ', '\u200b', '\u200b\u200d\u2060\ufeff', '\u00ad\u202e\u2066']) {
      for (const [path, payload, operation] of [
        ['/v1/memories', { body, scope: 'shared' }, 'remember'],
        [`/v1/review/${held}/approve`, { body }, 'review.approve'],
      ] as const) {
        const res = await send('POST', path, JSON.stringify(payload));
        const error = await expectClientFault(res, `${path} ${JSON.stringify(body)}`);
        assert.equal(error.class, 'invalid_input');
        assert.match(error.message, /visible text/);
        assert.equal((await lastAudit(operation))?.failureClass, 'invalid_input');
      }
    }
    assert.deepEqual(await snapshot(), before);
    // Control: invisible characters inside real words are kept as written.
    const res = await send('POST', `/v1/review/${held}/approve`, JSON.stringify({ body: 'sea\u200botters' }));
    assert.equal(res.status, 200);
  });

  test('I8 a failure that escapes the ledger is a 500 internal with an audit record, not a silent 500', async () => {
    const as = server.ledger.as;
    const bug = new TypeError('simulated defect outside the ledger');
    try {
      // A session whose search throws something that is not a MemoryError, as a bug in a surface would.
      server.ledger.as = (principal, context) => {
        const session = as.call(server.ledger, principal, context);
        return new Proxy(session, {
          get: (target, property) =>
            property === 'search' ? () => Promise.reject(bug) : Reflect.get(target, property, target),
        });
      };
      const res = await send('POST', '/v1/search', JSON.stringify({ query: 'otters' }));
      assert.equal(res.status, 500);
      assert.equal(((await res.json()) as { error: { class: string } }).error.class, 'internal');
      // And one thrown before any handler catches it reaches the app's last resort, which audits too.
      server.ledger.as = () => {
        throw bug;
      };
      const last = await send('GET', '/v1/whoami');
      assert.equal(last.status, 500);
    } finally {
      server.ledger.as = as;
    }
    const [search] = await me.audit({ operation: 'search', limit: 1 });
    assert.deepEqual([search?.surface, search?.outcome, search?.failureClass], ['http', 'error', 'internal']);
    const [escaped] = await me.audit({ operation: 'http.request', limit: 1 });
    assert.deepEqual([escaped?.tool, escaped?.failureClass], ['GET /v1/whoami', 'internal']);
    // Control: with the ledger whole again, the same request works.
    assert.equal((await send('POST', '/v1/search', JSON.stringify({ query: 'otters' }))).status, 200);
  });

  test('I11 malformed JSON-RPC inside an /mcp session gets the spec error with its id and an audit record', async () => {
    const before = await snapshot();
    const headers = { accept: 'application/json, text/event-stream' };
    const init = await send(
      'POST',
      '/mcp',
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
      }),
      headers,
    );
    assert.equal(init.status, 200);
    const session = { ...headers, 'mcp-session-id': init.headers.get('mcp-session-id')! };
    const refused = (await me.audit({ operation: 'mcp.request', limit: 1_000 })).length;
    const call = (id: number, params: unknown, method = 'tools/call') =>
      send('POST', '/mcp', JSON.stringify({ jsonrpc: '2.0', id, method, params }), session);
    const cases: [number, unknown, string, number][] = [
      [2, 'a string', 'tools/call', -32600],
      [3, ['an', 'array'], 'tools/call', -32602],
      [4, null, 'tools/call', -32600],
      [5, { name: 'search_memory', arguments: { query: 'otters' }, _meta: 'a string' }, 'tools/call', -32602],
      [6, ['x'], 'ping', -32602],
      [7, { name: 'search_memory', arguments: 'not an object' }, 'tools/call', -32602],
      [
        8,
        { name: 'search_memory', arguments: { query: 'otters', value: nested(3_000) } },
        'tools/call',
        -32600,
      ],
    ];
    for (const [id, params, method, code] of cases) {
      const res = await call(id, params, method);
      assert.equal(res.status, 400, `${method} ${JSON.stringify(params).slice(0, 60)}`);
      const reply = (await res.json()) as { id: unknown; error: { code: number } };
      assert.deepEqual([reply.id, reply.error.code], [id, code]);
    }
    const unknown = (await (await call(9, {}, 'memories/approve')).json()) as { error: { code: number } };
    assert.equal(unknown.error.code, -32601);
    const records = await me.audit({ operation: 'mcp.request', limit: 1_000 });
    assert.equal(records.length - refused, cases.length + 1, 'each refusal is audited');
    assert.ok(records.slice(0, cases.length + 1).every((r) => r.failureClass === 'invalid_input'));
    // Control: the session still answers a well-formed call.
    const ok = await call(10, { name: 'search_memory', arguments: { query: 'otters' } });
    assert.equal(ok.status, 200);
    const result = (await ok.json()) as { id: number; result: { content: { text: string }[] } };
    assert.equal(result.id, 10);
    assert.match(result.result.content[0]!.text, /otters/i);
    assert.deepEqual(await snapshot(), before);
  });
});
