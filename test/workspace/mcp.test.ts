/**
 * Workspaces over MCP end to end: a real SDK client on the stdio server in a child process creates a table with
 * a subject column, fills it, joins it against __memories, reads the schema prompt, and sees refusals as tool
 * errors with their class; the structured results validate against the tools' output schemas.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { openLedger } from '../../src/index.ts';
import { callTool, dataOf, tempHome, textOf } from '../mcp/helpers.ts';

const SERVER = new URL('./fixtures/mcp-server.ts', import.meta.url).pathname;

describe('workspace tools over MCP stdio', () => {
  const { home, cleanup } = tempHome('workspace-mcp');
  let client: Client;
  before(async () => {
    const ledger = openLedger({ home });
    await ledger.as(ledger.principal('agent:scout')).remember({
      body: 'Dana prefers email over calls',
      scope: 'agent:scout',
      subjects: ['person:dana@example.com'],
    });
    ledger.close();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER, '--home', home, '--as', 'agent:scout', '--workspaces', join(home, 'ws')],
      env: { PATH: process.env.PATH ?? '' },
      stderr: 'pipe',
    });
    client = new Client({ name: 'workspace-test', version: '1.0.0' });
    await client.connect(transport);
    await client.listTools(); // caches the output validators, so every result below is checked against them
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
      ],
      bindings: { who: 'person:dana@example.com' },
    });
    assert.notEqual(made.isError, true, textOf(made));
    assert.equal(dataOf<{ committed: boolean }>(made).committed, true);
    const joined = await callTool(client, 'workspace_sql', {
      statements: [
        'SELECT c.channel, m.body FROM contacts c JOIN __memories m ON EXISTS (SELECT 1 FROM json_each(m.subjects) j WHERE j.value = c.subject)',
      ],
    });
    assert.notEqual(joined.isError, true, textOf(joined));
    const data = dataOf<{ results: { columns: string[]; rows: unknown[][]; row_count: number }[] }>(joined);
    assert.deepEqual(data.results[0]?.rows, [['email', 'Dana prefers email over calls']]);
    const schema = await callTool(client, 'workspace_schema', {});
    assert.notEqual(schema.isError, true, textOf(schema));
    const prompt = dataOf<{ prompt: string; tables: number }>(schema).prompt;
    assert.match(prompt, /## __memories \(1 row\) - ephemeral/);
    assert.match(prompt, /## contacts \(1 row\)/);
    assert.match(prompt, /last_contact: ISO date 2026-11-30\.\.2026-11-30/);
  });

  test('a refused statement is a tool error naming its class and index; the workspace is unchanged', async () => {
    const refused = await callTool(client, 'workspace_sql', {
      statements: ["INSERT INTO contacts (subject) VALUES ('person:x')", "ATTACH '/tmp/x.db' AS x"],
    });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /permission/);
    assert.match(textOf(refused), /index 1/);
    const count = await callTool(client, 'workspace_sql', { statements: ['SELECT count(*) FROM contacts'] });
    assert.deepEqual(dataOf<{ results: { rows: unknown[][] }[] }>(count).results[0]?.rows, [[1]]);
  });
});
