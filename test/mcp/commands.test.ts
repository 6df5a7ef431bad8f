/**
 * `memledger mcp` and `memledger serve` as processes (through the test launcher until the CLI registry lists
 * them): the principal from --as or a token, stdout reserved for the protocol, clean shutdown on SIGTERM.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { PassThrough } from 'node:stream';
import { isMemoryError, type Ledger, openLedger } from '../../src/index.ts';
import type { CliContext, Values } from '../../src/surfaces/cli/command.ts';
import { mcpCommand } from '../../src/surfaces/cli/commands/mcp.ts';
import { serveCommand } from '../../src/surfaces/cli/commands/serve.ts';
import { callTool, dataOf, makeTokens, RUN_COMMAND, tempHome } from './helpers.ts';

const env = (extra: Record<string, string> = {}) => ({ PATH: process.env.PATH ?? '', ...extra });

async function saveThrough(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [RUN_COMMAND, 'mcp', ...args],
    env: env(extraEnv),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'cmd-test', version: '1' });
  await client.connect(transport);
  try {
    const r = await callTool(client, 'save_memory', { body: `saved via ${args.join(' ')}` });
    assert.notEqual(r.isError, true);
    return dataOf<{ id: string }>(r).id;
  } finally {
    await client.close();
  }
}

test('I14 memledger mcp serves as --as, as MEMLEDGER_TOKEN, or as agent:mcp by default', async () => {
  const home = tempHome('mcp-cmd');
  try {
    const { tok } = await makeTokens(home.home, { tok: { name: 'token-bot', kind: 'agent' } });
    const viaAs = await saveThrough(['--home', home.home, '--as', 'agent:named-bot']);
    const viaToken = await saveThrough(['--home', home.home], { MEMLEDGER_TOKEN: tok!.secret });
    const viaDefault = await saveThrough(['--home', home.home]);
    const ledger = openLedger({ home: home.home });
    try {
      const me = ledger.as(ledger.operator(), { surface: 'library' });
      const [a, t, d] = [await me.get(viaAs), await me.get(viaToken), await me.get(viaDefault)];
      assert.deepEqual([a.provenance.principal, a.scope], ['agent:named-bot', 'agent:named-bot']);
      assert.deepEqual([t.provenance.principal, t.provenance.tokenId], ['agent:token-bot', tok!.id]);
      assert.equal(d.provenance.principal, 'agent:mcp');
      assert.equal(a.provenance.client, 'cmd-test/1');
    } finally {
      ledger.close();
    }
  } finally {
    home.cleanup();
  }
});

test('memledger mcp refuses a bad token, or --as with --token, before serving and never on stdout', async () => {
  const home = tempHome('mcp-cmd-bad');
  const ledger = openLedger({ home: home.home });
  try {
    const run = async (values: Values, extraEnv: Record<string, string> = {}) => {
      const io = fakeIo(extraEnv);
      const c = cliContext(ledger, io);
      try {
        await mcpCommand.run(c, [], values);
        return { error: undefined, io };
      } catch (error) {
        return { error, io };
      }
    };
    const unknown = await run({}, { MEMLEDGER_TOKEN: `mlk_${'Q'.repeat(43)}` });
    assert.ok(isMemoryError(unknown.error, 'permission'));
    assert.match((unknown.error as Error).message, /the bearer token is unknown/);
    assert.equal(unknown.io.out(), '', 'stdout belongs to the protocol');
    const both = await run({ as: 'agent:x', token: 'mlk_x' });
    assert.ok(isMemoryError(both.error, 'invalid_input'));
    assert.match((both.error as Error).message, /either --as or --token/);
    // control: with a known principal it serves until stdin closes, then returns
    const io = fakeIo();
    const serving = mcpCommand.run(cliContext(ledger, io), [], { as: 'agent:x' });
    (io.stdin as PassThrough).end();
    assert.equal(await serving, undefined);
    assert.match(io.err(), /serving agent:x on stdio/);
    assert.equal(io.out(), '');
  } finally {
    ledger.close();
    home.cleanup();
  }
});

test('memledger serve prints its URL, answers, and stops cleanly on SIGTERM', async () => {
  const home = tempHome('serve-cmd');
  const child = spawn(process.execPath, [RUN_COMMAND, 'serve', '--home', home.home, '--port', '0'], {
    env: env(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    const url = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0];
    assert.ok(url, line);
    assert.equal((await fetch(`${url}/healthz`)).status, 200);
    assert.equal((await fetch(`${url}/v1/export`)).status, 401);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    home.cleanup();
  }
});

test('memledger serve refuses a bad port or delivery retention as invalid_input', async () => {
  const home = tempHome('serve-bad');
  const ledger = openLedger({ home: home.home });
  try {
    await assert.rejects(
      serveCommand.run(cliContext(ledger, fakeIo()), [], { port: '70000' }),
      (e: unknown) =>
        isMemoryError(e, 'invalid_input') && /--port must be at most 65535/.test((e as Error).message),
    );
    await assert.rejects(
      serveCommand.run(cliContext(ledger, fakeIo()), [], { port: 'http' }),
      /whole number/,
    );
    await assert.rejects(
      serveCommand.run(cliContext(ledger, fakeIo()), [], { port: '0', 'keep-deliveries': '0' }),
      (e: unknown) =>
        isMemoryError(e, 'invalid_input') && /--keep-deliveries must be at least 1/.test(String(e)),
    );
  } finally {
    ledger.close();
    home.cleanup();
  }
});

function fakeIo(extraEnv: Record<string, string> = {}) {
  let out = '';
  let err = '';
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.on('data', (c: Buffer) => {
    out += c.toString();
  });
  stderr.on('data', (c: Buffer) => {
    err += c.toString();
  });
  return {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: extraEnv,
    interactive: false,
    out: () => out,
    err: () => err,
  };
}

function cliContext(ledger: Ledger, io: ReturnType<typeof fakeIo>): CliContext {
  return {
    io,
    json: false,
    homeOption: ledger.home,
    ledger: () => ledger,
    session: () => ledger.as(ledger.operator(), { surface: 'cli' }),
    partialFailure: () => {},
  };
}
