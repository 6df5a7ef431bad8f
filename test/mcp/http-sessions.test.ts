/**
 * MCP sessions over Streamable HTTP that outlive the process: real `memledger serve` processes, a real SDK
 * client, no reconnect code. A session survives a SIGKILL and restart, is answered by either of two replicas
 * on one home (get_context's "already shown" included), stays bound to its token everywhere, and is capped per
 * token, never globally.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { openLedger } from '../../src/index.ts';
import { type RunningServer, startServer } from '../../src/surfaces/http/server.ts';
import {
  auditedSoon,
  callTool,
  type Connected,
  httpClient,
  makeTokens,
  tempHome,
  textOf,
} from './helpers.ts';
import { type ServeProcess, startServe } from './serve-process.ts';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
const LIST = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

/** One raw `/mcp` request: the tests that need status codes and headers the SDK client hides. */
function mcp(
  url: string,
  secret: string,
  body: string | null,
  extra: Record<string, string> = {},
  method = 'POST',
) {
  return fetch(`${url}/mcp`, {
    method,
    headers: {
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...extra,
    },
    body,
  });
}

const saved = (r: CallToolResult) => {
  assert.notEqual(r.isError, true, textOf(r));
  return (r.structuredContent as { id: string }).id;
};

describe('MCP sessions across processes', () => {
  let home: ReturnType<typeof tempHome>;
  let secrets: Awaited<ReturnType<typeof makeTokens>>;
  const running: ServeProcess[] = [];
  const clients: Connected[] = [];

  before(async () => {
    home = tempHome('mcp-sessions');
    secrets = await makeTokens(home.home, {
      ann: { name: 'ann-bot', kind: 'agent' },
      ben: { name: 'ben-bot', kind: 'agent' },
    });
  });
  after(async () => {
    for (const c of clients) await c.close().catch(() => {});
    for (const p of running) await p.kill('SIGKILL');
    home.cleanup();
  });
  const serve = async (port?: number) => {
    const p = await startServe(home.home, { port });
    running.push(p);
    return p;
  };

  test('a client mid-conversation survives serve being killed (SIGKILL) and restarted, with no reconnect code', async () => {
    const first = await serve();
    const ann = await httpClient(first.url, secrets.ann!.secret, { name: 'ann-client', version: '1.0.0' });
    clients.push(ann);
    const before = ann.transport.sessionId;
    assert.ok(before);
    const id = saved(
      await callTool(ann.client, 'save_memory', { body: 'The staging database is called heron' }),
    );
    const shown = await callTool(ann.client, 'get_context', { task: 'which staging database' });
    assert.ok(JSON.stringify(shown).includes(id), 'the first context shows the memory');

    await first.kill('SIGKILL');
    const second = await serve(first.port);
    assert.equal(second.url, first.url);

    // The same client object, the same session id, straight on with its next calls.
    const found = await callTool(ann.client, 'search_memory', { query: 'staging database' });
    assert.notEqual(found.isError, true, textOf(found));
    assert.ok(JSON.stringify(found).includes(id), 'the restarted server answers the search');
    assert.equal(ann.transport.sessionId, before, 'no new session was opened');
    // The session is the same session to the store: what it was shown before the kill stays suppressed.
    const again = await callTool(ann.client, 'get_context', { task: 'which staging database' });
    assert.notEqual(again.isError, true, textOf(again));
    assert.ok(!JSON.stringify(again).includes(id), 'already shown to this session before the restart');
    // Provenance and audit still name the session and the client from its initialize, which this process never saw.
    const later = saved(
      await callTool(ann.client, 'save_memory', { body: 'The staging cache is called egret' }),
    );
    const ledger = openLedger({ home: home.home });
    try {
      const me = ledger.as(ledger.operator());
      const m = await me.get(later);
      assert.equal(m.provenance.sessionId, before);
      assert.equal(m.provenance.client, 'ann-client/1.0.0');
      const [record] = (
        await auditedSoon(me, { principal: 'agent:ann-bot', tool: 'save_memory', limit: 10 }, (rs) =>
          rs.some((r) => r.targets.includes(later)),
        )
      ).filter((r) => r.targets.includes(later));
      assert.equal(record?.sessionId, before);
      assert.equal(record?.client, 'ann-client/1.0.0');
    } finally {
      ledger.close();
    }
    // control: a new session of the same token is shown it
    const fresh = await httpClient(second.url, secrets.ann!.secret);
    clients.push(fresh);
    assert.ok(
      JSON.stringify(
        await callTool(fresh.client, 'get_context', { task: 'which staging database' }),
      ).includes(id),
    );
    await second.kill('SIGKILL');
  });

  test('two serve processes on one home answer one client alternately, get_context suppression included', async () => {
    const [a, b] = [await serve(), await serve()];
    const answered = new Map<string, number>();
    let turn = 0;
    // The client has one URL; each request goes to the next replica in turn, as behind a round-robin balancer.
    const alternate: typeof fetch = (input, init) => {
      const target = [a, b][turn++ % 2]!;
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = String(target.port);
      answered.set(target.url, (answered.get(target.url) ?? 0) + 1);
      return fetch(url, init);
    };
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', a.url), {
      requestInit: { headers: { authorization: `Bearer ${secrets.ben!.secret}` } },
      fetch: alternate,
    });
    const client = new Client({ name: 'ben-client', version: '2.0.0' });
    await client.connect(transport);
    clients.push({ client, close: () => client.close(), stderr: () => '' });

    const ids: string[] = [];
    for (const body of ['Ben deploys on Tuesdays', 'Ben reviews on Thursdays', 'Ben rests on Sundays']) {
      ids.push(saved(await callTool(client, 'save_memory', { body })));
    }
    const first = JSON.stringify(await callTool(client, 'get_context', { task: 'when does Ben work' }));
    for (const id of ids) assert.ok(first.includes(id), `the first context shows ${id}`);
    const second = JSON.stringify(await callTool(client, 'get_context', { task: 'when does Ben work' }));
    for (const id of ids) assert.ok(!second.includes(id), `the other replica knows ${id} was shown`);
    const third = await callTool(client, 'search_memory', { query: 'Ben' });
    for (const id of ids) assert.ok(JSON.stringify(third).includes(id), 'control: search still finds it');
    assert.ok(
      (answered.get(a.url) ?? 0) >= 3 && (answered.get(b.url) ?? 0) >= 3,
      JSON.stringify([...answered]),
    );
    await Promise.all([a.kill(), b.kill()]);
  });

  test('I4 a session issued by one replica is unknown to another token on the other replica; its owner is served', async () => {
    const [a, b] = [await serve(), await serve()];
    const init = await mcp(a.url, secrets.ann!.secret, INIT);
    assert.equal(init.status, 200);
    const session = init.headers.get('mcp-session-id')!;
    assert.ok(session);
    const stolen = await mcp(b.url, secrets.ben!.secret, LIST, { 'mcp-session-id': session });
    assert.equal(stolen.status, 404);
    const stolenDelete = await mcp(b.url, secrets.ben!.secret, null, { 'mcp-session-id': session }, 'DELETE');
    assert.equal(stolenDelete.status, 404);
    const owner = await mcp(b.url, secrets.ann!.secret, LIST, { 'mcp-session-id': session });
    assert.equal(owner.status, 200, 'control: the owner on the other replica');
    assert.ok(((await owner.json()) as { result: { tools: unknown[] } }).result.tools.length > 0);
    // DELETE on one replica ends the session on both.
    const ended = await mcp(a.url, secrets.ann!.secret, null, { 'mcp-session-id': session }, 'DELETE');
    assert.equal(ended.status, 200);
    assert.equal((await mcp(b.url, secrets.ann!.secret, LIST, { 'mcp-session-id': session })).status, 404);
    await Promise.all([a.kill(), b.kill()]);
  });
});

