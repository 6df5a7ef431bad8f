/**
 * The authorisation matrix: every HTTP route × every kind of caller → the expected status, table-driven.
 * Each cell gets fresh fixtures, so one cell's write cannot decide another's outcome.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, type LedgerSession, openLedger } from '../../src/index.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';
import { writeWorkspace } from '../workspace/snapshot-helpers.ts';

/**
 * `agentAdmin` is an agent token with every role and `*:rw`: what an agent may not do, admin or not. `auditor`
 * is a service token with the auditor role alone: the audit and nothing else.
 */
type Who = 'none' | 'agent' | 'agentAdmin' | 'auditor' | 'reader' | 'reviewer' | 'admin';
const WHO: Who[] = ['none', 'agent', 'agentAdmin', 'auditor', 'reader', 'reviewer', 'admin'];

interface Fixtures {
  op: LedgerSession;
  bot: LedgerSession;
  /** Gives the agent a workspace (through the WorkspaceFiles seam) and returns its id for a path. */
  workspace(agent: string): Promise<string>;
  n: number;
}
interface Cell {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}
interface Row {
  route: string;
  make(f: Fixtures): Promise<Cell>;
  expect: Record<Who, number>;
}

const active = async (f: Fixtures) =>
  (await f.op.remember({ body: `matrix fact ${f.n}`, scope: 'shared' })).id;
const heldByBot = async (f: Fixtures) => {
  const r = await f.bot.remember({ body: `matrix proposal ${f.n}`, scope: 'shared' });
  assert.equal(r.state, 'held');
  return r.id;
};
/** A key in shared whose current value the operator wrote, so the operator claims it. */
const ownedKey = async (f: Fixtures) => {
  const key = `matrix.claim${f.n}`;
  await f.op.remember({ body: `matrix owned value ${f.n}`, scope: 'shared', key });
  return { scope: 'shared', key };
};
/** A commitment the operator owns, in shared. */
const commitment = async (f: Fixtures) =>
  (await f.op.commitments.add({ body: `matrix commitment ${f.n}`, scope: 'shared' })).id;
/** A chain over shared with one memory to summarise, and the window's end. */
const chain = async (f: Fixtures) => {
  const name = `matrix-${f.n}`;
  await f.op.summaries.create({ name, scope: 'shared' });
  await f.op.remember({ body: `matrix source ${f.n}`, scope: 'shared' });
  return { name, until: (await f.op.summaries.next({ chain: name })).until };
};
const definition = (name: string) => ({
  name,
  prompt: 'Summarise.',
  triggers: [{ type: 'event', kinds: ['decision'] }],
  reads: { scopes: ['shared'] },
  writes: { kinds: ['note'], scopes: ['shared'] },
  settleSeconds: 0,
});
/** A behavior the operator defined, for the routes that act on one. */
const behavior = async (f: Fixtures) => (await f.op.behaviors.add(definition(`matrix-${f.n}`))).name;
/** A run the operator claimed: nobody else's token may complete or fail it (it is not theirs to see). */
const operatorRun = async (f: Fixtures) => {
  const name = await behavior(f);
  await f.op.remember({ body: `matrix decision ${f.n}`, scope: 'shared', kind: 'decision' });
  const w = await f.op.behaviors.next(name);
  return { run: w!.run, token: w!.token };
};
const all = (status: number): Record<Who, number> => ({
  none: 401,
  agent: status,
  agentAdmin: status,
  auditor: status,
  reader: status,
  reviewer: status,
  admin: status,
});
/** Memory reads: every token with the reader role; the auditor role alone reads none. */
const READS: Record<Who, number> = { ...all(200), auditor: 403 };
/** An agent's workspace: that agent and human admins only. */
const WORKSPACE: Record<Who, number> = {
  none: 401,
  agent: 200,
  agentAdmin: 403,
  auditor: 403,
  reader: 403,
  reviewer: 403,
  admin: 200,
};
/** Humans with the admin role only: an agent, even an admin agent, is refused (src/workspace/admin.ts). */
const ADMIN_ONLY: Record<Who, number> = {
  none: 401,
  agent: 403,
  agentAdmin: 403,
  auditor: 403,
  reader: 403,
  reviewer: 403,
  admin: 200,
};
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'matrix', version: '1' } },
};

