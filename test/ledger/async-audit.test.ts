/**
 * I8 with an audit sink that answers later (as a database server does): every call's record, allowed or refused,
 * is in the audit store when the call returns or the surface answers, and records moved from the outbox on open
 * are there before the ledger's own records and reads. The sink here is audit.db behind a delay of a few event
 * loop turns; nothing is timed, only ordered.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditRecord, AuditSink } from '../../src/audit/record.ts';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import { isMemoryError } from '../../src/index.ts';
import { ensureHome, homePaths } from '../../src/store/sqlite/home.ts';
import { Ledger } from '../../src/ledger/ledger.ts';
import { acquireConnections } from '../../src/store/sqlite/open-homes.ts';
import { nowIso } from '../../src/model/time.ts';
import { loadPolicy } from '../../src/policy/policy-file.ts';
import { createHttpApp } from '../../src/surfaces/http/app.ts';
import { tempHome } from '../mcp/helpers.ts';

/** A few turns of the event loop: long enough that a write nobody awaited is still pending. */
const later = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

/** The home's ledger over a sink that writes only after a delay, and `stored()`: what audit.db holds right now. */
function slowLedger(home: string, sink: (inner: AuditSink) => AuditSink = (inner) => slow(inner)) {
  ensureHome(home);
  const connections = acquireConnections(home, undefined);
  const inner = connections.audit;
  const ledger = new Ledger(
    home,
    { ...connections, audit: sink(inner) },
    loadPolicy(homePaths(home).policy),
    nowIso,
  );
  return { ledger, stored: () => inner.query({ limit: 1000 }) };
}

function slow(inner: AuditSink): AuditSink {
  return {
    write: async (record) => {
      await later();
      await inner.write(record);
    },
    query: async (filter) => {
      await later();
      return inner.query(filter);
    },
    failureCounts: (since) => inner.failureCounts(since),
    close: () => inner.close(),
  };
}

const ops = (records: AuditRecord[]) => records.map((r) => `${r.operation}:${r.outcome}`);

test('I8 audit: with a sink that answers later, an allowed and a refused call each have their record when they return', async () => {
  const home = tempHome('slow-audit');
  const { ledger, stored } = slowLedger(home.home);
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    await me.remember({ body: 'Deploys happen on Tuesdays', scope: 'shared' });
    assert.deepEqual(
      ops(await stored()),
      ['remember:ok'],
      'the allowed call was recorded before it returned',
    );
    const agent = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
    await assert.rejects(agent.approve({ id: 'mem_0000000000000000000000' }), (e: unknown) =>
      isMemoryError(e, 'permission'),
    );
    assert.deepEqual(
      ops(await stored()),
      ['review.approve:error', 'remember:ok'],
      'the refused call too, before its error reached the caller',
    );
    await ledger.recordSurfaceCall({
      context: { surface: 'http' },
      operation: 'http.request',
      args: {},
      error: new Error('refused before a session'),
      durationMs: 0,
    });
    assert.equal(ops(await stored())[0], 'http.request:error', 'a surface refusal, once awaited');
  } finally {
    ledger.close();
    home.cleanup();
  }
});

test('I8 audit: with a sink that answers later, HTTP answers a refused request only once its record is stored', async () => {
  const home = tempHome('slow-audit-http');
  const { ledger, stored } = slowLedger(home.home);
  const tokens = openTokenStore(home.home);
  const http = createHttpApp({ ledger, tokens });
  try {
    const { secret } = await tokens.create({ name: 'reader-bot', kind: 'service', grants: ['shared:r'] });
    const unknown = await http.app.request('/v1/search', {
      method: 'POST',
      headers: { authorization: `Bearer mlk_${'z'.repeat(43)}` },
      body: '{"query":"deploys"}',
    });
    assert.equal(unknown.status, 401);
    assert.deepEqual(ops(await stored()), ['search:error'], 'the 401 was recorded before it was sent');
    const ok = await http.app.request('/v1/search', {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}` },
      body: '{"query":"deploys"}',
    });
    assert.equal(ok.status, 200, 'control: a valid token is served');
    assert.deepEqual(ops(await stored()), ['search:ok', 'search:error']);
  } finally {
    await http.close();
    await tokens.close();
    ledger.close();
    home.cleanup();
  }
});

test('I8 audit: records left in the outbox are moved on open before the ledger records or reads anything, with a sink that answers later', async () => {
  const home = tempHome('slow-audit-recovery');
  // A sink that refuses every record: the committed call's record stays in memory.db's outbox only.
  const refusing = slowLedger(home.home, (inner) => ({
    ...slow(inner),
    write: async () => {
      throw new Error('audit store down');
    },
  }));
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.message);
  process.on('warning', onWarning);
  try {
    const me = refusing.ledger.as(refusing.ledger.operator(), { surface: 'library' });
    await me.remember({ body: 'Written while the audit store was down', scope: 'shared' });
    await later();
  } finally {
    process.off('warning', onWarning);
    refusing.ledger.close();
  }
  assert.equal(warnings.filter((w) => /audit write failed/.test(w)).length, 1, 'the lost record was warned');

  const { ledger, stored } = slowLedger(home.home);
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    // Asked at once: the read waits for the move, so it sees the recovered record.
    const seen = await me.audit({ operation: 'remember' });
    assert.deepEqual(
      seen.map((r) => [r.operation, (r.argsPreview as { recovered?: boolean }).recovered]),
      [['remember', true]],
    );
    await me.remember({ body: 'Written once the audit store was back', scope: 'shared' });
    const order = (await stored()).filter((r) => r.operation === 'remember').reverse();
    assert.deepEqual(
      order.map((r) => (r.argsPreview as { recovered?: boolean }).recovered === true),
      [true, false],
      'the moved record landed before the new call',
    );
  } finally {
    ledger.close();
    home.cleanup();
  }
});

test('I8 audit: a written call tells the sink its record is backed by the outbox; a read and a refusal do not', async () => {
  const home = tempHome('backed-audit');
  const told: { operation: string; outcome: string; backed: boolean }[] = [];
  // What the sink is told reaches it through the ledger's recovery wrapper (a Postgres sink then commits the
  // backed record without waiting for its own fsync, postgres-audit.ts).
  const recording = (inner: AuditSink): AuditSink => ({
    ...inner,
    write: async (record, options) => {
      told.push({ operation: record.operation, outcome: record.outcome, backed: options?.backed === true });
      await inner.write(record, options);
    },
    query: (filter) => inner.query(filter),
    failureCounts: (since) => inner.failureCounts(since),
    close: () => inner.close(),
  });
  const { ledger } = slowLedger(home.home, recording);
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    await me.remember({ body: 'Deploys happen on Tuesdays', scope: 'shared' });
    await me.search({ query: 'deploys', scopes: ['shared'] });
    await me.remember({ body: '', scope: 'shared' }).catch(() => undefined);
    assert.deepEqual(told, [
      { operation: 'remember', outcome: 'ok', backed: true },
      { operation: 'search', outcome: 'ok', backed: false },
      { operation: 'remember', outcome: 'error', backed: false },
    ]);
  } finally {
    ledger.close();
    home.cleanup();
  }
});
