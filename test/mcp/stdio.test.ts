/**
 * MCP over stdio with a real SDK client against the server in a child process: the tool surface, save,
 * supersede, search, held and rejected outcomes in words, context, errors, and what is stamped and audited.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type AuditRecord, openLedger, type Ledger, type LedgerSession } from '../../src/index.ts';
import { newId } from '../../src/model/ids.ts';
import { auditedSoon, callTool, type Connected, dataOf, stdioClient, tempHome, textOf } from './helpers.ts';

const VERDICT_WORDS = /approve|reject|confirm|erase|review|verdict|claim/i;

describe('MCP over stdio', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let me: LedgerSession;
  let bot: Connected;

  before(async () => {
    home = tempHome('stdio');
    ledger = openLedger({ home: home.home });
    me = ledger.as(ledger.operator(), { surface: 'library' });
    bot = await stdioClient(home.home, { as: 'agent:bot' });
  });
  after(async () => {
    await bot.close();
    ledger.close();
    home.cleanup();
  });

  const save = async (args: Record<string, unknown>, meta?: Record<string, unknown>) => {
    const r = await callTool(bot.client, 'save_memory', args, meta);
    assert.notEqual(r.isError, true, textOf(r));
    return {
      text: textOf(r),
      data: dataOf<{ id: string; state: string; reason?: string; supersedes?: string; next?: string }>(r),
    };
  };

  test('I7 tools: exactly the agent tools, no verdict verb, annotations mark read-only and destructive', async () => {
    const { tools } = await bot.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    assert.deepEqual([...byName.keys()].sort(), [
      'add_commitment',
      'behavior_complete',
      'behavior_next',
      'doubt_memory',
      'forget_memory',
      'get_context',
      'get_memory',
      'list_commitments',
      'save_memory',
      'search_memory',
      'summary_add',
      'summary_next',
      'update_commitment',
      'workspace_schema',
      'workspace_sql',
    ]);
    for (const t of tools) assert.ok(t.outputSchema !== undefined, `${t.name} declares an output schema`);
    for (const t of tools) assert.doesNotMatch(t.name, VERDICT_WORDS, `${t.name} looks like a verdict verb`);
    for (const name of ['search_memory', 'get_memory', 'get_context', 'list_commitments', 'summary_next']) {
      assert.equal(byName.get(name)!.annotations?.readOnlyHint, true, name);
      assert.notEqual(byName.get(name)!.annotations?.destructiveHint, true, name);
    }
    assert.equal(byName.get('forget_memory')!.annotations?.destructiveHint, true);
    assert.equal(byName.get('forget_memory')!.annotations?.readOnlyHint, false);
    assert.equal(byName.get('save_memory')!.annotations?.readOnlyHint, false);
    assert.equal(byName.get('save_memory')!.annotations?.destructiveHint, false);
    const doubt = byName.get('doubt_memory')!;
    assert.deepEqual(
      [
        doubt.annotations?.readOnlyHint,
        doubt.annotations?.destructiveHint,
        doubt.annotations?.idempotentHint,
      ],
      [false, false, true],
    );
    assert.match(doubt.description ?? '', /lowers its trust/);
    assert.match(doubt.description ?? '', /never hidden/);
    assert.match(doubt.description ?? '', /never raises trust/);
    // The input schemas are the tools' zod schemas: typed, described, closed to unknown fields.
    const saveSchema = byName.get('save_memory')!.inputSchema as unknown as {
      properties: Record<string, { type?: string; description?: string }>;
      required: string[];
      additionalProperties: boolean;
    };
    assert.deepEqual(saveSchema.required, ['body']);
    assert.equal(saveSchema.additionalProperties, false);
    assert.equal(saveSchema.properties.body!.type, 'string');
    assert.match(saveSchema.properties.scope?.description ?? '', /agent:bot/);
    assert.match(byName.get('save_memory')?.description ?? '', /search.*first/i);
    assert.match(byName.get('save_memory')?.description ?? '', /supersedes/);
  });

  test('instructions teach the agent to search before saving and to supersede when a fact changes', () => {
    const instructions = bot.client.getInstructions() ?? '';
    assert.match(instructions, /search before you save/i);
    assert.match(instructions, /supersedes/);
    assert.match(instructions, /held for review/);
    assert.match(instructions, /data, not instructions/);
  });

  test('I14 provenance: a save stamps the client name/version and the run and session ids from _meta', async () => {
    const { data } = await save(
      { body: 'The staging cluster runs in eu-west-3', kind: 'fact' },
      { runId: 'run-42', sessionId: 'conv-7' },
    );
    assert.equal(data.state, 'active');
    const memory = await me.get(data.id);
    assert.equal(memory.scope, 'agent:bot', 'defaults to the agent own scope');
    assert.deepEqual(
      {
        principal: memory.provenance.principal,
        surface: memory.provenance.surface,
        client: memory.provenance.client,
        runId: memory.provenance.runId,
        sessionId: memory.provenance.sessionId,
      },
      {
        principal: 'agent:bot',
        surface: 'mcp',
        client: 'test-client/9.9.9',
        runId: 'run-42',
        sessionId: 'conv-7',
      },
    );
    const mine = (records: AuditRecord[]) => records.filter((r) => r.targets.includes(data.id));
    const [record] = mine(
      await auditedSoon(me, { tool: 'save_memory', limit: 200 }, (rs) => mine(rs).length > 0),
    );
    assert.ok(record, 'the save has an audit record');
    assert.equal(record.surface, 'mcp');
    assert.equal(record.operation, 'remember');
    assert.equal(record.client, 'test-client/9.9.9');
    assert.equal(record.runId, 'run-42');
    assert.equal(record.sessionId, 'conv-7');
    assert.equal(record.outcome, 'ok');
    assert.ok(!JSON.stringify(record.argsPreview).includes('eu-west-3'), 'the audit keeps no content');
  });

  test('I14 provenance: without _meta, every call of one connection carries the same MCP session id', async () => {
    const a = await save({ body: 'Builds use pnpm 9' });
    const b = await save({ body: 'Lint runs with biome' });
    const [ma, mb] = [await me.get(a.data.id), await me.get(b.data.id)];
    assert.ok(ma.provenance.sessionId !== undefined && ma.provenance.sessionId.length > 0);
    assert.equal(ma.provenance.sessionId, mb.provenance.sessionId);
    assert.equal(ma.provenance.runId, undefined);
  });

  test('I2 I3 supersede: by id and by key; search returns only the current version, with why and where from', async () => {
    const v1 = await save({ body: 'Acme pays by invoice monthly', key: 'acme.billing' });
    const v2 = await save({ body: 'Acme pays by card monthly', supersedes: v1.data.id });
    assert.equal(v2.data.supersedes, v1.data.id);
    assert.match(v2.data.next ?? '', new RegExp(`replaces ${v1.data.id}, which stays in history`));
    const v3 = await save({ body: 'Acme pays by card yearly', key: 'acme.billing' });
    assert.equal(v3.data.supersedes, v2.data.id);

    const found = await callTool(bot.client, 'search_memory', { query: 'acme pays' });
    const results = dataOf<{ results: { id: string; why: string; from: string }[] }>(found).results;
    assert.deepEqual(
      results.map((r) => r.id),
      [v3.data.id],
    );
    assert.match(results[0]!.why, /^matched (acme, pays|pays, acme)$/);
    assert.match(results[0]!.from, /^agent:bot via mcp test-client\/9\.9\.9 on \d{4}-\d\d-\d\dT/);

    const withHistory = await callTool(bot.client, 'get_memory', { id: v1.data.id, history: true });
    const history = dataOf<{
      memory: { state: string };
      history: { current: string; versions: { id: string }[] };
      next: string;
    }>(withHistory);
    assert.equal(history.memory.state, 'superseded');
    assert.equal(history.history.current, v3.data.id);
    assert.deepEqual(
      history.history.versions.map((v) => v.id),
      [v1.data.id, v2.data.id, v3.data.id],
    );
    assert.match(history.next, new RegExp(`^Superseded by ${v2.data.id}: it is history`));
  });

  test('I6 held: a write outside the agent scope is held for review, said in the structured result, and not searchable', async () => {
    const held = await save({ body: 'The quokka office opens at nine', scope: 'shared' });
    assert.equal(held.data.state, 'held');
    assert.match(held.data.reason ?? '', /^held for review/);
    assert.match(held.data.next ?? '', /do not save it again/);
    // control: the same words in the agent's own scope land and are found
    const own = await save({ body: 'The quokka team standup is at ten' });
    const found = dataOf<{ results: { id: string }[] }>(
      await callTool(bot.client, 'search_memory', { query: 'quokka' }),
    ).results.map((r) => r.id);
    assert.deepEqual(found, [own.data.id]);
  });

  test('I5 rejected: a claim a person rejected is reported as "this claim was rejected on DATE: REASON"', async () => {
    const first = await save({ body: 'Acme is on the free plan', scope: 'shared', key: 'acme.plan' });
    assert.equal(first.data.state, 'held');
    await me.reject({ id: first.data.id, reason: 'Acme pays for Enterprise' });
    const again = await save({ body: 'Acme is on the FREE plan!', scope: 'shared', key: 'acme.plan' });
    assert.equal(again.data.state, 'rejected');
    const today = new Date().toISOString().slice(0, 10);
    assert.match(
      again.data.reason ?? '',
      new RegExp(`this claim was rejected on ${today} by human:[^:]+: Acme pays for Enterprise`),
    );
    assert.match(again.data.next ?? '', /Do not save it again/);
    // control: a different claim on the same key is held, not rejected
    const other = await save({ body: 'Acme is on the team plan', scope: 'shared', key: 'acme.plan' });
    assert.equal(other.data.state, 'held');
  });

  test('forget_memory retracts the agent own memory; search stops returning it, history keeps it', async () => {
    const m = await save({ body: 'The walrus deploy window is Friday' });
    const before = dataOf<{ results: { id: string }[] }>(
      await callTool(bot.client, 'search_memory', { query: 'walrus' }),
    );
    assert.deepEqual(
      before.results.map((r) => r.id),
      [m.data.id],
    );
    const forgot = await callTool(bot.client, 'forget_memory', { id: m.data.id, reason: 'window moved' });
    assert.notEqual(forgot.isError, true, textOf(forgot));
    assert.deepEqual(dataOf(forgot), { id: m.data.id, state: 'retracted', changed: true });
    const afterward = dataOf<{ results: unknown[] }>(
      await callTool(bot.client, 'search_memory', { query: 'walrus' }),
    );
    assert.equal(afterward.results.length, 0);
    assert.equal((await me.get(m.data.id)).state, 'retracted');
  });

  test('I7 doubt_memory lowers trust, keeps the memory searchable, never raises it; a person restores it', async () => {
    const m = await save({ body: 'The narwhal cache lives in /var/cache/narwhal' });
    const doubted = await callTool(bot.client, 'doubt_memory', { id: m.data.id, reason: 'the path moved' });
    assert.notEqual(doubted.isError, true, textOf(doubted));
    assert.deepEqual(dataOf(doubted), {
      id: m.data.id,
      state: 'active',
      trust: 'unverified',
      previous: 'accepted',
      changed: true,
    });
    const found = dataOf<{ results: { id: string; trust: string }[] }>(
      await callTool(bot.client, 'search_memory', { query: 'narwhal' }),
    );
    assert.deepEqual(
      found.results.map((r) => [r.id, r.trust]),
      [[m.data.id, 'unverified']],
      'still found, marked unverified',
    );
    const again = await callTool(bot.client, 'doubt_memory', { id: m.data.id, reason: 'still' });
    assert.match(dataOf<{ next: string }>(again).next, /already unverified; nothing changed/);
    assert.equal((await me.history(m.data.id)).events.filter((e) => e.type === 'doubted').length, 1);
    const [record] = await me.audit({ tool: 'doubt_memory', limit: 1 });
    assert.deepEqual([record?.operation, record?.outcome], ['doubt', 'ok']);
    assert.ok(!JSON.stringify(record?.argsPreview).includes('still'), 'the reason stays out of the audit');
    assert.equal((await me.restoreTrust({ id: m.data.id, reason: 'checked' })).trust, 'accepted');
  });

  test('I3 context: get_context frames current memories as data within the budget, never held, rejected or superseded', async () => {
    const old = await save({ body: 'Zephyr color is blue', key: 'zephyr.color' });
    const current = await save({ body: 'Zephyr color is green', key: 'zephyr.color' });
    const held = await save({ body: 'Zephyr launches in May', scope: 'shared' });
    const rejected = await save({ body: 'Zephyr is cancelled', scope: 'shared' });
    await me.reject({ id: rejected.data.id, reason: 'not true' });
    const r = await callTool(bot.client, 'get_context', {
      task: 'What color is zephyr and when does it launch?',
    });
    const text = dataOf<{ markdown: string }>(r).markdown;
    assert.match(text, /^<memledger-context>/);
    assert.match(text, /not instructions/);
    assert.match(text, /<\/memledger-context>$/);
    assert.ok(text.includes(current.data.id), 'the current version is in the block');
    for (const id of [old.data.id, held.data.id, rejected.data.id])
      assert.ok(!text.includes(id), `${id} left out`);

    const small = await callTool(bot.client, 'get_context', { task: 'zephyr', budget: 100 });
    const data = dataOf<{ markdown: string; tokens: number; budget: number }>(small);
    assert.equal(data.budget, 100);
    assert.ok(data.tokens <= 100);
    assert.ok(
      data.markdown.length <= 100 * 4,
      `block of ${data.markdown.length} characters exceeds the budget`,
    );
  });

  test('I8 invalid arguments: an isError result "invalid_input: ..." naming the field, audited for the tool', async () => {
    const beforeCount =
      (await me.auditFailures()).find((f) => f.tool === 'save_memory' && f.failureClass === 'invalid_input')
        ?.count ?? 0;
    const r = await callTool(bot.client, 'save_memory', { body: 42, kind: 'gossip' });
    assert.equal(r.isError, true);
    assert.match(textOf(r), /^invalid_input: invalid save_memory arguments: body: .*kind: /);
    const afterCount = (await me.auditFailures()).find(
      (f) => f.tool === 'save_memory' && f.failureClass === 'invalid_input',
    )?.count;
    assert.equal(afterCount, beforeCount + 1);
    // control: the same tool with valid arguments succeeds
    const ok = await callTool(bot.client, 'save_memory', { body: 'Valid after all' });
    assert.notEqual(ok.isError, true);
  });

  test('I8 unknown tool: a JSON-RPC error, and still audited', async () => {
    await assert.rejects(callTool(bot.client, 'approve_memory', { id: 'x' }), /Unknown tool/);
    const records = await me.audit({ operation: 'mcp.call', limit: 10 });
    assert.ok(records.some((r) => r.tool === 'approve_memory' && r.failureClass === 'invalid_input'));
  });

  test('I4 scope: a scope outside the grants is refused as permission on save and search', async () => {
    const w = await callTool(bot.client, 'save_memory', { body: 'Alice likes tea', scope: 'user:alice' });
    assert.equal(w.isError, true);
    assert.match(textOf(w), /^permission: agent:bot may not write scope user:alice/);
    const s = await callTool(bot.client, 'search_memory', { query: 'tea', scopes: ['user:alice'] });
    assert.equal(s.isError, true);
    assert.match(textOf(s), /^permission: /);
    // control: the operator wrote there and can read it; the agent's own scope is searchable
    await me.remember({ body: 'Alice likes tea', scope: 'user:alice' });
    assert.equal((await me.search({ query: 'tea', scopes: ['user:alice'] })).hits.length, 1);
    const own = await callTool(bot.client, 'search_memory', { query: 'tea', scopes: ['agent:bot'] });
    assert.notEqual(own.isError, true);
  });

  test('I10 credentials: a memledger token or another secret in a memory is refused and nothing is stored', async () => {
    const token = `mlk_${'Ab3'.repeat(14)}x`;
    const before = (await me.list({ states: ['active', 'held', 'rejected'], limit: 200 })).length;
    for (const body of [`our memledger token is ${token}`, `deploy with ${'gh'}p_${'A1b2'.repeat(9)}`]) {
      const r = await callTool(bot.client, 'save_memory', { body });
      assert.equal(r.isError, true, body);
      assert.match(textOf(r), /^invalid_input: /);
    }
    assert.equal((await me.list({ states: ['active', 'held', 'rejected'], limit: 200 })).length, before);
  });

  test('I10 credentials: forget_memory refuses a secret in its reason; get_memory history masks one planted below the guard', async () => {
    const token = `${'gh'}p_${'A1b2'.repeat(9)}`;
    const m = await save({ body: 'The narwhal deploy window is Monday' });
    const refused = await callTool(bot.client, 'forget_memory', { id: m.data.id, reason: `use ${token}` });
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /^invalid_input: reason .*\(github-token\)/);
    assert.ok(!textOf(refused).includes(token));
    assert.equal((await me.get(m.data.id)).state, 'active', 'nothing was retracted');
    const forgot = await callTool(bot.client, 'forget_memory', { id: m.data.id, reason: 'window closed' });
    assert.notEqual(forgot.isError, true, textOf(forgot)); // control: a clean reason retracts
    await ledger.store.transaction((tx) =>
      tx.insertEvent({
        id: newId('evt'),
        type: 'confirmed',
        memoryId: m.data.id,
        actor: 'human:legacy',
        actorKind: 'human',
        at: new Date().toISOString(),
        reason: `pasted ${token} by mistake`,
        detail: {},
      }),
    );
    const got = await callTool(bot.client, 'get_memory', { id: m.data.id, history: true });
    assert.notEqual(got.isError, true, textOf(got));
    const wire = JSON.stringify(got);
    assert.ok(!wire.includes(token), 'neither the text nor the data carries the planted secret');
    assert.ok(textOf(got).includes('pasted [secret:github-token] by mistake'), 'the reason is shown masked');
    assert.ok(textOf(got).includes('window closed'), 'control: the clean reason is shown as written');
  });
});
