/**
 * Behaviors over HTTP, the app in-process with real bearer tokens: only a human admin defines one (I7, beside
 * the admin control), an agent claims its window and completes the run, and the runs route shows what it
 * consumed and wrote.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, type LedgerSession, openLedger } from '../../src/index.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

const DEFINITION = {
  name: 'digest',
  prompt: 'Summarise the new decisions.',
  triggers: [{ type: 'event', kinds: ['decision'] }],
  reads: { scopes: ['shared'] },
  writes: { kinds: ['note'], scopes: ['agent:bot'] },
  settleSeconds: 0,
};

describe('behaviors over HTTP', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let me: LedgerSession;
  let secrets: Awaited<ReturnType<typeof makeTokens>>;

  before(async () => {
    home = tempHome('behaviors-http');
    secrets = await makeTokens(home.home, {
      boss: { name: 'boss', kind: 'human', roles: ['admin'], grants: ['*:rw'] },
      rev: { name: 'rev', kind: 'human', roles: ['reader', 'reviewer'], grants: ['*:r'] },
      bot: { name: 'bot', kind: 'agent', roles: ['reader', 'writer'], grants: ['shared:r', 'agent:bot:rw'] },
    });
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
    me = ledger.as(ledger.operator(), { surface: 'library' });
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
    // biome-ignore lint/suspicious/noExplicitAny: tests read the JSON structurally
    return { status: res.status, json: (await res.json()) as any };
  };

  test('I7 only a human admin defines a behavior over HTTP; an agent or a reviewer gets 403', async () => {
    assert.equal((await call('bot', 'POST', '/v1/behaviors', DEFINITION)).status, 403);
    assert.equal((await call('rev', 'POST', '/v1/behaviors', DEFINITION)).status, 403);
    assert.equal((await call('rev', 'GET', '/v1/behaviors')).json.behaviors.length, 0);
    const added = await call('boss', 'POST', '/v1/behaviors', DEFINITION);
    assert.equal(added.status, 201);
    assert.equal(added.json.version, 1);
    assert.equal(
      (await call('rev', 'GET', '/v1/behaviors/digest')).json.definition.prompt,
      DEFINITION.prompt,
    );
  });

  test('an agent claims the window and completes the run over HTTP; runs shows what it consumed and wrote', async () => {
    const d = await me.remember({ scope: 'shared', kind: 'decision', body: 'We pair on Mondays.' });
    const next = await call('bot', 'POST', '/v1/behaviors/digest/next');
    assert.equal(next.status, 200);
    const w = next.json.window;
    assert.deepEqual(
      w.events.map((e: { memory: { id: string } }) => e.memory.id),
      [d.id],
    );
    const wrong = await call('bot', 'POST', `/v1/runs/${w.run}/complete`, {
      token: `${w.token}x`,
      outputs: [],
    });
    assert.equal(wrong.status, 403);
    const done = await call('bot', 'POST', `/v1/runs/${w.run}/complete`, {
      token: w.token,
      outputs: [{ scope: 'agent:bot', kind: 'note', body: 'Pairing: Mondays.' }],
    });
    assert.equal(done.status, 200);
    assert.equal(done.json.consumed, 1);
    assert.equal((await call('bot', 'POST', '/v1/behaviors/digest/next')).json.window, null);
    const runs = await call('rev', 'GET', '/v1/behaviors/digest/runs');
    assert.equal(runs.json.runs[0].state, 'finished');
    assert.deepEqual(runs.json.runs[0].consumed, [w.events[0].id]);
    assert.equal(runs.json.runs[0].outputs[0].id, done.json.outputs[0].id);
  });
});
