/** Shared by the MCP and HTTP tests: temporary homes, tokens, and real SDK clients over stdio and HTTP. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditFilter, AuditRecord } from '../../src/index.ts';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenInput } from '../../src/auth/token-store.ts';

export const STDIO_SERVER = new URL('./fixtures/stdio-server.ts', import.meta.url).pathname;
export const RUN_COMMAND = new URL('./fixtures/run-command.ts', import.meta.url).pathname;

export function tempHome(label = 'mcp'): { home: string; cleanup(): void } {
  const home = mkdtempSync(join(tmpdir(), `memledger-${label}-`));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Creates tokens in a home and returns their secrets by name. */
export async function makeTokens(
  home: string,
  specs: Record<string, TokenInput>,
): Promise<Record<string, { secret: string; id: string }>> {
  const tokens = openTokenStore(home);
  try {
    const made: Record<string, { secret: string; id: string }> = {};
    for (const [label, spec] of Object.entries(specs)) {
      const t = await tokens.create(spec, 'human:test');
      made[label] = { secret: t.secret, id: t.id };
    }
    return made;
  } finally {
    await tokens.close();
  }
}

export interface Connected {
  client: Client;
  close(): Promise<void>;
  stderr(): string;
}

/** A real SDK client talking to the stdio server in a child process. */
export async function stdioClient(
  home: string,
  who: { as: string } | { token: string },
  info = { name: 'test-client', version: '9.9.9' },
  where: { cwd?: string; project?: string } = {},
): Promise<Connected> {
  const args = [STDIO_SERVER, '--home', home];
  const env: Record<string, string> = { PATH: process.env.PATH ?? '' };
  if ('as' in who) args.push('--as', who.as);
  else env.MEMLEDGER_TOKEN = who.token;
  if (where.project !== undefined) args.push('--project', where.project);
  const transport = new StdioClientTransport({
    command: process.execPath,
    args,
    env,
    stderr: 'pipe',
    ...(where.cwd === undefined ? {} : { cwd: where.cwd }),
  });
  let err = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const client = new Client(info);
  await client.connect(transport);
  return { client, close: () => client.close(), stderr: () => err };
}

/** A real SDK client over Streamable HTTP with a bearer token. */
export async function httpClient(
  url: string,
  secret: string,
  info = { name: 'http-client', version: '1.0.0' },
): Promise<Connected & { transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', url), {
    requestInit: { headers: { authorization: `Bearer ${secret}` } },
  });
  const client = new Client(info);
  await client.connect(transport);
  return { client, transport, close: () => client.close(), stderr: () => '' };
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  meta?: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({
    name,
    arguments: args,
    ...(meta ? { _meta: meta } : {}),
  })) as CallToolResult;
}

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first !== undefined && first.type === 'text' ? first.text : '';
}

export function dataOf<T = Record<string, unknown>>(result: CallToolResult): T {
  return result.structuredContent as T;
}

/**
 * The audit records matching `filter` once `ready` accepts them, read again every 20 ms for up to 10 s. A write
 * call's record is backed by its outbox row in memory.db and reaches audit.db at the end of the server's
 * event-loop turn (src/audit/sqlite-audit.ts), which can be just after its response: a reader in another process
 * sees it a moment later. The wait only bounds the test; the assertions stay the caller's.
 */
export async function auditedSoon(
  reader: { audit(filter: AuditFilter): Promise<AuditRecord[]> },
  filter: AuditFilter,
  ready: (records: AuditRecord[]) => boolean,
): Promise<AuditRecord[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const records = await reader.audit(filter);
    if (ready(records) || Date.now() > deadline) return records;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
