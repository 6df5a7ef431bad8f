/**
 * An agent's reads default to where it works: with no `scopes`, search_memory and get_context cover the current
 * project (the server's working directory, or `--project`), `shared` and the agent's own scope, each if
 * readable; another project the agent may read is returned only when named. Over stdio (working directory and
 * `memledger mcp --project`) and Streamable HTTP (`serve --project`).
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Ledger, openLedger } from '../../src/index.ts';
import { type RunningServer, startServer } from '../../src/surfaces/http/server.ts';
import {
  callTool,
  type Connected,
  dataOf,
  httpClient,
  makeTokens,
  RUN_COMMAND,
  stdioClient,
  tempHome,
  textOf,
} from './helpers.ts';

const WORD = 'marmot';

describe('MCP reads default to the current project, shared and the agent own scope', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  const ids: Record<'a' | 'b' | 'shared' | 'own' | 'other', string> = {
    a: '',
    b: '',
    shared: '',
    own: '',
    other: '',
  };

  before(async () => {
    home = tempHome('default-scopes');
    ledger = openLedger({ home: home.home });
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    ids.a = (await me.remember({ body: `The ${WORD} API deploys from main`, scope: 'project:a' })).id;
    ids.b = (await me.remember({ body: `The ${WORD} worker deploys nightly`, scope: 'project:b' })).id;
    ids.shared = (await me.remember({ body: `Every ${WORD} service logs JSON`, scope: 'shared' })).id;
    const x = ledger.as(ledger.principal('agent:x'), { surface: 'library' });
    ids.own = (await x.remember({ body: `I prefer small ${WORD} pull requests`, scope: 'agent:x' })).id;
    const y = ledger.as(ledger.principal('agent:y'), { surface: 'library' });
    ids.other = (await y.remember({ body: `Agent y keeps ${WORD} notes`, scope: 'agent:y' })).id;
  });
  after(() => {
    ledger.close();
    home.cleanup();
  });

  const search = async (c: Connected, scopes?: string[]) => {
    const r = await callTool(c.client, 'search_memory', { query: WORD, ...(scopes ? { scopes } : {}) });
    assert.notEqual(r.isError, true, textOf(r));
    const data = dataOf<{ results: { id: string }[]; scopes: string[] }>(r);
    return { ids: new Set(data.results.map((h) => h.id)), scopes: data.scopes };
  };
  const contextIds = async (c: Connected) => {
    const r = await callTool(c.client, 'get_context', { task: `how does ${WORD} deploy`, budget: 4_000 });
    assert.notEqual(r.isError, true, textOf(r));
    return new Set(dataOf<{ items: { id: string }[] }>(r).items.map((i) => i.id));
  };

  /** The default read sees a, shared and its own scope, never b (negative) nor another agent's; naming b reads b. */
  async function assertDefaults(c: Connected): Promise<void> {
    const { tools } = await c.client.listTools();
    const scopesDoc = (tools.find((t) => t.name === 'search_memory')!.inputSchema.properties?.scopes ??
      {}) as {
      description?: string;
    };
    assert.match(scopesDoc.description ?? '', /this project \(project:a,/);

    const found = await search(c);
    assert.deepEqual(found.scopes, ['project:a', 'shared', 'agent:x']);
    for (const k of ['a', 'shared', 'own'] as const)
      assert.ok(found.ids.has(ids[k]), `${k} is found by default`);
    assert.ok(!found.ids.has(ids.b), 'project:b is not searched by default');
    assert.ok(!found.ids.has(ids.other), 'another agent scope is never read');

    const named = await search(c, ['project:b']);
    assert.deepEqual([...named.ids], [ids.b], 'control: project:b is read when named');

    const shown = await contextIds(c);
    for (const k of ['a', 'shared', 'own'] as const) assert.ok(shown.has(ids[k]), `${k} is in the context`);
    assert.ok(!shown.has(ids.b), 'project:b is not in the default context');
  }

  test('over stdio, the project is the server working directory', async () => {
    const dir = join(home.home, 'checkouts', 'a');
    mkdirSync(dir, { recursive: true });
    const c = await stdioClient(home.home, { as: 'agent:x' }, undefined, { cwd: dir });
    try {
      await assertDefaults(c);
    } finally {
      await c.close();
    }
  });

  test('memledger mcp --project names the project, whatever the working directory', async () => {
    const elsewhere = join(home.home, 'checkouts', 'elsewhere');
    mkdirSync(elsewhere, { recursive: true });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [RUN_COMMAND, 'mcp', '--home', home.home, '--as', 'agent:x', '--project', 'a'],
      env: { PATH: process.env.PATH ?? '' },
      cwd: elsewhere,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'project-flag', version: '1' });
    await client.connect(transport);
    try {
      await assertDefaults({ client, close: () => client.close(), stderr: () => '' });
    } finally {
      await client.close();
    }
  });
});

describe('MCP over HTTP: serve --project, and a default scope the token may not read is left out', () => {
  let home: ReturnType<typeof tempHome>;
  let server: RunningServer;
  const ids: Record<string, string> = {};

  before(async () => {
    home = tempHome('default-scopes-http');
    const secrets = await makeTokens(home.home, {
      x: { name: 'x', kind: 'agent', grants: ['agent:{self}:rw', 'project:*:rw'] },
    });
    server = await startServer({ home: home.home, port: 0, mcp: { project: 'project:a' } });
    const me = server.ledger.as(server.ledger.operator(), { surface: 'library' });
    for (const scope of ['project:a', 'project:b', 'shared', 'agent:x']) {
      ids[scope] = (await me.remember({ body: `The ${WORD} note for ${scope}`, scope })).id;
    }
    ids.secret = secrets.x!.secret;
  });
  after(async () => {
    await server.close();
    home.cleanup();
  });

  test('the default is project:a and the own scope; shared is not readable, so it is left out, not refused', async () => {
    const c = await httpClient(server.url, ids.secret!);
    try {
      const r = await callTool(c.client, 'search_memory', { query: WORD });
      assert.notEqual(r.isError, true, textOf(r));
      const data = dataOf<{ results: { id: string }[]; scopes: string[] }>(r);
      assert.deepEqual(data.scopes, ['project:a', 'agent:x']);
      assert.deepEqual(new Set(data.results.map((h) => h.id)), new Set([ids['project:a'], ids['agent:x']]));
      const named = await callTool(c.client, 'search_memory', { query: WORD, scopes: ['project:b'] });
      assert.deepEqual(
        dataOf<{ results: { id: string }[] }>(named).results.map((h) => h.id),
        [ids['project:b']],
        'control: the other project when named',
      );
    } finally {
      await c.close();
    }
  });
});