describe('MCP sessions in one server', () => {
  let home: ReturnType<typeof tempHome>;
  let server: RunningServer;
  let secrets: Awaited<ReturnType<typeof makeTokens>>;

  before(async () => {
    home = tempHome('mcp-cap');
    secrets = await makeTokens(home.home, {
      ann: { name: 'ann-bot', kind: 'agent' },
      ben: { name: 'ben-bot', kind: 'agent' },
    });
    server = await startServer({ home: home.home, port: 0, mcp: { maxSessionsPerToken: 3 } });
  });
  after(async () => {
    await server.close();
    home.cleanup();
  });
  const open = async (secret: string) => {
    const res = await mcp(server.url, secret, INIT);
    assert.equal(res.status, 200);
    return res.headers.get('mcp-session-id')!;
  };
  const status = async (secret: string, session: string) =>
    (await mcp(server.url, secret, LIST, { 'mcp-session-id': session })).status;

  test('per-token cap: token A opening many sessions ends only its own oldest, never token B session', async () => {
    const ben = await open(secrets.ben!.secret);
    const anns: string[] = [];
    for (let i = 0; i < 8; i++) anns.push(await open(secrets.ann!.secret));
    assert.equal(await status(secrets.ben!.secret, ben), 200, 'B keeps its session');
    for (const s of anns.slice(0, 5))
      assert.equal(await status(secrets.ann!.secret, s), 404, 'A oldest ended');
    for (const s of anns.slice(5))
      assert.equal(await status(secrets.ann!.secret, s), 200, 'A newest three live');
  });

  test('an initialize carrying a stale or unknown session id starts a fresh session instead of 404', async () => {
    for (const stale of ['00000000-0000-0000-0000-000000000000', 'gone-session']) {
      const res = await mcp(server.url, secrets.ann!.secret, INIT, { 'mcp-session-id': stale });
      assert.equal(res.status, 200);
      const fresh = res.headers.get('mcp-session-id');
      assert.ok(fresh !== null && fresh !== stale);
      assert.equal(await status(secrets.ann!.secret, fresh), 200);
      // control: the stale id itself is still unknown for a non-initialize request
      assert.equal(await status(secrets.ann!.secret, stale), 404);
    }
  });

  test('DELETE ends a session (404 after), GET is 405 with Allow, and a request without a session is 400', async () => {
    const session = await open(secrets.ann!.secret);
    const get = await mcp(
      server.url,
      secrets.ann!.secret,
      null,
      { 'mcp-session-id': session, accept: 'text/event-stream' },
      'GET',
    );
    assert.equal(get.status, 405);
    assert.match(get.headers.get('allow') ?? '', /POST/);
    assert.equal(await status(secrets.ann!.secret, session), 200, 'control: live before DELETE');
    const del = await mcp(server.url, secrets.ann!.secret, null, { 'mcp-session-id': session }, 'DELETE');
    assert.equal(del.status, 200);
    assert.equal(await status(secrets.ann!.secret, session), 404);
    assert.equal((await mcp(server.url, secrets.ann!.secret, LIST)).status, 400);
  });
});
