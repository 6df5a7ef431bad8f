/** GET /v1/export: JSONL of the readable scopes only (I4), and audited even when the client stops reading (I8). */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, type LedgerSession, openLedger } from '../../src/index.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

describe('export over HTTP', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let me: LedgerSession;
  let secrets: Awaited<ReturnType<typeof makeTokens>>;
  const ids: Record<string, string> = {};

  before(async () => {
    home = tempHome('export');
    secrets = await makeTokens(home.home, {
      amy: { name: 'amy', kind: 'human', roles: ['reader'], grants: ['user:amy:r'] },
      bob: { name: 'bob', kind: 'human', roles: ['reader'], grants: ['user:bob:r'] },
    });
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    for (const who of ['amy', 'bob']) {
      ids[who] = (await me.remember({ body: `${who} prefers window seats`, scope: `user:${who}` })).id;
    }
    for (let i = 0; i < 30; i++) await me.remember({ body: `amy note ${i}`, scope: 'user:amy' });
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });

  const exportAs = (who: string) =>
    http.app.request('/v1/export', { headers: { authorization: `Bearer ${secrets[who]!.secret}` } });

  test('I4 scope: each token exports its own scope and never the other, both ways', async () => {
    for (const [self, other] of [
      ['amy', 'bob'],
      ['bob', 'amy'],
    ] as const) {
      const res = await exportAs(self);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /application\/x-ndjson/);
      const lines = (await res.text())
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; memory?: { id: string } });
      assert.equal(lines[0]?.type, 'header');
      const exported = new Set(lines.filter((l) => l.type === 'memory').map((l) => l.memory!.id));
      assert.ok(exported.has(ids[self]!), `${self} exports its own memory`);
      assert.ok(!exported.has(ids[other]!), `${self} must not export ${other}'s memory`);
    }
  });

  test('I8 an export the client stops reading after the first chunk is still audited', async () => {
    const count = async () => (await me.audit({ operation: 'export', limit: 1000 })).length;
    const before = await count();
    const res = await exportAs('amy');
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.equal(first.done, false);
    await reader.cancel();
    assert.equal(await count(), before + 1);
    const [record] = await me.audit({ operation: 'export', limit: 1 });
    assert.equal(record?.principal, 'human:amy');
    assert.ok(
      ((record?.argsPreview as { lines: number }).lines ?? 0) < 32,
      'the record counts the lines actually sent',
    );
  });
});
