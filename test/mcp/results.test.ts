/**
 * Tool results as Claude Code and Codex hand them to the model (the structured result, as JSON): every tool
 * declares an output schema and every result validates against it through the SDK client, guidance the model
 * must act on is in the structured result, a 10-hit search stays compact, forget is idempotent, `value` has a
 * real JSON schema, and protocol faults are one clean JSON-RPC error each, audited.
 */
import assert from 'node:assert/strict';
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { type AuditRecord, type Ledger, type LedgerSession, openLedger } from '../../src/index.ts';
import { REALISTIC_MEMORIES, REALISTIC_QUERY } from './fixtures/realistic-search.ts';
import {
  auditedSoon,
  callTool,
  type Connected,
  dataOf,
  STDIO_SERVER,
  stdioClient,
  tempHome,
  textOf,
} from './helpers.ts';

interface Saved {
  id: string;
  state: string;
  scope: string;
  supersedes?: string;
  corroborated?: true;
  reason?: string;
  next?: string;
}

describe('MCP tool results', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let me: LedgerSession;
  let bot: Connected;
  let tools: Map<string, Tool>;
  /** Every result seen in this suite, checked against its tool's schema again at the end. */
  const seen: { tool: string; result: CallToolResult }[] = [];
  const validator = new AjvJsonSchemaValidator();

  const outputSchemaOf = (tool: string) => {
    const schema = tools.get(tool)?.outputSchema;
    assert.ok(schema, `${tool} has an outputSchema`);
    return schema;
  };
  const call = async (tool: string, args: Record<string, unknown>): Promise<CallToolResult> => {
    // The SDK client validates structured content against the listed outputSchema here and throws on a mismatch.
    const result = await callTool(bot.client, tool, args);
    seen.push({ tool, result });
    return result;
  };
  const ok = async <T = Record<string, unknown>>(tool: string, args: Record<string, unknown>): Promise<T> => {
    const r = await call(tool, args);
    assert.notEqual(r.isError, true, textOf(r));
    assert.equal(
      textOf(r),
      JSON.stringify(r.structuredContent),
      `${tool}: the text block is the same result`,
    );
    return dataOf<T>(r);
  };

  before(async () => {
    home = tempHome('results');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    bot = await stdioClient(home.home, { as: 'agent:bot' }, undefined, { project: 'acme-api' });
    // listTools is what makes the SDK client cache each tool's output validator.
    tools = new Map((await bot.client.listTools()).tools.map((t) => [t.name, t]));
  });
  after(async () => {
    await bot.close();
    ledger.close();
    home.cleanup();
  });

  test('every tool declares a closed object outputSchema; a result that strays from it fails validation', async () => {
    assert.equal(tools.size, 15);
    for (const t of tools.values()) {
      assert.equal(t.outputSchema?.type, 'object', t.name);
      assert.equal(
        (t.outputSchema as { additionalProperties?: unknown }).additionalProperties,
        false,
        t.name,
      );
    }
    const saved = await ok<Saved>('save_memory', { body: 'The ocelot build uses pnpm 9' });
    const check = validator.getValidator(outputSchemaOf('save_memory'));
    assert.equal(check(saved).valid, true, 'control: the real result is valid');
    assert.equal(check({ ...saved, extra: 1 }).valid, false, 'an undeclared field fails');
    assert.equal(check({ ...saved, state: 'pending' }).valid, false, 'a state that does not exist fails');
    const { id: _, ...noId } = saved;
    assert.equal(check(noId).valid, false, 'a missing id fails');
  });

  test('held and rejected saves carry their reason and what to do next in the structured result; a plain save has no next', async () => {
    const plain = await ok<Saved>('save_memory', { body: 'The lynx service listens on port 8443' });
    assert.deepEqual(
      plain,
      { id: plain.id, state: 'active', scope: 'agent:bot' },
      'control: nothing to act on',
    );
    assert.equal(plain.next, undefined);

    const held = await ok<Saved>('save_memory', { body: 'Lynx releases ship on Tuesdays', scope: 'shared' });
    assert.equal(held.state, 'held');
    assert.match(held.reason ?? '', /^held for review \(/);
    assert.match(held.next ?? '', /do not save it again.*tell them it is waiting for review/);

    const proposal = await ok<Saved>('save_memory', {
      body: 'Lynx is on the free plan',
      scope: 'shared',
      key: 'lynx.plan',
    });
    await me.reject({ id: proposal.id, reason: 'Lynx pays for Pro' });
    const again = await ok<Saved>('save_memory', {
      body: 'Lynx is on the free plan',
      scope: 'shared',
      key: 'lynx.plan',
    });
    assert.equal(again.state, 'rejected');
    assert.match(again.reason ?? '', /this claim was rejected on .* Lynx pays for Pro/);
    assert.match(again.next ?? '', /Do not save it again/);

    const v2 = await ok<Saved>('save_memory', {
      body: 'The lynx service listens on 9443',
      supersedes: plain.id,
    });
    assert.equal(v2.supersedes, plain.id);
    assert.match(v2.next ?? '', new RegExp(`replaces ${plain.id}, which stays in history`));

    const twin = await ok<Saved>('save_memory', { body: 'The lynx service listens on 9443' });
    assert.deepEqual([twin.id, twin.corroborated], [v2.id, true], 'the same claim corroborates the live one');
    assert.match(twin.next ?? '', /already known as .*Do not save it again/);
  });

  test('search results: one short why and where from per hit, no null fields, corrections with guidance', async () => {
    const wrong = await ok<Saved>('save_memory', {
      body: 'The puma timezone is UTC',
      scope: 'shared',
      key: 'puma.tz',
    });
    await me.approve({ id: wrong.id, body: 'The puma timezone is Europe/Paris' });
    const found = await ok<{
      results: Record<string, unknown>[];
      corrections?: { action: string; key: string; corrected_body: string }[];
      scopes: string[];
      next?: string;
    }>('search_memory', { query: 'puma timezone' });
    assert.deepEqual(found.scopes, ['project:acme-api', 'shared', 'agent:bot']);
    const [hit] = found.results;
    assert.ok(hit);
    assert.equal(hit.body, 'The puma timezone is Europe/Paris');
    assert.match(String(hit.why), /^matched /);
    assert.match(String(hit.from), /^human:\S+ via /);
    for (const [field, v] of Object.entries(hit)) assert.notEqual(v, null, `${field} is left out, not null`);
    assert.deepEqual(
      found.corrections?.map((c) => [c.action, c.key, c.corrected_body]),
      [
        ['edited', 'puma.tz', 'The puma timezone is Europe/Paris'],
        ['rejected', 'lynx.plan', undefined],
      ],
      'the latest correction per key, newest first: the edit, then the earlier rejection',
    );
    assert.match(found.next ?? '', /Reviewers corrected earlier proposals of yours/);

    const none = await ok<{ results: unknown[]; next?: string }>('search_memory', { query: 'zebrafinch' });
    assert.deepEqual(none.results, []);
    assert.match(none.next ?? '', /No current memory matches in project:acme-api, shared, agent:bot/);
  });

  test('a realistic 10-hit search costs fewer characters structured than the old text reply did', async () => {
    const sizing = tempHome('results-size');
    const agent = await stdioClient(
      sizing.home,
      { as: 'agent:claude-code' },
      { name: 'claude-code', version: '2.1.5' },
      { project: 'acme-api' },
    );
    try {
      await agent.client.listTools();
      for (const m of REALISTIC_MEMORIES) {
        const r = await callTool(agent.client, 'save_memory', m);
        assert.notEqual(r.isError, true, textOf(r));
      }
      const r = await callTool(agent.client, 'search_memory', { query: REALISTIC_QUERY });
      const data = dataOf<{ results: { body: string; value?: unknown; subjects?: string[] }[] }>(r);
      assert.equal(data.results.length, 10);
      const size = JSON.stringify(r.structuredContent).length;
      // Measured on this fixture: 7,652 characters structured and 4,183 as text before; 3,413 now.
      assert.ok(size <= 3_500, `a 10-hit search is ${size} characters structured`);
      assert.equal(textOf(r).length, size, 'the text block is the same JSON');
      // What was trimmed is not content: every body, value and subject is still there.
      const bodies = new Set(data.results.map((h) => h.body));
      for (const m of REALISTIC_MEMORIES) assert.ok(bodies.has(m.body as string), m.body as string);
      assert.ok(data.results.some((h) => JSON.stringify(h.value) === '{"interval_s":10,"retries":3}'));
      assert.ok(data.results.some((h) => h.subjects?.includes('person:alice@example.com')));
    } finally {
      await agent.close();
      sizing.cleanup();
    }
  });

  test('forget_memory twice: the second call succeeds, says it was already forgotten, and writes no event', async () => {
    const m = await ok<Saved>('save_memory', { body: 'The tapir cache is warmed at boot' });
    const first = await ok<{ changed: boolean; state: string; next?: string }>('forget_memory', {
      id: m.id,
      reason: 'no longer warmed',
    });
    assert.deepEqual(first, { id: m.id, state: 'retracted', changed: true });
    const second = await ok<{ changed: boolean; state: string; next?: string }>('forget_memory', {
      id: m.id,
      reason: 'retry after a timeout',
    });
    assert.deepEqual([second.state, second.changed], ['retracted', false]);
    assert.match(second.next ?? '', /already forgotten; nothing changed/);
    const events = (await me.history(m.id)).events.filter((e) => e.type === 'retracted');
    assert.equal(events.length, 1, 'one retraction, with the first reason');
    assert.equal(events[0]?.reason, 'no longer warmed');
    const naming = (rs: AuditRecord[]) => rs.filter((r) => r.targets.includes(m.id));
    const records = naming(
      await auditedSoon(me, { tool: 'forget_memory', limit: 50 }, (rs) => naming(rs).length >= 2),
    );
    assert.deepEqual(
      records.map((r) => [r.operation, r.outcome]),
      [
        ['retract', 'ok'],
        ['retract', 'ok'],
      ],
      'both calls are audited, naming the memory',
    );
    // control: a memory that is not retracted but superseded still cannot be forgotten
    const old = await ok<Saved>('save_memory', { body: 'The tapir port is 7000', key: 'tapir.port' });
    await ok<Saved>('save_memory', { body: 'The tapir port is 7001', key: 'tapir.port' });
    const refused = await call('forget_memory', { id: old.id, reason: 'old' });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^conflict: memory \S+ is superseded/);
  });

  test('save_memory.value has a JSON schema for any JSON value, and each kind of value round-trips', async () => {
    const schema = tools.get('save_memory')!.inputSchema.properties?.value as { type?: string[] };
    assert.deepEqual([...(schema.type ?? [])].sort(), [
      'array',
      'boolean',
      'null',
      'number',
      'object',
      'string',
    ]);
    const values: unknown[] = [{ plan: 'enterprise', seats: [1, 2] }, ['a', 1, true], 'gold', 42, false];
    for (const [i, value] of values.entries()) {
      const saved = await ok<Saved>('save_memory', { body: `The okapi setting number ${i}`, value });
      const got = await ok<{ memory: { value?: unknown } }>('get_memory', { id: saved.id });
      assert.deepEqual(got.memory.value, value);
    }
    const none = await ok<Saved>('save_memory', { body: 'The okapi setting without a value', value: null });
    const got = await ok<{ memory: { value?: unknown } }>('get_memory', { id: none.id });
    assert.equal(got.memory.value, undefined, 'null is no value');
  });

  test('get_memory and get_context: history, a non-current memory explained in next, the block as markdown', async () => {
    const v1 = await ok<Saved>('save_memory', { body: 'The gecko queue is Redis', key: 'gecko.queue' });
    const v2 = await ok<Saved>('save_memory', { body: 'The gecko queue is NATS', key: 'gecko.queue' });
    const got = await ok<{ memory: { state: string }; history: { current: string }; next?: string }>(
      'get_memory',
      { id: v1.id, history: true },
    );
    assert.equal(got.memory.state, 'superseded');
    assert.equal(got.history.current, v2.id);
    assert.match(got.next ?? '', new RegExp(`^Superseded by ${v2.id}: it is history`));
    const current = await ok<{ next?: string }>('get_memory', { id: v2.id });
    assert.equal(current.next, undefined, 'control: a current memory needs no note');

    const block = await ok<{ markdown: string; items: { id: string }[]; scopes: string[] }>('get_context', {
      task: 'which queue does gecko use',
    });
    assert.match(block.markdown, /^<memledger-context>\n[\s\S]*<\/memledger-context>$/);
    assert.ok(block.items.some((i) => i.id === v2.id));
    assert.ok(!block.markdown.includes(v1.id), 'the superseded version is left out');
    assert.deepEqual(block.scopes, ['project:acme-api', 'shared', 'agent:bot']);
  });

  test('search_memory with neighbours brings each hit’s turns before and after; a named time comes back resolved against reference_time', async () => {
    const chat = ledger.as(ledger.operator(), { surface: 'library', sessionId: 'chat-offsite' });
    const question = await chat.remember({
      body: 'Where should the okapi offsite be held?',
      scope: 'shared',
    });
    const reply = await chat.remember({
      body: 'Lisbon, in the old tram depot',
      kind: 'episode',
      scope: 'shared',
    });
    type Hit = {
      id: string;
      before?: { id: string; body: string };
      after?: { id: string; body: string; from: string };
    };
    type Found = { results: Hit[]; time?: { expression: string; from?: string; to?: string } };
    const found = await ok<Found>('search_memory', { query: 'okapi offsite', neighbours: true });
    const hit = found.results.find((h) => h.id === question.id);
    assert.ok(hit, 'the question is found by its words');
    assert.equal(hit.after?.id, reply.id, 'its reply, which holds the answer, comes with it');
    assert.equal(hit.after?.body, 'Lisbon, in the old tram depot');
    assert.match(hit.after?.from ?? '', /^human:\S+ via library on /);
    assert.equal(found.time, undefined, 'no time named, none returned');
    // Control: without neighbours, no turn comes along.
    const plain = await ok<Found>('search_memory', { query: 'okapi offsite' });
    assert.ok(plain.results.every((h) => h.before === undefined && h.after === undefined));

    const ref = '2025-09-30T17:00:00Z';
    const lastMonth = await ok<Found>('search_memory', {
      query: 'okapi offsite last month',
      reference_time: ref,
    });
    assert.deepEqual(lastMonth.time, {
      expression: 'last month',
      from: '2025-08-01T00:00:00.000Z',
      to: '2025-09-01T00:00:00.000Z',
    });
    const before = await ok<Found>('search_memory', {
      query: 'okapi offsite before April 2022',
      reference_time: ref,
    });
    assert.deepEqual(
      before.time,
      { expression: 'before April 2022', to: '2022-04-01T00:00:00.000Z' },
      'an open side is left out',
    );
    const bad = await call('search_memory', { query: 'okapi offsite', reference_time: 'next tuesday' });
    assert.equal(bad.isError, true);
    assert.match(textOf(bad), /^invalid_input: /);

    const block = await ok<{ items: { id: string }[] }>('get_context', {
      task: 'where is the okapi offsite last month',
      reference_time: ref,
    });
    assert.ok(block.items.some((i) => i.id === question.id || i.id === reply.id));
  });

  test('an error result is isError with its class in text and no structured content, which the SDK client accepts', async () => {
    const r = await call('get_memory', { id: 'mem_zzzzzzzzzzzzzzzzzzzzzz' });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent, undefined);
    assert.match(textOf(r), /^not_found: no memory mem_z+$/);
    const doubt = await call('doubt_memory', { id: 'mem_zzzzzzzzzzzzzzzzzzzzzz', reason: 'x' });
    assert.equal(doubt.isError, true);
  });

  test('every result of this suite validates against its tool outputSchema', () => {
    assert.ok(seen.length >= 25, `${seen.length} results`);
    for (const { tool, result } of seen) {
      if (result.isError === true) continue;
      const check = validator.getValidator(outputSchemaOf(tool));
      const verdict = check(result.structuredContent);
      assert.equal(verdict.valid, true, `${tool}: ${verdict.errorMessage}`);
    }
  });
});

