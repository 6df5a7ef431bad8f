/** Commitments and summary chains over the HTTP app: bearer tokens, the routes in the OpenAPI document, errors by class. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

// biome-ignore lint/suspicious/noExplicitAny: the test reads untyped JSON responses
type Json = Record<string, any>;

describe('HTTP commitments and summaries', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let secrets: Record<string, { secret: string }>;

  before(async () => {
    home = tempHome('http-plans');
    secrets = await makeTokens(home.home, {
      ann: { name: 'ann', kind: 'human', roles: ['reader', 'writer', 'reviewer'], grants: ['shared:rw'] },
      bot: { name: 'bot', kind: 'agent', roles: ['reader', 'writer'], grants: ['shared:rw', 'agent:bot:rw'] },
    });
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });

  const call = async (who: string, method: string, path: string, body?: unknown) => {
    const res = await http.app.request(path, {
      method,
      headers: { authorization: `Bearer ${secrets[who]!.secret}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: (await res.json()) as Json };
  };

  test('add, list, move and show a commitment; an agent cannot cancel a person’s (403), which stays open', async () => {
    const added = await call('ann', 'POST', '/v1/commitments', {
      body: 'Renew the domain name',
      scope: 'shared',
      due: '2031-02-01',
    });
    assert.equal(added.status, 201);
    assert.equal(added.json.state, 'active');
    const id = added.json.id as string;
    const held = await call('bot', 'POST', '/v1/commitments', {
      body: 'Post the release notes',
      scope: 'shared',
    });
    assert.equal(held.json.state, 'held');
    const listed = await call('ann', 'GET', '/v1/commitments?statuses=open&limit=10');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.json.commitments.map((c: Json) => c.id),
      [id],
    );
    const refused = await call('bot', 'POST', `/v1/commitments/${id}/status`, { status: 'cancelled' });
    assert.equal(refused.status, 403);
    const moved = await call('ann', 'POST', `/v1/commitments/${id}/status`, { status: 'done' });
    assert.equal(moved.status, 200);
    assert.equal(moved.json.commitment.status, 'done');
    const shown = await call('ann', 'GET', `/v1/commitments/${id}`);
    assert.deepEqual(
      shown.json.changes.map((c: Json) => [c.from, c.to, c.by]),
      [['open', 'done', 'human:ann']],
    );
    const bad = await call('ann', 'POST', `/v1/commitments/${id}/status`, { status: 'finished' });
    assert.equal(bad.status, 400);
  });

  test('create a chain, read its next window, add a summary; the same cutoff again is 409', async () => {
    assert.equal(
      (await call('ann', 'POST', '/v1/summaries', { name: 'http-chain', scope: 'shared' })).status,
      201,
    );
    await call('ann', 'POST', '/v1/memories', { body: 'The VPN moved to WireGuard', scope: 'shared' });
    const w = await call('ann', 'GET', '/v1/summaries/http-chain/next?limit=50');
    assert.equal(w.status, 200);
    assert.ok(w.json.memories.some((m: Json) => m.body === 'The VPN moved to WireGuard'));
    const added = await call('ann', 'POST', '/v1/summaries/http-chain', {
      until: w.json.until,
      body: 'Infra: VPN is WireGuard now',
      token: w.json.token,
    });
    assert.equal(added.status, 201);
    assert.equal(added.json.state, 'active');
    const again = await call('ann', 'POST', '/v1/summaries/http-chain', {
      until: w.json.until,
      body: 'Infra again',
    });
    assert.equal(again.status, 409);
    const shown = await call('ann', 'GET', '/v1/summaries/http-chain');
    assert.equal(shown.json.latest.id, added.json.id);
    assert.equal((await call('bot', 'GET', '/v1/summaries/no-such-chain')).status, 404);
  });

  test('the OpenAPI document lists the commitment and summary routes', async () => {
    const doc = (await (await http.app.request('/openapi.json')).json()) as Json;
    for (const path of ['/v1/commitments', '/v1/commitments/{id}/status', '/v1/summaries/{id}/next']) {
      assert.ok(doc.paths[path] !== undefined, path);
    }
  });
});
