/**
 * The AuditSink contract, run on every backend (sqlite-audit.test.ts, postgres-audit.test.ts): a record comes
 * back as it was written (its message scrubbed), once however often it is written, and the feed's filters,
 * order and limit and the failure counts answer alike (I8, I19).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AuditRecord, AuditSink } from '../../src/audit/record.ts';
import { newId } from '../../src/model/ids.ts';

export interface SinkBackend {
  name: string;
  skip?: string | false;
  /** A sink with no records yet. */
  open(): Promise<AuditSink>;
}

/** A complete record; `at` orders them, and ids are fresh. */
export function auditRecord(at: string, overrides: Partial<AuditRecord> = {}): AuditRecord {
  return {
    id: newId('aud'),
    at,
    principal: 'agent:bot',
    principalKind: 'agent',
    onBehalfOf: 'user:ann',
    surface: 'mcp',
    operation: 'remember',
    tool: 'save_memory',
    tokenId: 'tok_0000000000000000000000',
    sessionId: 'session-1',
    runId: null,
    client: 'claude-code/1.0',
    targets: ['mem_0000000000000000000001'],
    argsHash: 'a'.repeat(64),
    argsPreview: { body: { chars: 31 }, scope: 'shared', nested: [1, 'two', { three: true }] },
    outcome: 'ok',
    failureClass: null,
    message: null,
    changes: [{ id: 'mem_0000000000000000000001', from: null, to: 'active' }],
    durationMs: 1.25,
    ...overrides,
  };
}

export function sinkContract(backend: SinkBackend): void {
  const { skip } = backend;
  const named = (title: string) => `${title} (${backend.name})`;
  const withSink = async (fn: (sink: AuditSink) => Promise<void>) => {
    const sink = await backend.open();
    try {
      await fn(sink);
    } finally {
      await sink.close();
    }
  };

  test(
    named('I8 audit sink: a record reads back as written; a failure message keeps no quoted input'),
    { skip },
    () =>
      withSink(async (sink) => {
        const ok = auditRecord('2026-01-01T00:00:00.000Z');
        const failed = auditRecord('2026-01-01T00:00:01.000Z', {
          outcome: 'error',
          failureClass: 'invalid_input',
          message: 'the key "acme.secret-plan" is too long',
          changes: [],
          targets: [],
          onBehalfOf: null,
        });
        await sink.write(ok);
        await sink.write(failed);
        const [second, first] = await sink.query({});
        assert.deepEqual(first, ok, 'every field round-trips');
        assert.deepEqual(second, { ...failed, message: 'the key "…" is too long' });
      }),
  );

  test(named('I8 audit sink: writing a record twice keeps one, the first'), { skip }, () =>
    withSink(async (sink) => {
      const r = auditRecord('2026-01-01T00:00:00.000Z');
      await sink.write(r);
      await sink.write({ ...r, outcome: 'error', failureClass: 'internal', message: 'moved again' });
      const control = auditRecord('2026-01-01T00:00:01.000Z');
      await sink.write(control);
      const all = await sink.query({});
      assert.deepEqual(
        all.map((x) => [x.id, x.outcome]),
        [
          [control.id, 'ok'],
          [r.id, 'ok'],
        ],
      );
    }),
  );

  test(
    named(
      'I8 audit sink: filters by principal, operation, tool, outcome, class and time, newest first, limited',
    ),
    { skip },
    () =>
      withSink(async (sink) => {
        const at = (s: number) => `2026-02-01T00:00:${String(s).padStart(2, '0')}.000Z`;
        const rs = [
          auditRecord(at(1)),
          auditRecord(at(2), {
            principal: 'human:ann',
            principalKind: 'human',
            operation: 'review.approve',
            tool: null,
          }),
          auditRecord(at(3), { outcome: 'error', failureClass: 'permission', message: 'no grant' }),
          auditRecord(at(4), { operation: 'search', tool: 'search_memory' }),
          auditRecord(at(5), { outcome: 'error', failureClass: 'invalid_input', message: 'bad' }),
          auditRecord(at(6), {
            outcome: 'error',
            failureClass: 'permission',
            message: 'no grant',
            tool: 'other',
          }),
        ];
        for (const r of rs) await sink.write(r);
        const ids = async (filter: Parameters<AuditSink['query']>[0]) =>
          (await sink.query(filter)).map((r) => rs.indexOf(rs.find((x) => x.id === r.id)!) + 1);
        assert.deepEqual(await ids({}), [6, 5, 4, 3, 2, 1]);
        assert.deepEqual(await ids({ principal: 'human:ann' }), [2]);
        assert.deepEqual(await ids({ operation: 'remember' }), [6, 5, 3, 1]);
        assert.deepEqual(await ids({ tool: 'search_memory' }), [4]);
        assert.deepEqual(await ids({ outcome: 'error' }), [6, 5, 3]);
        assert.deepEqual(await ids({ failureClass: 'permission' }), [6, 3]);
        assert.deepEqual(await ids({ since: at(4) }), [6, 5, 4]);
        assert.deepEqual(await ids({ limit: 2 }), [6, 5]);
        assert.deepEqual(await ids({ operation: 'remember', outcome: 'ok' }), [1]);
        assert.deepEqual(await ids({ principal: 'agent:nobody' }), [], 'nothing matches');

        const counts = await sink.failureCounts();
        assert.deepEqual(counts.map((c) => [c.operation, c.tool, c.failureClass, c.count]).sort(), [
          ['remember', 'other', 'permission', 1],
          ['remember', 'save_memory', 'invalid_input', 1],
          ['remember', 'save_memory', 'permission', 1],
        ]);
        assert.deepEqual(
          (await sink.failureCounts(at(4))).map((c) => c.failureClass).sort(),
          ['invalid_input', 'permission'],
          'since drops the earlier failure',
        );
      }),
  );
}
