/**
 * MCP over Streamable HTTP (`/mcp` of `memledger serve`) with real SDK clients and bearer tokens: isolation
 * between two tokens both ways, sessions bound to their token, revocation, and no verdicts for an agent token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { LedgerSession } from '../../src/index.ts';
import { type RunningServer, startServer } from '../../src/surfaces/http/server.ts';
import { callTool, type Connected, dataOf, httpClient, makeTokens, tempHome, textOf } from './helpers.ts';

describe('MCP over Streamable HTTP', () => {
  let home: ReturnType<typeof tempHome>;
  let server: RunningServer;
  let me: LedgerSession;
  let secrets: Awaited<ReturnType<typeof makeTokens>>;
  let ann: Connected & { transport: { sessionId?: string } };
  let ben: Connected & { transport: { sessionId?: string } };

  before(async () => {
    home = tempHome('http-mcp');
    secrets = await makeTokens(home.home, {
      ann: { name: 'ann-bot', kind: 'agent', grants: ['agent:{self}:rw', 'shared:rw'] },
      ben: { name: 'ben-bot', kind: 'agent', grants: ['agent:{self}:rw', 'shared:rw'] },
      reviewer: { name: 'rita', kind: 'human', roles: ['reader', 'writer', 'reviewer'], grants: ['*:rw'] },
    });
    server = await startServer({ home: home.home, port: 0 });
    me = server.ledger.as(server.ledger.operator(), { surface: 'library' });
    ann = await httpClient(server.url, secrets.ann!.secret, { name: 'ann-client', version: '2.0.0' });
    ben = await httpClient(server.url, secrets.ben!.secret, { name: 'ben-client', version: '3.0.0' });
  });
  after(async () => {
    await ann.close();
    await ben.close();
    await server.close();
    home.cleanup();
  });

  const saveAs = async (who: Connected, args: Record<string, unknown>) => {
    const r = await callTool(who.client, 'save_memory', args);
    assert.notEqual(r.isError, true, textOf(r));
    return dataOf<{ id: string; state: string }>(r);
  };
  const searchIds = async (who: Connected, query: string) =>
    dataOf<{ results: { id: string }[] }>(await callTool(who.client, 'search_memory', { query })).results.map(
      (r) => r.id,
    );

  test('I4 scope: two tokens cannot see each other through search, get, context or forget, both ways', async () => {
    const a = await saveAs(ann, { body: 'Alpha secret sauce is paprika' });
    const b = await saveAs(ben, { body: 'Beta secret sauce is saffron' });
    assert.equal(a.state, 'active');
    assert.equal(b.state, 'active');
    for (const [self, mine, theirs, word] of [
      [ann, a.id, b.id, 'saffron'],
      [ben, b.id, a.id, 'paprika'],
    ] as const) {
      // control: each finds its own memory
      assert.deepEqual(await searchIds(self, 'sauce'), [mine]);
      assert.deepEqual(await searchIds(self, word), []);
      const got = await callTool(self.client, 'get_memory', { id: theirs });
      assert.equal(got.isError, true);
      assert.match(textOf(got), new RegExp(`^not_found: no memory ${theirs}`));
      const ownGet = await callTool(self.client, 'get_memory', { id: mine, history: true });
      assert.notEqual(ownGet.isError, true);
      const context = textOf(await callTool(self.client, 'get_context', { task: 'which secret sauce' }));
      assert.ok(context.includes(mine) && !context.includes(theirs), context);
      const forget = await callTool(self.client, 'forget_memory', { id: theirs, reason: 'try' });
      assert.match(textOf(forget), /^not_found: /);
    }
    assert.equal((await me.get(a.id)).state, 'active');
    assert.equal((await me.get(b.id)).state, 'active');
  });

  test('I4 I14 the principal comes from the token: arguments cannot write into the other token scopes', async () => {
    const r = await callTool(ann.client, 'save_memory', { body: 'sneaky', scope: 'agent:ben-bot' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^permission: agent:ann-bot may not write scope agent:ben-bot/);
    const own = await saveAs(ann, { body: 'Ann keeps her own notes' });
    const m = await me.get(own.id);
    assert.equal(m.scope, 'agent:ann-bot');
    assert.equal(m.provenance.principal, 'agent:ann-bot');
    assert.equal(m.provenance.tokenId, secrets.ann!.id);
    assert.equal(m.provenance.client, 'ann-client/2.0.0');
    assert.equal(m.provenance.sessionId, ann.transport.sessionId, 'the MCP session id is stamped');
  });

  test('I8 audit: every tool call carries the token, the MCP session and the client', async () => {
    await callTool(ben.client, 'search_memory', { query: 'anything at all' });
    const [record] = await me.audit({ principal: 'agent:ben-bot', tool: 'search_memory', limit: 1 });
    assert.ok(record);
    assert.equal(record.surface, 'mcp');
    assert.equal(record.tokenId, secrets.ben!.id);
    assert.equal(record.sessionId, ben.transport.sessionId);
    assert.equal(record.client, 'ben-client/3.0.0');
  });

  test('I4 sessions are bound to their token: another token presenting the session id is told it does not exist', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/list' });
    const headers = (secret: string) => ({
      authorization: `Bearer ${secret}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': ann.transport.sessionId!,
      'mcp-protocol-version': '2025-06-18',
    });
    const stolen = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: headers(secrets.ben!.secret),
      body,
    });
    assert.equal(stolen.status, 404);
    // control: the owner's token with the same session id works
    const owner = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: headers(secrets.ann!.secret),
      body,
    });
    assert.equal(owner.status, 200);
    assert.ok(((await owner.json()) as { result: { tools: unknown[] } }).result.tools.length === 15);
  });

  test('I7 an agent token is refused a verdict over HTTP with 403; a reviewer token is not', async () => {
    const held = await saveAs(ann, { body: 'Shared: the office closes at six', scope: 'shared' });
    assert.equal(held.state, 'held');
    const approve = (secret: string) =>
      fetch(`${server.url}/v1/review/${held.id}/approve`, {
        method: 'POST',
        headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
        body: '{}',
      });
    const refused = await approve(secrets.ann!.secret);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { error: { class: string } }).error.class, 'permission');
    assert.equal((await me.get(held.id)).state, 'held');
    const allowed = await approve(secrets.reviewer!.secret);
    assert.equal(allowed.status, 200);
    assert.equal((await me.get(held.id)).state, 'active');
  });

  test('revoking a token stops its MCP session at the next request', async () => {
    const [carl] = Object.values(await makeTokens(home.home, { carl: { name: 'carl-bot', kind: 'agent' } }));
    const client = await httpClient(server.url, carl!.secret);
    try {
      assert.notEqual((await callTool(client.client, 'search_memory', { query: 'office' })).isError, true);
      const tokens = openTokenStore(home.home);
      tokens.revoke(carl!.id);
      tokens.close();
      await assert.rejects(
        callTool(client.client, 'search_memory', { query: 'office' }),
        /401|revoked|Unauthorized/i,
      );
    } finally {
      await client.close().catch(() => {});
    }
  });
});
