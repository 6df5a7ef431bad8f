/**
 * I13: several clients writing one data directory at once, through two stdio MCP servers (separate processes),
 * MCP over HTTP and the JSON API: every acknowledged write is there afterwards, even from a process killed
 * right after its last acknowledgement.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openLedger, STATES } from '../../src/index.ts';
import { startServer } from '../../src/surfaces/http/server.ts';
import {
  callTool,
  type Connected,
  dataOf,
  httpClient,
  makeTokens,
  stdioClient,
  tempHome,
  textOf,
} from '../mcp/helpers.ts';

const PER_WRITER = 25;

test('I13 durable when acknowledged: two stdio servers, MCP over HTTP and the JSON API write one home; nothing is lost', async () => {
  const home = tempHome('concurrency');
  const secrets = await makeTokens(home.home, {
    carol: { name: 'carol-bot', kind: 'agent' },
    dan: { name: 'dan', kind: 'human', roles: ['reader', 'writer'], grants: ['user:dan:rw'] },
  });
  const server = await startServer({ home: home.home, port: 0 });
  const clients: Connected[] = [];
  try {
    const a = await stdioClient(home.home, { as: 'agent:alpha' });
    const b = await stdioClient(home.home, { as: 'agent:beta' });
    const c = await httpClient(server.url, secrets.carol!.secret);
    clients.push(a, b, c);

    const viaMcp = (who: Connected, label: string) =>
      Promise.all(
        Array.from({ length: PER_WRITER }, async (_, i) => {
          const r = await callTool(who.client, 'save_memory', { body: `${label} note number ${i}` });
          assert.notEqual(r.isError, true, textOf(r));
          return { id: dataOf<{ id: string }>(r).id, body: `${label} note number ${i}` };
        }),
      );
    const viaHttp = () =>
      Promise.all(
        Array.from({ length: PER_WRITER }, async (_, i) => {
          const body = `dan note number ${i}`;
          const res = await fetch(`${server.url}/v1/memories`, {
            method: 'POST',
            headers: { authorization: `Bearer ${secrets.dan!.secret}`, 'content-type': 'application/json' },
            body: JSON.stringify({ body, scope: 'user:dan' }),
          });
          assert.equal(res.status, 201, await res.clone().text());
          return { id: ((await res.json()) as { id: string }).id, body };
        }),
      );

    const written = (
      await Promise.all([viaMcp(a, 'alpha'), viaMcp(b, 'beta'), viaMcp(c, 'carol'), viaHttp()])
    ).flat();
    assert.equal(written.length, 4 * PER_WRITER);
    assert.equal(new Set(written.map((w) => w.id)).size, written.length, 'ids are unique');

    // A process killed right after its acknowledgements loses none of them.
    const pid = (a.client.transport as StdioClientTransport | undefined)?.pid;
    assert.ok(typeof pid === 'number');
    process.kill(pid, 'SIGKILL');
  } finally {
    for (const client of clients) await client.close().catch(() => {});
    await server.close();
  }

  const ledger = openLedger({ home: home.home });
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    const all = await me.list({ states: [...STATES], limit: 200 });
    assert.equal(all.length, 4 * PER_WRITER);
    const bodies = new Set(all.map((m) => m.body));
    for (const label of ['alpha', 'beta', 'carol', 'dan']) {
      for (let i = 0; i < PER_WRITER; i++)
        assert.ok(bodies.has(`${label} note number ${i}`), `${label} ${i} lost`);
    }
    assert.ok(all.every((m) => m.state === 'active'));
  } finally {
    ledger.close();
    home.cleanup();
  }
});
