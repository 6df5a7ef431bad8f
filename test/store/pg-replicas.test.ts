/**
 * Several `memledger serve` replicas on one Postgres database (issue 10, "Replicas"; I2, I8, I13): three real
 * server processes on one tenant, eight concurrent HTTP writers spread across them, supersedes of one memory
 * raced through all three, one replica killed with SIGKILL mid-load; the survivors answer every acknowledged
 * write, its search and its audit record, and the killed replica's in-flight writes landed whole or not at all.
 * An MCP client whose requests alternate between two replicas keeps one session; a review stream on one replica
 * is woken by a write held through another.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { AuditRecord } from '../../src/audit/record.ts';
import type { Memory } from '../../src/model/memory.ts';
import { callTool, textOf } from '../mcp/helpers.ts';
import { type ServeProcess, startServe } from '../mcp/serve-process.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { newTenant, openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

const WRITERS = 8;
const WRITES_EACH = 40;
/** The replica killed once this many writes were acknowledged in all: mid-load, by count, not by time. */
const KILL_AFTER = 120;
const RACE_ROUNDS = 4;
const RACERS_PER_REPLICA = 3;

/** One HTTP call to a replica: the status and the JSON answer. */
async function call(
  base: string,
  secret: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: unknown }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

/**
 * Replicas without an embedder: the word index is what this checks ("found by its own word, and nothing else");
 * search by meaning would add the writers' near-identical bodies. Vector search has its own tests (test/embed,
 * the I4 and I9 vector cases).
 */
const noVectors = { env: { MEMLEDGER_EMBEDDER: 'off' } };

/** A word the search index keeps whole and nothing else contains: writer and sequence in letters. */
const mark = (writer: number, n: number) =>
  `zq${String.fromCharCode(97 + writer)}${[...String(n)].map((d) => String.fromCharCode(97 + Number(d))).join('')}x`;

/** Reads an event stream frame by frame; `null` once the server ended it. */
function frames(res: Response): { next(): Promise<string | null>; cancel(): Promise<void> } {
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  return {
    async next() {
      while (!text.includes('\n\n')) {
        const { value, done } = await reader.read();
        if (done) return null;
        text += value;
      }
      const at = text.indexOf('\n\n');
      const frame = text.slice(0, at);
      text = text.slice(at + 2);
      return frame;
    },
    cancel: () => reader.cancel(),
  };
}

let db: PgTestDatabase;
let tenant: string;
let storeUrl: string;
const secrets = new Map<string, string>();
const replicas: ServeProcess[] = [];