/** Protocol faults, spoken as raw JSON-RPC lines so the exact wire shape is what is asserted. */
describe('MCP protocol faults over stdio', () => {
  let home: ReturnType<typeof tempHome>;
  let child: ChildProcessWithoutNullStreams;
  let ledger: Ledger;
  let me: LedgerSession;
  const waiting = new Map<number, (reply: unknown) => void>();
  let nextId = 1;
  const request = (method: string, params?: unknown): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const reply = new Promise<Record<string, unknown>>((resolve) =>
      waiting.set(id, resolve as (r: unknown) => void),
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) })}\n`,
    );
    return reply;
  };

  before(async () => {
    home = tempHome('results-rpc');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    child = spawn(process.execPath, [STDIO_SERVER, '--home', home.home, '--as', 'agent:bot'], {
      stdio: 'pipe',
    });
    createInterface({ input: child.stdout }).on('line', (line) => {
      const reply = JSON.parse(line) as { id?: unknown };
      if (typeof reply.id === 'number') waiting.get(reply.id)?.(reply);
    });
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '0' },
    });
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  });
  after(async () => {
    child.stdin.end();
    await new Promise((resolve) => child.once('exit', resolve));
    ledger.close();
    home.cleanup();
  });

  test('I8 an unknown tool is one JSON-RPC error, "Unknown tool: NAME" without a doubled prefix, audited', async () => {
    const reply = await request('tools/call', { name: 'approve_memory', arguments: {} });
    assert.deepEqual(reply, {
      jsonrpc: '2.0',
      id: reply.id,
      error: { code: -32602, message: 'Unknown tool: approve_memory' },
    });
    const records = await me.audit({ operation: 'mcp.call', limit: 10 });
    assert.ok(records.some((r) => r.tool === 'approve_memory' && r.failureClass === 'invalid_input'));
    // control: a known tool on the same connection answers a result
    const listed = (await request('tools/list')) as { result?: { tools: unknown[] } };
    assert.equal(listed.result?.tools.length, 15);
  });

  test('I8 tools/call without params is invalid_params with one line, audited', async () => {
    const reply = await request('tools/call');
    assert.deepEqual(reply, {
      jsonrpc: '2.0',
      id: reply.id,
      error: { code: -32602, message: 'Invalid params: tools/call needs params' },
    });
    const nameless = await request('tools/call', { arguments: {} });
    assert.deepEqual((nameless as { error?: unknown }).error, {
      code: -32602,
      message: 'Invalid params: tools/call: params.name is required',
    });
    const records = await me.audit({ operation: 'mcp.request', limit: 10 });
    assert.ok(
      records.filter((r) => r.tool === 'tools/call' && r.failureClass === 'invalid_input').length >= 2,
      'both refusals are audited',
    );
  });

  test('the SDK client sees the unknown tool error with the "MCP error" prefix once', async () => {
    const agent = await stdioClient(home.home, { as: 'agent:bot' });
    try {
      await assert.rejects(callTool(agent.client, 'approve_memory', {}), (e: Error) => {
        assert.equal(e.message, 'MCP error -32602: Unknown tool: approve_memory');
        return true;
      });
    } finally {
      await agent.close();
    }
  });
});
