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
    assert.equal(listed.result?.tools?.length, 15);
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

/**
 * `memledger mcp` itself, spawned over real stdio and spoken to in raw lines: messages the SDK's own transport
 * dropped without an answer (the client hung) or that made the server exit. Each must be answered with the
 * JSON-RPC error for its id, leave an `mcp.request` audit record, and be followed by a normal answer. Every
 * test has a timeout, so a regression fails instead of hanging.
 */
describe('malformed messages to memledger mcp over stdio', () => {
  const BIN = new URL('../../bin/memledger.js', import.meta.url).pathname;
  const TIMEOUT = { timeout: 60_000 };
  let home: ReturnType<typeof tempHome>;
  let child: ChildProcessWithoutNullStreams;
  let ledger: Ledger;
  let me: LedgerSession;
  let stderr = '';
  const waiting = new Map<number | string, (reply: RpcReply) => void>();
  const replies = new Map<number | string, RpcReply>();
  let nextId = 1_000;

  /** Resolves with the reply to `id`, whenever it comes (before or after the call). */
  const replyTo = (id: number | string): Promise<RpcReply> => {
    const early = replies.get(id);
    if (early !== undefined) return Promise.resolve(early);
    return new Promise((resolve) => waiting.set(id, resolve));
  };
  const writeLine = (line: string): Promise<void> =>
    new Promise((resolve, reject) => child.stdin.write(`${line}\n`, (e) => (e ? reject(e) : resolve())));
  const rpc = async (id: number, method: string, params?: unknown): Promise<RpcReply> => {
    await writeLine(
      JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }),
    );
    return replyTo(id);
  };
  /** The control after each refusal: a normal search is still answered, with the fixture memory. */
  const searchStillWorks = async () => {
    const r = await rpc(nextId++, 'tools/call', {
      name: 'search_memory',
      arguments: { query: 'otters river' },
    });
    assert.match(r.result?.content?.[0]?.text ?? '', /Otters hold hands in the river/);
    assert.equal(child.exitCode, null, 'the server is still running');
  };
  const refusals = async () =>
    (await me.audit({ operation: 'mcp.request', limit: 1_000 })).filter(
      (r) => r.outcome === 'error' && r.failureClass === 'invalid_input' && r.principal === 'agent:bot',
    );

  before(async () => {
    home = tempHome('stdio-malformed');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    await me.remember({ body: 'Otters hold hands in the river while they sleep', scope: 'shared' });
    child = spawn(process.execPath, [BIN, 'mcp', '--home', home.home, '--as', 'agent:bot'], {
      stdio: 'pipe',
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const reply = JSON.parse(line) as RpcReply;
      if (reply.id === null) return;
      replies.set(reply.id, reply);
      waiting.get(reply.id)?.(reply);
    });
    const init = await rpc(1, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw-lines', version: '1' },
    });
    assert.ok(init.result, stderr);
    await writeLine(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  }, TIMEOUT);
  after(async () => {
    child.stdin.end();
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
    ledger.close();
    home.cleanup();
  });

  test(
    'I11 tools/call with params a string, an array or null, a string _meta, and ping with array params: a JSON-RPC error for the id, an audit record, and the next call answered',
    TIMEOUT,
    async () => {
      const cases: [string, unknown, number][] = [
        ['tools/call', 'a string', -32600],
        ['tools/call', ['an', 'array'], -32602],
        ['tools/call', null, -32600],
        ['tools/call', { name: 'search_memory', arguments: { query: 'otters' }, _meta: 'a string' }, -32602],
        ['ping', ['x'], -32602],
        ['tools/call', { name: 'search_memory', arguments: 'not an object' }, -32602],
        ['initialize', { protocolVersion: 5 }, -32602],
      ];
      for (const [method, params, code] of cases) {
        const label = `${method} ${JSON.stringify(params)}`;
        const before = (await refusals()).length;
        const id = nextId++;
        const reply = await rpc(id, method, params);
        assert.equal(reply.error?.code, code, label);
        assert.equal(reply.result, undefined, label);
        const after = await refusals();
        assert.equal(after.length, before + 1, `${label} is audited`);
        assert.equal(after[0]!.tool, method);
        assert.equal(after[0]!.surface, 'mcp');
        await searchStillWorks();
      }
    },
  );

  test(
    'I11 a 20 MB line is refused with an error for its id, the server stays up and answers the next call',
    TIMEOUT,
    async () => {
      const before = (await refusals()).length;
      const id = nextId++;
      // The SDK's clients write the method first and the id last: the refusal finds the id at the line's end.
      const big = `{"method":"tools/call","params":{"name":"save_memory","arguments":{"body":"${'x'.repeat(20 * 1024 * 1024)}"}},"jsonrpc":"2.0","id":${id}}`;
      await writeLine(big);
      const reply = await replyTo(id);
      assert.equal(reply.error?.code, -32600);
      assert.match(reply.error?.message ?? '', /over the limit/);
      assert.doesNotMatch(reply.error?.message ?? '', /xxx/, 'none of the line is echoed');
      await searchStillWorks();
      const after = await refusals();
      assert.equal(after.length, before + 1);
      assert.equal(after[0]!.tool, 'tools/call');
      assert.match(stderr, /refused a message/, 'and it is logged on stderr');
    },
  );

  test(
    'I11 invalid JSON, a message nested 3,000 deep, a batch and an unknown method are each answered and audited',
    TIMEOUT,
    async () => {
      const before = (await refusals()).length;
      const deepId = nextId++;
      let deep: unknown = 'leaf';
      for (let i = 0; i < 3_000; i++) deep = [deep];
      await writeLine(
        JSON.stringify({
          jsonrpc: '2.0',
          id: deepId,
          method: 'tools/call',
          params: { name: 'save_memory', arguments: { body: 'x', value: deep } },
        }),
      );
      assert.equal((await replyTo(deepId)).error?.code, -32600);
      await writeLine('{"jsonrpc":"2.0","id":');
      await writeLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]');
      const unknown = await rpc(nextId++, 'memories/approve', { id: 'x' });
      assert.equal(unknown.error?.code, -32601);
      await searchStillWorks();
      // Invalid JSON and the batch are answered with id null (nothing to tell them by), but audited all the same.
      assert.equal((await refusals()).length, before + 4);
      const saved = await me.list({ states: [...STATES], limit: 200 });
      assert.deepEqual(
        saved.map((m) => m.body),
        ['Otters hold hands in the river while they sleep'],
        'nothing was written',
      );
    },
  );
});