describe('postgres: three serve replicas on one database', { skip }, () => {
  before(async () => {
    if ('skip' in cluster) return;
    db = await pgTestDatabase(cluster.url);
    tenant = newTenant();
    const url = new URL(db.appUrl);
    url.searchParams.set('tenant', tenant);
    storeUrl = url.toString();
    const h = await openPgLedger(db, { tenant });
    const tokens = await h.ledger.openTokens();
    try {
      for (let i = 0; i < WRITERS; i++) {
        secrets.set(`w${i}`, (await tokens.create({ name: `writer-${i}`, kind: 'agent' })).secret);
      }
      secrets.set('racer', (await tokens.create({ name: 'racer', kind: 'agent' })).secret);
      secrets.set('mcp', (await tokens.create({ name: 'mcp-bot', kind: 'agent' })).secret);
      secrets.set(
        'proposer',
        (await tokens.create({ name: 'proposer', kind: 'agent', grants: ['shared:rw'] })).secret,
      );
      secrets.set(
        'ops',
        (
          await tokens.create({
            name: 'ops',
            kind: 'human',
            roles: ['reader', 'writer', 'reviewer', 'admin'],
            grants: ['*:rw'],
          })
        ).secret,
      );
    } finally {
      await tokens.close();
      await h.close();
    }
    for (let i = 0; i < 3; i++) replicas.push(await startServe(storeUrl, noVectors));
  });
  after(async () => {
    if ('skip' in cluster) return;
    for (const r of replicas) await r.kill('SIGKILL');
    await db.drop();
  });

  test('I2 one successor across replicas: concurrent supersedes of one memory through all three leave exactly one active successor, the rest conflict', async () => {
    const racer = secrets.get('racer')!;
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const original = await call(replicas[round % 3]!.url, racer, 'POST', '/v1/memories', {
        body: `The race round ${round} value is the original`,
        scope: 'agent:racer',
      });
      assert.equal(original.status, 201, JSON.stringify(original.json));
      const target = (original.json as { id: string }).id;
      const attempts = replicas.flatMap((r, ri) =>
        Array.from({ length: RACERS_PER_REPLICA }, (_, k) =>
          call(r.url, racer, 'POST', '/v1/memories', {
            body: `The race round ${round} value is candidate ${ri}-${k}`,
            scope: 'agent:racer',
            supersedes: target,
          }),
        ),
      );
      const answers = await Promise.all(attempts);
      const won = answers.filter((a) => a.status === 201);
      const lost = answers.filter((a) => a.status === 409);
      assert.equal(won.length, 1, `round ${round}: ${JSON.stringify(answers)}`);
      assert.equal(lost.length, answers.length - 1, `round ${round}: every other attempt is a conflict`);
      for (const l of lost) assert.equal((l.json as { error: { class: string } }).error.class, 'conflict');
      const winner = (won[0]!.json as { id: string; state: string }).id;
      assert.equal((won[0]!.json as { state: string }).state, 'active');
      // Every replica sees the same outcome: the winner active, the original superseded by it.
      for (const r of replicas) {
        const now = await call(r.url, racer, 'GET', `/v1/memories/${target}`);
        assert.equal((now.json as Memory).state, 'superseded');
        assert.equal((now.json as Memory).supersededBy, winner);
        assert.equal(
          ((await call(r.url, racer, 'GET', `/v1/memories/${winner}`)).json as Memory).state,
          'active',
        );
      }
    }
  });

  test("I13 durable with replicas: eight writers across three replicas, one replica SIGKILLed mid-load; every acknowledged write is present, searchable and audited through the survivors, the killed one's in-flight writes landed whole or not at all", async (t) => {
    const killed = replicas[2]!;
    const acknowledged: { writer: number; id: string; body: string; mark: string }[] = [];
    /** Writes the killed replica had taken when it died: their outcome is unknown to the writer. */
    const inFlight: { writer: number; body: string; mark: string }[] = [];
    let dead = false;
    const writer = async (w: number) => {
      const secret = secrets.get(`w${w}`)!;
      for (let n = 0; n < WRITES_EACH; n++) {
        // Round robin over the replicas still up, starting at a different one per writer.
        const alive = dead ? replicas.slice(0, 2) : replicas;
        const replica = alive[(w + n) % alive.length]!;
        const word = mark(w, n);
        const body = `Writer ${w} notes item ${n} tagged ${word}`;
        try {
          const r = await call(replica.url, secret, 'POST', '/v1/memories', {
            body,
            scope: `agent:writer-${w}`,
          });
          assert.equal(r.status, 201, JSON.stringify(r.json));
          assert.equal((r.json as { state: string }).state, 'active');
          acknowledged.push({ writer: w, id: (r.json as { id: string }).id, body, mark: word });
          if (acknowledged.length === KILL_AFTER) {
            dead = true;
            await killed.kill('SIGKILL');
          }
        } catch (error) {
          // Only the killed replica may fail a request, and only once it is killed.
          if (replica !== killed || !dead) throw error;
          inFlight.push({ writer: w, body, mark: word });
        }
      }
    };
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    assert.ok(dead, 'the replica was killed mid-load');
    assert.ok(acknowledged.length >= KILL_AFTER, 'writes were acknowledged before and after the kill');
    assert.equal(acknowledged.length + inFlight.length, WRITERS * WRITES_EACH);

    // A replica started in the killed one's place moves the audit records it left in the outbox (I8).
    const restarted = await startServe(storeUrl, noVectors);
    replicas[2] = restarted;
    const ops = secrets.get('ops')!;
    assert.equal((await call(restarted.url, ops, 'GET', '/v1/audit?limit=1')).status, 200);

    const [a, b] = [replicas[0]!, replicas[1]!];
    const audit = (await call(a.url, ops, 'GET', '/v1/audit?operation=remember&limit=10000')).json as {
      records: AuditRecord[];
    };
    const auditedOk = new Map<string, AuditRecord[]>();
    for (const r of audit.records) {
      if (r.outcome !== 'ok') continue;
      for (const t of r.targets) auditedOk.set(t, [...(auditedOk.get(t) ?? []), r]);
    }
    for (const [i, ack] of acknowledged.entries()) {
      const survivor = i % 2 === 0 ? a : b;
      const secret = secrets.get(`w${ack.writer}`)!;
      const got = await call(survivor.url, secret, 'GET', `/v1/memories/${ack.id}`);
      assert.equal(got.status, 200, `acknowledged ${ack.id} is there`);
      assert.equal((got.json as Memory).state, 'active');
      assert.equal((got.json as Memory).body, ack.body);
      const found = (await call(survivor.url, secret, 'POST', '/v1/search', { query: ack.mark })).json as {
        hits: { memory: Memory }[];
      };
      assert.deepEqual(
        found.hits.map((h) => h.memory.id),
        [ack.id],
        `acknowledged ${ack.id} is found by its own word, and nothing else is`,
      );
      assert.equal(auditedOk.get(ack.id)?.length, 1, `acknowledged ${ack.id} has one audit record`);
    }

    let landedInFlight = 0;
    // Each writer's scope holds its acknowledged writes and, of its in-flight ones, only whole ones.
    for (let w = 0; w < WRITERS; w++) {
      const secret = secrets.get(`w${w}`)!;
      const listed = (
        (await call(a.url, secret, 'GET', `/v1/memories?limit=200&scopes=agent:writer-${w}`)).json as {
          memories: Memory[];
        }
      ).memories;
      const mine = acknowledged.filter((x) => x.writer === w);
      const pending = inFlight.filter((x) => x.writer === w);
      const byBody = new Map(listed.map((m) => [m.body, m]));
      for (const ack of mine) assert.equal(byBody.get(ack.body)?.id, ack.id);
      for (const p of pending) {
        const landed = byBody.get(p.body);
        if (landed === undefined) continue;
        landedInFlight++;
        assert.equal(landed.state, 'active');
        assert.equal(
          auditedOk.get(landed.id)?.length,
          1,
          `in-flight ${landed.id} landed with its audit record`,
        );
      }
      assert.equal(
        listed.length,
        mine.length + pending.filter((p) => byBody.has(p.body)).length,
        `writer ${w}'s scope holds nothing else`,
      );
    }
    const recovered = audit.records.filter(
      (r) => (r.argsPreview as { recovered?: boolean }).recovered === true,
    ).length;
    t.diagnostic(
      `acknowledged ${acknowledged.length}, in flight at the kill ${inFlight.length} (landed ${landedInFlight}), audit records recovered from the outbox ${recovered}`,
    );
  });

  test('MCP over Streamable HTTP: one client whose requests alternate between two replicas keeps its session, and what one replica showed the other suppresses', async () => {
    const [a, b] = [replicas[0]!, replicas[1]!];
    let turn = 0;
    const answered = [0, 0];
    const alternate: typeof fetch = (input, init) => {
      const i = turn++ % 2;
      answered[i]!++;
      const url = new URL(input instanceof Request ? input.url : String(input));
      url.port = String([a, b][i]!.port);
      return fetch(url, init);
    };
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import(
      '@modelcontextprotocol/sdk/client/streamableHttp.js'
    );
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', a.url), {
      requestInit: { headers: { authorization: `Bearer ${secrets.get('mcp')!}` } },
      fetch: alternate,
    });
    const client = new Client({ name: 'replica-client', version: '1.0.0' });
    await client.connect(transport);
    try {
      const saved = (r: CallToolResult) => {
        assert.notEqual(r.isError, true, textOf(r));
        return (r.structuredContent as { id: string }).id;
      };
      const ids: string[] = [];
      for (const body of ['The heron service deploys on Mondays', 'The heron service pages on Fridays']) {
        ids.push(saved(await callTool(client, 'save_memory', { body })));
      }
      const first = JSON.stringify(await callTool(client, 'get_context', { task: 'heron service schedule' }));
      for (const id of ids) assert.ok(first.includes(id), `the first context shows ${id}`);
      const second = JSON.stringify(
        await callTool(client, 'get_context', { task: 'heron service schedule' }),
      );
      for (const id of ids) assert.ok(!second.includes(id), `the other replica knows ${id} was shown`);
      const found = JSON.stringify(await callTool(client, 'search_memory', { query: 'heron service' }));
      for (const id of ids) assert.ok(found.includes(id), 'control: search finds both');
      assert.ok(answered[0]! >= 3 && answered[1]! >= 3, JSON.stringify(answered));
    } finally {
      await client.close();
    }
  });

  // The watch polls only once a minute and the test's timeout is shorter: the pulse can only come from the
  // other replica's NOTIFY waking this one's LISTEN.
  test(
    'the review event stream of one replica is woken by a write held through another (LISTEN/NOTIFY), long before its next poll',
    { timeout: 30_000 },
    async () => {
      const [a, b] = [replicas[0]!, replicas[1]!];
      const ops = secrets.get('ops')!;
      const res = await fetch(`${a.url}/v1/review/events?intervalMs=60000&maxMs=3600000`, {
        headers: { authorization: `Bearer ${ops}` },
      });
      assert.equal(res.status, 200);
      const stream = frames(res);
      try {
        const pulse = (frame: string | null) =>
          JSON.parse(frame!.slice(frame!.indexOf('data: ') + 6)) as {
            pending: number;
            newest: string | null;
          };
        const first = await stream.next();
        assert.match(first ?? '', /event: pulse/);
        const before = pulse(first);
        // An agent's write to shared is held for a person (the default policy), through the other replica.
        const held = await call(b.url, secrets.get('proposer')!, 'POST', '/v1/memories', {
          body: 'The shared heron runbook lives in the wiki',
          scope: 'shared',
        });
        assert.equal(held.status, 201, JSON.stringify(held.json));
        assert.equal((held.json as { state: string }).state, 'held');
        const heldId = (held.json as { id: string }).id;
        const frame = await stream.next();
        assert.match(frame ?? '', /^event: pulse/, 'the next frame is the change, not a tick');
        assert.deepEqual(pulse(frame), { pending: before.pending + 1, more: false, newest: heldId });
      } finally {
        await stream.cancel();
      }
    },
  );
});
