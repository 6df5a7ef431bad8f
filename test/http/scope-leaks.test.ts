/**
 * I4 over HTTP: answers that must not tell another scope's row from a row that does not exist — a list cursor,
 * another agent's corrections, and what a write-only token's writes say about rows it cannot read.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, type LedgerSession, openLedger, principalLabel } from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';

type Name = 'a' | 'b' | 'w';

describe('I4 scope over HTTP', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let op: LedgerSession;
  let secrets: Record<Name, string>;

  before(async () => {
    home = tempHome('scope-leaks');
    const made = await makeTokens(home.home, {
      a: { name: 'a', kind: 'agent', grants: ['agent:{self}:rw', 'shared:rw'] },
      b: { name: 'b', kind: 'agent', grants: ['agent:{self}:rw', 'shared:rw'] },
      w: { name: 'w', kind: 'agent', grants: ['agent:{self}:rw', 'shared:w'] },
    });
    secrets = { a: made.a!.secret, b: made.b!.secret, w: made.w!.secret };
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
    op = ledger.as(ledger.operator(), { surface: 'library' });
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });

  const call = async (who: Name, method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await http.app.request(path, {
      method,
      headers: { authorization: `Bearer ${secrets[who]}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: each test asserts the fields it reads
    return { status: res.status, json: (await res.json()) as any };
  };
  const remember = async (who: Name, body: Record<string, unknown>) => {
    const r = await call(who, 'POST', '/v1/memories', body);
    assert.equal(r.status, 201, JSON.stringify(r.json));
    return r.json as { id: string; state: string; reason?: string; supersedes?: string | null };
  };

  test('I4 scope: GET /v1/memories?before= another agent’s id is the same 404 as an unknown id, both ways', async () => {
    const ids = {} as Record<'a' | 'b', { old: string; newer: string }>;
    for (const name of ['a', 'b'] as const) {
      const old = await remember(name, { body: `Cursor test older of ${name}`, scope: `agent:${name}` });
      const newer = await remember(name, { body: `Cursor test newer of ${name}`, scope: `agent:${name}` });
      ids[name] = { old: old.id, newer: newer.id };
    }
    for (const [me, other] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const page = await call(me, 'GET', `/v1/memories?before=${ids[me].newer}`);
      assert.equal(page.status, 200, 'control: an own cursor pages on');
      const listed = page.json.memories.map((m: { id: string }) => m.id);
      assert.ok(listed.includes(ids[me].old) && !listed.includes(ids[me].newer));

      const unknownId = newId('mem');
      const unknown = await call(me, 'GET', `/v1/memories?before=${unknownId}`);
      const foreign = await call(me, 'GET', `/v1/memories?before=${ids[other].old}`);
      assert.equal(foreign.status, 404);
      assert.equal(unknown.status, 404);
      assert.deepEqual(
        JSON.parse(JSON.stringify(foreign.json).replace(ids[other].old, 'ID')),
        JSON.parse(JSON.stringify(unknown.json).replace(unknownId, 'ID')),
      );
      assert.equal(foreign.json.error.class, 'not_found');
    }
  });

  test('I4 scope: GET /v1/corrections?agent= another agent answers like an agent that never wrote', async () => {
    for (const name of ['a', 'b'] as const) {
      const held = await remember(name, { body: `The office of ${name} opens at 8`, scope: 'shared' });
      assert.equal(held.state, 'held');
      await op.reject({ id: held.id, reason: `not at 8 for ${name}` });
    }
    for (const [me, other] of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      const own = await call(me, 'GET', '/v1/corrections');
      assert.deepEqual(
        own.json.corrections.map((c: { agent: string }) => c.agent),
        [`agent:${me}`],
        'control: its own',
      );
      const foreign = await call(me, 'GET', `/v1/corrections?agent=agent:${other}`);
      const nobody = await call(me, 'GET', '/v1/corrections?agent=agent:nobody');
      assert.equal(foreign.status, 200);
      assert.deepEqual(foreign, nobody);
      assert.deepEqual(foreign.json, { corrections: [] });
    }
  });

  test('I4 scope: a write-only token’s POST /v1/memories and /v1/policy/check name no row it cannot read', async () => {
    const body = 'The shared printer is on floor 2';
    const existing = await op.remember({ body, scope: 'shared' });
    const blind = await remember('w', { body, scope: 'shared' });
    assert.notEqual(blind.id, existing.id);
    assert.ok(!JSON.stringify(blind).includes(existing.id));
    const seen = await remember('a', { body, scope: 'shared' });
    assert.equal(seen.id, existing.id, 'control: a reader corroborates the existing memory');

    const owner = principalLabel(op.principal);
    const holder = await op.remember({
      body: 'Printer toner is black',
      scope: 'shared',
      key: 'printer.toner',
    });
    const write = { body: 'Printer toner is cyan', scope: 'shared', key: 'printer.toner' };
    const held = await remember('w', write);
    assert.equal(held.state, 'held');
    for (const leak of [owner, holder.id]) assert.ok(!JSON.stringify(held).includes(leak), held.reason);
    const check = { scope: 'shared', kind: 'fact', key: 'printer.toner' };
    const blindCheck = await call('w', 'POST', '/v1/policy/check', check);
    assert.equal(blindCheck.status, 200);
    assert.equal(blindCheck.json.owner, null);
    for (const leak of [owner, holder.id]) assert.ok(!JSON.stringify(blindCheck.json).includes(leak), leak);
    const seenCheck = await call('a', 'POST', '/v1/policy/check', check);
    assert.equal(seenCheck.json.owner, owner, 'control: a reader is told whose key it is');
  });
});
