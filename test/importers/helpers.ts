/**
 * Shared by the importer tests: the MCP reference memory server driven over stdio to write a real
 * `memory.jsonl`, and the imported memories read back through the library as the local operator.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Memory, openLedger } from '../../src/index.ts';

export const MEMORY_SERVER = new URL(
  '../../node_modules/@modelcontextprotocol/server-memory/dist/index.js',
  import.meta.url,
).pathname;

/** A temporary folder for one test (a home, a memory file, notes), removed afterwards whatever happens. */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-importers-'));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs the real `@modelcontextprotocol/server-memory` with its memory file at `file` (its MEMORY_FILE_PATH
 * variable), calls its tools as a client would, and closes it: the file is what the server itself wrote.
 */
export async function withMemoryServer(
  file: string,
  fn: (call: (name: string, args: Record<string, unknown>) => Promise<void>) => Promise<void>,
): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MEMORY_SERVER],
    env: { PATH: process.env.PATH ?? '', MEMORY_FILE_PATH: file },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'memledger-importer-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    await fn(async (name, args) => {
      const result = await client.callTool({ name, arguments: args });
      if (result.isError === true) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
    });
  } finally {
    await client.close();
  }
}

/** Every memory the local operator may read in a home, in the given states (default: current ones). */
export async function memoriesIn(home: string, states?: Memory['state'][]): Promise<Memory[]> {
  const ledger = openLedger({ home });
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library', tool: 'test' });
    return await me.list({ limit: 200, ...(states === undefined ? {} : { states }) });
  } finally {
    ledger.close();
  }
}

/** A search as the local operator: the bodies it finds. */
export async function searchBodies(home: string, query: string, subject?: string): Promise<string[]> {
  const ledger = openLedger({ home });
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library', tool: 'test' });
    const r = await me.search({ query, ...(subject === undefined ? {} : { subject }) });
    return r.hits.map((h) => h.memory.body);
  } finally {
    ledger.close();
  }
}