const MATRIX: Row[] = [
  {
    route: 'POST /v1/memories',
    make: async (f) => ({
      method: 'POST',
      path: '/v1/memories',
      body: { body: `new ${f.n}`, scope: 'shared' },
    }),
    expect: { none: 401, agent: 201, agentAdmin: 201, auditor: 403, reader: 403, reviewer: 201, admin: 201 },
  },
  {
    route: 'GET /v1/memories',
    make: async () => ({ method: 'GET', path: '/v1/memories?limit=5' }),
    expect: READS,
  },
  {
    route: 'GET /v1/memories/:id',
    make: async (f) => ({ method: 'GET', path: `/v1/memories/${await active(f)}` }),
    expect: READS,
  },
  {
    route: 'GET /v1/memories/:id/history',
    make: async (f) => ({ method: 'GET', path: `/v1/memories/${await active(f)}/history` }),
    expect: READS,
  },
  {
    route: 'POST /v1/memories/:id/retract',
    make: async (f) => ({
      method: 'POST',
      path: `/v1/memories/${await heldByBot(f)}/retract`,
      body: { reason: 'no' },
    }),
    expect: { none: 401, agent: 200, agentAdmin: 403, auditor: 404, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/memories/:id/confirm',
    make: async (f) => ({ method: 'POST', path: `/v1/memories/${await active(f)}/confirm` }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/memories/:id/doubt',
    make: async (f) => ({
      method: 'POST',
      path: `/v1/memories/${await active(f)}/doubt`,
      body: { reason: 'looks stale' },
    }),
    expect: { none: 401, agent: 200, agentAdmin: 200, auditor: 404, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/memories/:id/restore-trust',
    make: async (f) => {
      const id = await active(f);
      await f.bot.doubt({ id, reason: 'looks stale' });
      return { method: 'POST', path: `/v1/memories/${id}/restore-trust`, body: { reason: 'checked' } };
    },
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/search',
    make: async () => ({ method: 'POST', path: '/v1/search', body: { query: 'matrix fact' } }),
    expect: READS,
  },
  {
    route: 'GET /v1/review',
    make: async () => ({ method: 'GET', path: '/v1/review' }),
    expect: { none: 401, agent: 403, agentAdmin: 200, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/review/:id/approve',
    make: async (f) => ({ method: 'POST', path: `/v1/review/${await heldByBot(f)}/approve`, body: {} }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/review/:id/reject',
    make: async (f) => ({
      method: 'POST',
      path: `/v1/review/${await heldByBot(f)}/reject`,
      body: { reason: 'wrong' },
    }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/review/:id/unreject',
    make: async (f) => {
      const id = await heldByBot(f);
      await f.op.reject({ id, reason: 'wrong' });
      return { method: 'POST', path: `/v1/review/${id}/unreject`, body: { reason: 'right after all' } };
    },
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/erase',
    make: async (f) => {
      await f.op.remember({ body: `about someone ${f.n}`, scope: 'shared', subjects: [`person:p${f.n}`] });
      return { method: 'POST', path: '/v1/erase', body: { subject: `person:p${f.n}` } };
    },
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 403, admin: 200 },
  },
  {
    route: 'POST /v1/erase/preview',
    make: async (f) => {
      await f.op.remember({ body: `about someone ${f.n}`, scope: 'shared', subjects: [`person:q${f.n}`] });
      return { method: 'POST', path: '/v1/erase/preview', body: { subject: `person:q${f.n}` } };
    },
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 403, admin: 200 },
  },
  { route: 'GET /v1/whoami', make: async () => ({ method: 'GET', path: '/v1/whoami' }), expect: all(200) },
  {
    route: 'GET /v1/review/events',
    make: async () => ({ method: 'GET', path: '/v1/review/events?intervalMs=200' }),
    expect: { none: 401, agent: 403, agentAdmin: 200, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/context',
    make: async () => ({ method: 'POST', path: '/v1/context', body: { task: 'matrix fact', budget: 300 } }),
    expect: READS,
  },
  {
    route: 'GET /v1/corrections',
    make: async () => ({ method: 'GET', path: '/v1/corrections?limit=5' }),
    expect: READS,
  },
  {
    route: 'POST /v1/claims',
    make: async (f) => ({ method: 'POST', path: '/v1/claims', body: await ownedKey(f) }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/claims/release',
    make: async (f) => ({ method: 'POST', path: '/v1/claims/release', body: await ownedKey(f) }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  { route: 'GET /v1/policy', make: async () => ({ method: 'GET', path: '/v1/policy' }), expect: all(200) },
  {
    route: 'POST /v1/policy/check',
    // Explaining agent:bot's write: its own token may, a reviewer may, a plain reader may not.
    make: async () => ({
      method: 'POST',
      path: '/v1/policy/check',
      body: { principal: 'agent:bot', scope: 'shared', kind: 'fact' },
    }),
    expect: { none: 401, agent: 200, agentAdmin: 200, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'GET /v1/audit',
    make: async () => ({ method: 'GET', path: '/v1/audit?limit=5' }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 200, reader: 403, reviewer: 403, admin: 200 },
  },
  {
    route: 'GET /v1/audit/failures',
    make: async () => ({ method: 'GET', path: '/v1/audit/failures' }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 200, reader: 403, reviewer: 403, admin: 200 },
  },
  { route: 'GET /v1/export', make: async () => ({ method: 'GET', path: '/v1/export' }), expect: READS },
  { route: 'GET /v1/behaviors', make: async () => ({ method: 'GET', path: '/v1/behaviors' }), expect: READS },
  {
    // I7: only a person with the admin role defines a behavior; an agent with every role does not.
    route: 'POST /v1/behaviors',
    make: async (f) => ({ method: 'POST', path: '/v1/behaviors', body: definition(`matrix-add-${f.n}`) }),
    expect: { ...all(403), admin: 201 },
  },
  {
    route: 'GET /v1/behaviors/:id',
    make: async (f) => ({ method: 'GET', path: `/v1/behaviors/${await behavior(f)}` }),
    expect: READS,
  },
  {
    route: 'POST /v1/behaviors/:id/disable',
    make: async (f) => ({ method: 'POST', path: `/v1/behaviors/${await behavior(f)}/disable` }),
    expect: { ...all(403), admin: 200 },
  },
  {
    // Claiming a window is work an agent does: the writer role (the auditor and a plain reader lack it).
    route: 'POST /v1/behaviors/:id/next',
    make: async (f) => ({ method: 'POST', path: `/v1/behaviors/${await behavior(f)}/next` }),
    expect: { ...all(200), auditor: 403, reader: 403 },
  },
  {
    route: 'GET /v1/behaviors/:id/runs',
    make: async (f) => ({ method: 'GET', path: `/v1/behaviors/${await behavior(f)}/runs` }),
    expect: READS,
  },
  {
    route: 'POST /v1/runs/:id/complete',
    make: async (f) => {
      const { run, token } = await operatorRun(f);
      return { method: 'POST', path: `/v1/runs/${run}/complete`, body: { token, outputs: [] } };
    },
    expect: all(404),
  },
  {
    route: 'POST /v1/runs/:id/fail',
    make: async (f) => {
      const { run, token } = await operatorRun(f);
      return { method: 'POST', path: `/v1/runs/${run}/fail`, body: { token } };
    },
    expect: all(404),
  },
  {
    route: 'POST /v1/commitments',
    make: async (f) => ({
      method: 'POST',
      path: '/v1/commitments',
      body: { body: `todo ${f.n}`, scope: 'shared' },
    }),
    expect: { none: 401, agent: 201, agentAdmin: 201, auditor: 403, reader: 403, reviewer: 201, admin: 201 },
  },
  {
    route: 'GET /v1/commitments',
    make: async () => ({ method: 'GET', path: '/v1/commitments?limit=5' }),
    expect: READS,
  },
  {
    route: 'GET /v1/commitments/:id',
    make: async (f) => ({ method: 'GET', path: `/v1/commitments/${await commitment(f)}` }),
    expect: READS,
  },
  {
    // The operator's commitment: no agent moves it, admin or not; a person with a write grant does.
    route: 'POST /v1/commitments/:id/status',
    make: async (f) => ({
      method: 'POST',
      path: `/v1/commitments/${await commitment(f)}/status`,
      body: { status: 'doing' },
    }),
    expect: { none: 401, agent: 403, agentAdmin: 403, auditor: 403, reader: 403, reviewer: 200, admin: 200 },
  },
  {
    route: 'POST /v1/summaries',
    make: async (f) => ({
      method: 'POST',
      path: '/v1/summaries',
      body: { name: `made-${f.n}`, scope: 'shared' },
    }),
    expect: { none: 401, agent: 201, agentAdmin: 201, auditor: 403, reader: 403, reviewer: 201, admin: 201 },
  },
  {
    route: 'GET /v1/summaries',
    make: async (f) => {
      await chain(f);
      return { method: 'GET', path: '/v1/summaries' };
    },
    expect: READS,
  },
  {
    route: 'GET /v1/summaries/:id',
    make: async (f) => ({ method: 'GET', path: `/v1/summaries/${(await chain(f)).name}` }),
    expect: READS,
  },
  {
    route: 'GET /v1/summaries/:id/next',
    make: async (f) => ({ method: 'GET', path: `/v1/summaries/${(await chain(f)).name}/next` }),
    expect: READS,
  },
  {
    // An agent's summary in shared is held (201 all the same); a reader may read the chain but not write it.
    route: 'POST /v1/summaries/:id',
    make: async (f) => {
      const c = await chain(f);
      return {
        method: 'POST',
        path: `/v1/summaries/${c.name}`,
        body: { until: c.until, body: `summary ${f.n}` },
      };
    },
    expect: { none: 401, agent: 201, agentAdmin: 201, auditor: 403, reader: 403, reviewer: 201, admin: 201 },
  },
  {
    // agent:bot's own workspace: bot itself and a human admin reach it; another agent (admin or not) never (I4).
    route: 'POST /v1/workspace/sql',
    make: async () => ({
      method: 'POST',
      path: '/v1/workspace/sql',
      body: { statements: ['SELECT 1'], agent: 'agent:bot' },
    }),
    expect: WORKSPACE,
  },
  {
    route: 'GET /v1/workspace/schema',
    make: async () => ({ method: 'GET', path: '/v1/workspace/schema?agent=agent:bot' }),
    expect: WORKSPACE,
  },
  {
    route: 'GET /v1/workspaces',
    make: async () => ({ method: 'GET', path: '/v1/workspaces' }),
    expect: ADMIN_ONLY,
  },
  {
    route: 'GET /v1/workspaces/:id',
    make: async (f) => ({ method: 'GET', path: `/v1/workspaces/${await f.workspace(`agent:w${f.n}`)}` }),
    expect: ADMIN_ONLY,
  },
  {
    route: 'GET /v1/workspaces/:id/export',
    make: async (f) => ({
      method: 'GET',
      path: `/v1/workspaces/${await f.workspace(`agent:w${f.n}`)}/export`,
    }),
    expect: ADMIN_ONLY,
  },
  {
    route: 'POST /v1/workspaces/:id/reset',
    make: async (f) => ({
      method: 'POST',
      path: `/v1/workspaces/${await f.workspace(`agent:w${f.n}`)}/reset`,
      body: {},
    }),
    expect: ADMIN_ONLY,
  },
  {
    route: 'ALL /mcp',
    make: async () => ({ method: 'POST', path: '/mcp', body: INITIALIZE }),
    expect: all(200),
  },
];

/** The body, or for an event stream (which never ends by itself) its first event, then the stream is closed. */
async function readBody(res: Response): Promise<string> {
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) return res.text();
  const reader = res.body!.getReader();
  const first = await reader.read();
  await reader.cancel();
  return new TextDecoder().decode(first.value);
}

describe('HTTP authorisation matrix', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let secrets: Record<Exclude<Who, 'none'>, string>;
  let fixtures: Omit<Fixtures, 'n'>;
  let counter = 0;

  before(async () => {
    home = tempHome('matrix');
    const made = await makeTokens(home.home, {
      agent: { name: 'bot', kind: 'agent', grants: ['agent:{self}:rw', 'shared:rw'] },
      reader: { name: 'rhea', kind: 'human', roles: ['reader'], grants: ['shared:r'] },
      reviewer: {
        name: 'rex',
        kind: 'human',
        roles: ['reader', 'writer', 'reviewer'],
        grants: ['shared:rw'],
      },
      admin: { name: 'ada', kind: 'human', roles: ['admin'], grants: ['*:rw'] },
      agentAdmin: {
        name: 'root-bot',
        kind: 'agent',
        roles: ['reader', 'writer', 'reviewer', 'admin'],
        grants: ['*:rw'],
      },
      auditor: { name: 'audra', kind: 'service', roles: ['auditor'], grants: [] },
    });
    secrets = Object.fromEntries(Object.entries(made).map(([k, v]) => [k, v.secret])) as typeof secrets;
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
    fixtures = {
      op: ledger.as(ledger.operator(), { surface: 'library' }),
      bot: ledger.as(ledger.principal('agent:bot'), { surface: 'library' }),
      workspace: async (agent) => {
        await writeWorkspace(ledger, agent, 'CREATE TABLE t (id INTEGER PRIMARY KEY, subject TEXT)');
        return encodeURIComponent(agent);
      },
    };
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });

  const send = async (cell: Cell, who: Who): Promise<Response> => {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (who !== 'none') headers.authorization = `Bearer ${secrets[who]}`;
    return http.app.request(cell.path, {
      method: cell.method,
      headers,
      body: cell.body === undefined ? undefined : JSON.stringify(cell.body),
    });
  };

  test('the matrix covers every route of the app', () => {
    const covered = new Set(MATRIX.map((r) => r.route));
    for (const r of http.routes)
      assert.ok(covered.has(`${r.method} ${r.path}`), `${r.method} ${r.path} missing`);
    assert.ok(covered.has('ALL /mcp'));
  });

  for (const row of MATRIX) {
    for (const who of WHO) {
      const status = row.expect[who];
      test(`I4 I7 authorisation: ${row.route} as ${who} → ${status}`, async () => {
        const cell = await row.make({ ...fixtures, n: ++counter });
        const res = await send(cell, who);
        const text = await readBody(res);
        assert.equal(res.status, status, text.slice(0, 300));
        if (status === 401) {
          assert.equal(res.headers.get('www-authenticate'), 'Bearer realm="memledger"');
          assert.equal(JSON.parse(text).error.class, 'permission');
        }
        if (status === 403) assert.equal(JSON.parse(text).error.class, 'permission');
      });
    }
  }

  test('I8 every /v1 request of the matrix, allowed or refused, left exactly one audit record', async () => {
    const op = fixtures.op;
    const count = async () => (await op.audit({ limit: 10_000 })).filter((r) => r.surface === 'http').length;
    const before = await count();
    let sent = 0;
    for (const row of MATRIX.filter((r) => r.route.includes('/v1/'))) {
      for (const who of WHO) {
        await readBody(await send(await row.make({ ...fixtures, n: ++counter }), who));
        sent++;
      }
    }
    assert.equal((await count()) - before, sent);
  });

  test('401 for an unknown, malformed or revoked token; the same request with a live token is allowed', async () => {
    const cell: Cell = { method: 'POST', path: '/v1/search', body: { query: 'matrix' } };
    const withHeader = (authorization: string) =>
      http.app.request(cell.path, {
        method: 'POST',
        headers: { authorization },
        body: JSON.stringify(cell.body),
      });
    const fresh = await tokens.create({ name: 'temp', kind: 'service', grants: ['shared:r'] });
    assert.equal((await withHeader(`Bearer ${fresh.secret}`)).status, 200);
    await tokens.revoke(fresh.id);
    const revoked = await withHeader(`Bearer ${fresh.secret}`);
    assert.equal(revoked.status, 401);
    assert.match(((await revoked.json()) as { error: { message: string } }).error.message, /revoked/);
    const unknown = `mlk_${'x'.repeat(43)}`;
    for (const header of [
      `Bearer ${unknown}`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
      'Bearer',
      'Bearer  ',
    ]) {
      assert.equal((await withHeader(header)).status, 401, header);
    }
  });
});
