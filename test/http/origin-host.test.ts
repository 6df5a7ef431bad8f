/**
 * Origin and Host validation (Streamable HTTP's security warning, DNS rebinding) on a real server: a foreign
 * Origin and a rebound Host get 403 and an audit record, on /mcp, /v1 and the console alike; loopback names,
 * same-origin requests and allow-listed origins and hosts pass; `serve` takes the allow-list from its options
 * and environment, and warns when it listens beyond loopback.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import type { LedgerSession } from '../../src/index.ts';
import { originCheck, parseAllowList } from '../../src/surfaces/http/origin-check.ts';
import { type RunningServer, startServer } from '../../src/surfaces/http/server.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';
import { startServe } from '../mcp/serve-process.ts';

const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'o', version: '1' } },
});

/** A request with exactly these headers (fetch would not let a test choose Host). */
function send(
  url: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string }> {
  const to = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: to.hostname, port: to.port, path, method: body === undefined ? 'GET' : 'POST', headers },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => {
          text += c.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('Origin and Host validation', () => {
  let home: ReturnType<typeof tempHome>;
  let server: RunningServer;
  let me: LedgerSession;
  let secret: string;
  let port: string;
  const mcpHeaders = (extra: Record<string, string>) => ({
    authorization: `Bearer ${secret}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    ...extra,
  });

  before(async () => {
    home = tempHome('origin');
    secret = (await makeTokens(home.home, { a: { name: 'origin-bot', kind: 'agent' } })).a!.secret;
    server = await startServer({
      home: home.home,
      port: 0,
      allow: { origins: ['https://ops.example.com'], hosts: ['mem.internal'] },
    });
    port = new URL(server.url).port;
    me = server.ledger.as(server.ledger.operator(), { surface: 'library' });
  });
  after(async () => {
    await server.close();
    home.cleanup();
  });

  test('a foreign Origin on /mcp gets 403 and an audit record; a loopback Origin is served (control)', async () => {
    const foreign = await send(server.url, '/mcp', mcpHeaders({ origin: 'https://evil.example.com' }), INIT);
    assert.equal(foreign.status, 403);
    assert.equal((JSON.parse(foreign.text) as { error: { code: number } }).error.code, -32000);
    const [record] = await me.audit({ operation: 'mcp.request', limit: 1 });
    assert.equal(record?.outcome, 'error');
    assert.equal(record?.failureClass, 'permission');
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`, 'http://[::1]:5173']) {
      const ok = await send(server.url, '/mcp', mcpHeaders({ origin }), INIT);
      assert.equal(ok.status, 200, origin);
    }
    const none = await send(server.url, '/mcp', mcpHeaders({}), INIT);
    assert.equal(none.status, 200, 'no Origin: not a browser, judged by Host alone');
  });

  test('a Host that is not allowed (DNS rebinding) gets 403 on /mcp, /v1 and the console; loopback Hosts pass', async () => {
    for (const host of [
      'evil.example.com',
      `evil.example.com:${port}`,
      `localhost.evil.example.com:${port}`,
    ]) {
      const r = await send(server.url, '/mcp', mcpHeaders({ host, origin: `http://${host}` }), INIT);
      assert.equal(r.status, 403, host);
      const api = await send(server.url, '/v1/search', mcpHeaders({ host }), '{"query":"x"}');
      assert.equal(api.status, 403, `/v1 ${host}`);
      assert.equal((JSON.parse(api.text) as { error: { class: string } }).error.class, 'permission');
      assert.equal((await send(server.url, '/', { host })).status, 403, `console ${host}`);
    }
    const [record] = await me.audit({ tool: 'GET (host refused)', limit: 1 });
    assert.equal(record?.failureClass, 'permission', 'the console refusal is audited');
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, 'localhost', `[::1]:${port}`]) {
      const r = await send(server.url, '/mcp', mcpHeaders({ host }), INIT);
      assert.equal(r.status, 200, host);
    }
    assert.equal((await send(server.url, '/healthz', { host: `127.0.0.1:${port}` })).status, 200);
  });

  test('allow-listed origins and hosts pass; a same-origin request to an allowed host passes; others still 403', async () => {
    const listed = await send(server.url, '/mcp', mcpHeaders({ origin: 'https://ops.example.com' }), INIT);
    assert.equal(listed.status, 200);
    const sibling = await send(
      server.url,
      '/mcp',
      mcpHeaders({ origin: 'https://ops.example.com.evil.io' }),
      INIT,
    );
    assert.equal(sibling.status, 403);
    const nullOrigin = await send(server.url, '/mcp', mcpHeaders({ origin: 'null' }), INIT);
    assert.equal(nullOrigin.status, 403);
    const host = `mem.internal:${port}`;
    const same = await send(server.url, '/mcp', mcpHeaders({ host, origin: `http://${host}` }), INIT);
    assert.equal(same.status, 200, 'the console served from an allowed host posts with its own origin');
    const cross = await send(server.url, '/mcp', mcpHeaders({ host, origin: 'http://other.internal' }), INIT);
    assert.equal(cross.status, 403);
  });

  test('the check itself: ports on host entries, IPv6 loopback, wildcard listening, bad allow-list entries', () => {
    const check = originCheck({ listenHost: '127.0.0.1', allow: { hosts: ['a.test:8080'] } });
    const h = (host: string, origin?: string) =>
      check(new Headers(origin === undefined ? { host } : { host, origin }), `http://${host}/mcp`);
    assert.equal(h('a.test:8080'), null);
    assert.equal(h('a.test:9090'), 'host', 'a host entry with a port allows that port only');
    assert.equal(h('[::1]:1'), null);
    assert.equal(h('user@localhost'), 'host');
    assert.equal(h('localhost', 'file://x'), 'origin');
    const onLan = originCheck({ listenHost: '192.0.2.10' });
    assert.equal(onLan(new Headers({ host: '192.0.2.10:8787' }), 'http://192.0.2.10:8787/'), null);
    assert.equal(onLan(new Headers({ host: '198.51.100.1:8787' }), 'http://198.51.100.1:8787/'), 'host');
    assert.deepEqual(
      parseAllowList({ hosts: ['x.test'] }, { MEMLEDGER_ALLOWED_ORIGINS: 'https://a.test, https://b.test' }),
      {
        origins: ['https://a.test', 'https://b.test'],
        hosts: ['x.test'],
      },
    );
    assert.throws(() => parseAllowList({ origins: ['not a url'] }, {}), /invalid_input|allowed origin/);
    assert.throws(() => parseAllowList({ hosts: ['bad/host'] }, {}), /allowed host/);
  });
});

