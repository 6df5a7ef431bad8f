/**
 * Workspaces over MCP end to end, on the real persistence: an SDK client on the real `memledger mcp --as` (stdio,
 * a child process) creates a table with a subject column, fills it, joins it against __memories, reads the schema
 * prompt, and sees refusals as tool errors with their class; a second `memledger mcp` for the same agent restores
 * the stored snapshot; `workspace list/show` shows it to the admin; `erase --subject --yes` takes the subject's
 * rows out of the decompressed snapshot, a control row staying. Results validate against the output schemas.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openLedger } from '../../src/index.ts';
import { BIN, cli, ok } from '../cli/helpers.ts';
import { callTool, dataOf, tempHome, textOf } from '../mcp/helpers.ts';
import { storedBytes } from './snapshot-helpers.ts';

const DANA = 'person:dana@example.com';

/** The real `memledger mcp --as agent` on `home`, connected; its output validators cached by listTools. */
async function mcpClient(home: string, agent: string): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', '--as', agent, '--home', home],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'workspace-test', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools(); // caches the output validators, so every result below is checked against them
  return client;
}

type Rows = { results: { columns: string[]; rows: unknown[][]; row_count: number }[] };

describe('workspace tools over MCP stdio (memledger mcp, real snapshots)', () => {
  const { home, cleanup } = tempHome('workspace-mcp');
  let client: Client;
  before(async () => {
    const ledger = openLedger({ home });
    await ledger.as(ledger.principal('agent:scout')).remember({
      body: 'Dana prefers email over calls',
      scope: 'agent:scout',
      subjects: [DANA],
    });
    ledger.close();
    client = await mcpClient(home, 'agent:scout');
  });
  after(async () => {
    await client.close();
    cleanup();
  });

  test('create a table with a subject column, fill it, join it against __memories, read the schema prompt', async () => {
    const made = await callTool(client, 'workspace_sql', {
      statements: [
        'CREATE TABLE contacts (id INTEGER PRIMARY KEY, subject TEXT, channel TEXT, last_contact TEXT)',
        "INSERT INTO contacts (subject, channel, last_contact) VALUES (:who, 'email', '2026-11-30')",
        "INSERT INTO contacts (subject, channel, last_contact) VALUES ('person:omar', 'phone', '2026-11-29')",
      ],
      bindings: { who: DANA },
    });
    assert.notEqual(made.isError, true, textOf(made));
    assert.equal(dataOf<{ committed: boolean }>(made).committed, true);
    const joined = await callTool(client, 'workspace_sql', {
      statements: [
        'SELECT c.channel, m.body FROM contacts c JOIN __memories m ON EXISTS (SELECT 1 FROM json_each(m.subjects) j WHERE j.value = c.subject)',
      ],
    });
    assert.notEqual(joined.isError, true, textOf(joined));
    assert.deepEqual(dataOf<Rows>(joined).results[0]?.rows, [['email', 'Dana prefers email over calls']]);
    const schema = await callTool(client, 'workspace_schema', {});
    assert.notEqual(schema.isError, true, textOf(schema));
    const prompt = dataOf<{ prompt: string; tables: number }>(schema).prompt;
    assert.match(prompt, /## __memories \(1 row\) - ephemeral/);
    assert.match(prompt, /## contacts \(2 rows\)/);
    assert.match(prompt, /last_contact: ISO date 2026-11-29\.\.2026-11-30/);
  });

  test('a refused statement is a tool error naming its class and index; the workspace is unchanged', async () => {
    const refused = await callTool(client, 'workspace_sql', {
      statements: ["INSERT INTO contacts (subject) VALUES ('person:x')", "ATTACH '/tmp/x.db' AS x"],
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /permission/);
    assert.match(textOf(refused), /index 1/);
    const count = await callTool(client, 'workspace_sql', { statements: ['SELECT count(*) FROM contacts'] });
    assert.deepEqual(dataOf<Rows>(count).results[0]?.rows, [[2]]);
  });

  test('a second memledger mcp sees the table; the admin lists it; erase --subject takes its rows out of the snapshot', async () => {
    const second = await mcpClient(home, 'agent:scout');
    try {
      const seen = await callTool(second, 'workspace_sql', {
        statements: ['SELECT subject, channel FROM contacts ORDER BY id'],
      });
      assert.notEqual(seen.isError, true, textOf(seen));
      assert.deepEqual(dataOf<Rows>(seen).results[0]?.rows, [
        [DANA, 'email'],
        ['person:omar', 'phone'],
      ]);
    } finally {
      await second.close();
    }
    const list = ok(await cli(home, ['workspace', 'list', '--json']), 'workspace list');
    assert.match(list.stdout, /agent:scout/);
    const show = ok(await cli(home, ['workspace', 'show', 'agent:scout', '--json']), 'workspace show');
    assert.match(show.stdout, /contacts/);
    assert.doesNotMatch(show.stdout, /dana/i, 'show names tables, never rows');

    const ledger = openLedger({ home });
    try {
      const before = await storedBytes(ledger, 'agent:scout');
      assert.ok(before?.includes(Buffer.from(DANA)), 'setup: the snapshot holds the subject');
      ok(await cli(home, ['erase', '--subject', DANA, '--yes']), 'erase');
      const bytes = await storedBytes(ledger, 'agent:scout');
      assert.ok(bytes !== null);
      assert.ok(!bytes.includes(Buffer.from(DANA)), 'the subject is gone from the decompressed snapshot');
      assert.ok(bytes.includes(Buffer.from('person:omar')), 'the control row stays');
    } finally {
      ledger.close();
    }
    // The first server, still running, restores the erased snapshot on its next call.
    const after = await callTool(client, 'workspace_sql', { statements: ['SELECT subject FROM contacts'] });
    assert.deepEqual(dataOf<Rows>(after).results[0]?.rows, [['person:omar']]);
  });
});
