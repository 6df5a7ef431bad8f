/**
 * Hostile input over stdio, spoken as raw JSON-RPC lines to the server process: garbage, broken messages,
 * unknown methods, wrong argument types, FTS operators, unicode and path-shaped ids. Clear errors, the server
 * keeps answering, the store is unchanged (I11).
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import { type Ledger, type LedgerSession, openLedger, STATES } from '../../src/index.ts';
import { STDIO_SERVER, tempHome } from './helpers.ts';

interface RpcReply {
  id: number | string | null;
  result?: { isError?: boolean; content?: { text: string }[]; tools?: unknown[] };
  error?: { code: number; message: string };
}

describe('hostile input over stdio', () => {
  let home: ReturnType<typeof tempHome>;
  let child: ChildProcessWithoutNullStreams;
  let ledger: Ledger;
  let me: LedgerSession;
  const waiting = new Map<number, (reply: RpcReply) => void>();
  let nextId = 1;

  const write = (line: string) => child.stdin.write(`${line}\n`);
  const request = (method: string, params?: unknown): Promise<RpcReply> => {
    const id = nextId++;
    const reply = new Promise<RpcReply>((resolve) => waiting.set(id, resolve));
    write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }));
    return reply;
  };
  const call = async (name: string, args: unknown) => request('tools/call', { name, arguments: args });
  const text = (r: RpcReply) => r.result?.content?.[0]?.text ?? '';
  const snapshot = async () =>
    (await me.list({ states: [...STATES], limit: 200 })).map((m) => `${m.id}:${m.state}`).sort();

  before(async () => {
    home = tempHome('stdio-hostile');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    await me.remember({ body: 'Beavers build dams in the hostile fixture', scope: 'shared' });
    child = spawn(process.execPath, [STDIO_SERVER, '--home', home.home, '--as', 'agent:bot'], {
      stdio: 'pipe',
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const reply = JSON.parse(line) as RpcReply;
      if (typeof reply.id === 'number') waiting.get(reply.id)?.(reply);
    });
    const init = await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    assert.ok(init.result);
    write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  });
  after(async () => {
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    ledger.close();
    home.cleanup();
  });

  test('I11 garbage and broken JSON-RPC lines are dropped or answered with JSON-RPC errors; the server answers on', async () => {
    const before = await snapshot();
    for (const line of [
      'this is not json',
      '{"jsonrpc":"2.0","id":"x"',
      '{}',
      '[1,2,3]',
      '{"jsonrpc":"2.0","id":0}',
      '\u0000\u0001',
    ]) {
      write(line);
    }
    const unknownMethod = await request('memories/approve', { id: 'x' });
    assert.equal(unknownMethod.error?.code, -32601);
    const badParams = await request('tools/call', { name: 'save_memory', arguments: 'not an object' });
    assert.equal(badParams.error?.code, -32602);
    const hugeName = await request('tools/call', { name: 'n'.repeat(10_000), arguments: {} });
    assert.equal(hugeName.error?.code, -32602);
    const listed = await request('tools/list');
    assert.equal(listed.result?.tools?.length, 6);
    assert.deepEqual(await snapshot(), before);
    const refused = await me.audit({ operation: 'mcp.call', limit: 5 });
    assert.ok(
      refused.some((r) => r.tool === 'invalid-tool-name'),
      'the refused call is audited under a safe name',
    );
  });

  test('I11 wrong argument types are isError results naming the field', async () => {
    const before = await snapshot();
    const cases: [string, unknown, RegExp][] = [
      ['save_memory', { body: ['a'] }, /body/],
      ['save_memory', { body: 'x', confidence: 7 }, /confidence/],
      ['save_memory', { body: 'x', scope: 'shared; DROP' }, /scope/],
      ['save_memory', { body: 'x', subjects: [1] }, /subjects/],
      ['save_memory', { body: 'x', owner: 'human:root' }, /owner|unrecognized/i],
      ['search_memory', { query: 42 }, /query/],
      ['search_memory', { query: 'x', limit: 0 }, /limit/],
      ['get_context', { task: 'x', budget: 'lots' }, /budget/],
      ['forget_memory', { id: 'mem_x' }, /id|reason/],
    ];
    for (const [tool, args, field] of cases) {
      const r = await call(tool, args);
      assert.equal(r.result?.isError, true, `${tool} ${JSON.stringify(args)}`);
      assert.match(text(r), /^invalid_input: /);
      assert.match(text(r), field);
    }
    assert.deepEqual(await snapshot(), before);
  });

  test('I11 path-shaped ids, FTS operators and unicode give invalid_input, not_found or results, never internal', async () => {
    const before = await snapshot();
    for (const id of [
      '../../etc/passwd',
      'mem_../../x',
      "mem_' OR 1=1",
      'mem_\u0000',
      'mem_zzzzzzzzzzzzzzzzzzzzzz',
    ]) {
      const r = await call('get_memory', { id });
      assert.equal(r.result?.isError, true, id);
      assert.match(text(r), /^(invalid_input|not_found): /, id);
    }
    let found = 0;
    for (const query of [
      '"NEAR(',
      'beavers AND OR',
      '*',
      'body:beavers',
      '(((beavers',
      '\ud800 beavers',
      'bea\u200bvers',
      'beavers 🦫',
      '中文 beavers',
      '\u202ebeavers',
    ]) {
      const r = await call('search_memory', { query });
      if (r.result?.isError === true) assert.match(text(r), /^invalid_input: /, query);
      else if (text(r).includes('Beavers build dams')) found++;
    }
    assert.ok(found >= 6, `found by ${found} queries`);
    assert.deepEqual(await snapshot(), before);
  });
});