describe('serve: the allow-list options and the network warning', () => {
  let home: ReturnType<typeof tempHome>;
  let secret: string;
  before(async () => {
    home = tempHome('origin-serve');
    secret = (await makeTokens(home.home, { a: { name: 'serve-bot', kind: 'agent' } })).a!.secret;
  });
  after(() => home.cleanup());

  test('--allow-origin and MEMLEDGER_ALLOWED_HOSTS reach the check; loopback serve prints no warning', async () => {
    const p = await startServe(home.home, {
      args: ['--allow-origin', 'https://ops.example.com'],
      env: { MEMLEDGER_ALLOWED_HOSTS: 'mem.internal' },
    });
    try {
      const headers = (extra: Record<string, string>) => ({
        authorization: `Bearer ${secret}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...extra,
      });
      assert.equal(
        (await send(p.url, '/mcp', headers({ origin: 'https://ops.example.com' }), INIT)).status,
        200,
      );
      assert.equal(
        (await send(p.url, '/mcp', headers({ origin: 'https://evil.example.com' }), INIT)).status,
        403,
      );
      assert.equal((await send(p.url, '/mcp', headers({ host: 'mem.internal' }), INIT)).status, 200);
      assert.equal((await send(p.url, '/mcp', headers({ host: 'evil.internal' }), INIT)).status, 403);
    } finally {
      await p.kill();
    }
    assert.doesNotMatch(p.output(), /reachable from the network/);
  });

  test('serve --host 0.0.0.0 warns on stderr that it is reachable from the network and every request needs a token', async () => {
    const p = await startServe(home.home, { args: ['--host', '0.0.0.0'] });
    try {
      // Loopback still answers on a wildcard listener, and its Host is allowed.
      const r = await send(`http://127.0.0.1:${p.port}`, '/healthz', {});
      assert.equal(r.status, 200);
    } finally {
      await p.kill();
    }
    assert.match(
      p.output(),
      /warning: listening on 0\.0\.0\.0, so this server is reachable from the network; every request needs a token/,
    );
  });
});
