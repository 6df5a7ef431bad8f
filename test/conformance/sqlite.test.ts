/**
 * The conformance suite on the embedded SQLite backend, plus what only SQLite can show: the triggers behind I1
 * refusing raw SQL, and a writer killed with SIGKILL leaving an intact database (I13).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import type { AuditSink } from '../../src/audit/record.ts';
import { openLedger } from '../../src/index.ts';
import { Ledger } from '../../src/ledger/ledger.ts';
import { acquireConnections } from '../../src/store/sqlite/open-homes.ts';
import { nowIso } from '../../src/model/time.ts';
import { DEFAULT_POLICY_DOCUMENT, parsePolicy } from '../../src/policy/policy-file.ts';
import { type ConformanceFactory, withHome } from './harness.ts';
import { filesContaining, importedMemoryLine, linesOf, startWriter, uniqueWord } from './helpers.ts';

/** Another process reading memory.db inside one transaction for `ms`: it pins the write-ahead log meanwhile. */
function holdRead(home: string, ms: number): { reading: Promise<void>; done: Promise<void>; stop(): void } {
  const script = `const { DatabaseSync } = require('node:sqlite');
    const db = new DatabaseSync(process.argv[1]);
    db.exec('BEGIN'); db.prepare('SELECT count(*) FROM memories').get();
    process.stdout.write('reading\\n');
    setTimeout(() => { db.exec('COMMIT'); db.close(); }, Number(process.argv[2]));`;
  const child = spawn(process.execPath, ['-e', script, join(home, 'memory.db'), String(ms)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const reading = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const done = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { reading, done, stop: () => child.kill('SIGKILL') };
}
import { conformanceSuite } from './suite.ts';

const sqliteHome: ConformanceFactory = async (options = {}) => {
  const home = mkdtempSync(join(tmpdir(), 'memledger-conformance-'));
  const ledger = openLedger({ home, ...options });
  return {
    ledger,
    home,
    capabilities: { files: true, processes: true },
    async cleanup() {
      ledger.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
};

conformanceSuite('sqlite', sqliteHome);

/** Runs `fn` on a second, raw connection to a home's database, the way a person with sqlite3 would. */
function raw<T>(home: string, file: 'memory.db' | 'audit.db', fn: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(join(home, file));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const refuses = (db: DatabaseSync, sql: string, params: (string | null)[], pattern: RegExp) =>
  assert.throws(() => db.prepare(sql).run(...params), pattern, sql);

// Each content column and a value that differs from what the test writes.
const CONTENT_CHANGES: [string, string | null][] = [
  ['body', 'rewritten'],
  ['scope', 'user:mallory'],
  ['kind', 'note'],
  ['key', 'other.key'],
  ['value', '{"x":2}'],
  ['subjects', '[]'],
  ['valid_from', '1999-01-01T00:00:00.000Z'],
  ['valid_to', null],
  ['confidence', '0.1'],
  ['supersedes', null],
  ['fingerprint', 'forged'],
  ['provenance', '{"principal":"human:ceo","principalKind":"human","surface":"cli"}'],
  ['recorded_at', '1999-01-01T00:00:00.000Z'],
];

describe('conformance: sqlite only', () => {
  test('I1 append-only (sqlite): memory.db refuses UPDATE of every content column and DELETE, by trigger', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const a = await me.remember({
        body: 'Written once',
        scope: 'shared',
        key: 'once',
        value: { x: 1 },
        subjects: ['company:acme'],
        validFrom: '2030-01-01',
        validTo: '2031-01-01',
        confidence: 0.9,
      });
      const before = await me.get(a.id);
      raw(home, 'memory.db', (db) => {
        for (const [column, value] of CONTENT_CHANGES) {
          refuses(db, `UPDATE memories SET ${column} = ? WHERE id = ?`, [value, a.id], /I1 append-only/);
        }
        refuses(db, 'DELETE FROM memories WHERE id = ?', [a.id], /I1 append-only/);
        refuses(db, 'DELETE FROM memories', [], /I1 append-only/);
      });
      assert.deepEqual(await me.get(a.id), before);
    }));

  test('I1 append-only (sqlite): lifecycle columns do change in place', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const a = await me.remember({ body: 'Lifecycle moves', scope: 'shared' });
      raw(home, 'memory.db', (db) => {
        db.prepare(`UPDATE memories SET trust = 'unverified', rule = 'manual' WHERE id = ?`).run(a.id);
        db.prepare(
          `UPDATE memories SET state = 'retracted', active_until = '2040-01-01T00:00:00.000Z' WHERE id = ?`,
        ).run(a.id);
      });
      const after = await me.get(a.id);
      assert.deepEqual(
        [after.state, after.trust, after.body],
        ['retracted', 'unverified', 'Lifecycle moves'],
      );
    }));

  test('I1 append-only (sqlite): erasure is the one exception, and only to the blank tombstone form', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const a = await me.remember({
        body: 'To be erased',
        scope: 'shared',
        key: 'erase.me',
        value: { v: 1 },
        subjects: ['person:x@example.com'],
      });
      const at = '2040-01-01T00:00:00.000Z';
      raw(home, 'memory.db', (db) => {
        const partial = [
          `UPDATE memories SET body = '' WHERE id = ?`,
          `UPDATE memories SET state = 'erased', erased_at = '${at}', body = 'kept', value = NULL, key = NULL, subjects = '[]' WHERE id = ?`,
          `UPDATE memories SET state = 'erased', erased_at = '${at}', body = '', value = NULL, key = 'kept', subjects = '[]' WHERE id = ?`,
          `UPDATE memories SET state = 'erased', erased_at = NULL, body = '', value = NULL, key = NULL, subjects = '[]' WHERE id = ?`,
          `UPDATE memories SET state = 'erased', erased_at = '${at}', body = '', value = NULL, key = NULL, subjects = '[]', scope = 'shared2' WHERE id = ?`,
          // Marking erased while keeping the content would make the content unerasable forever.
          `UPDATE memories SET state = 'erased' WHERE id = ?`,
          // A tombstone keeps no fingerprint: a hash of short text is reversed by hashing guesses (I9).
          `UPDATE memories SET state = 'erased', erased_at = '${at}', body = '', value = NULL, key = NULL, subjects = '[]' WHERE id = ?`,
        ];
        for (const sql of partial) refuses(db, sql, [a.id], /I1 append-only|I9 erasure/);
        db.prepare(
          `UPDATE memories SET state = 'erased', erased_at = ?, body = '', value = NULL, key = NULL, subjects = '[]', fingerprint = '' WHERE id = ?`,
        ).run(at, a.id);
        refuses(db, `UPDATE memories SET state = 'active' WHERE id = ?`, [a.id], /I9 erasure is final/);
        refuses(db, `UPDATE memories SET body = 'resurrected' WHERE id = ?`, [a.id], /I1 append-only/);
      });
      const erased = await me.get(a.id);
      assert.deepEqual([erased.state, erased.body, erased.key], ['erased', '', null]);
    }));

  test('I1 append-only (sqlite): events refuse UPDATE and DELETE; only blanking a reason (erasure) passes', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const a = await me.remember({ body: 'Has events', scope: 'shared' });
      await me.retract({ id: a.id, reason: 'a reason to blank' });
      raw(home, 'memory.db', (db) => {
        const row = db
          .prepare(`SELECT id FROM events WHERE memory_id = ? AND type = 'retracted'`)
          .get(a.id) as { id: string };
        for (const [column, value] of [
          ['type', 'approved'],
          ['actor', 'human:ceo'],
          ['at', '1999-01-01T00:00:00.000Z'],
          ['detail', '{}x'],
          ['memory_id', 'mem_x'],
          ['reason', 'rewritten reason'],
        ] as const) {
          refuses(db, `UPDATE events SET ${column} = ? WHERE id = ?`, [value, row.id], /I1 append-only/);
        }
        refuses(db, 'DELETE FROM events WHERE id = ?', [row.id], /I1 append-only/);
        db.prepare('UPDATE events SET reason = NULL WHERE id = ?').run(row.id);
      });
      const events = (await me.history(a.id)).events.map((e) => [e.type, e.reason]);
      assert.deepEqual(events, [
        ['appended', null],
        ['retracted', null],
      ]);
    }));

  test('I1 append-only (sqlite): rejections refuse UPDATE and DELETE; only blanking a reason (erasure) passes', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const a = await me.remember({ body: 'Will be rejected', scope: 'shared' });
      await me.reject({ id: a.id, reason: 'not so', expect: 'active' });
      raw(home, 'memory.db', (db) => {
        for (const [column, value] of [
          ['fingerprint', 'forged'],
          ['scope', 'user:elsewhere'],
          // Another id: the last character changed (never to itself, or the UPDATE would change nothing).
          ['memory_id', a.id.replace(/.$/, a.id.endsWith('0') ? '1' : '0')],
          ['by', 'human:ceo'],
          ['at', '1999-01-01T00:00:00.000Z'],
          ['reason', 'rewritten reason'],
        ] as const) {
          refuses(
            db,
            `UPDATE rejections SET ${column} = ? WHERE memory_id = ?`,
            [value, a.id],
            /I5 rejection stands/,
          );
        }
        refuses(db, 'DELETE FROM rejections WHERE memory_id = ?', [a.id], /I5 rejection stands/);
        db.prepare(`UPDATE rejections SET reason = '' WHERE memory_id = ?`).run(a.id);
      });
      const again = await me.remember({ body: 'Will be rejected', scope: 'shared' });
      assert.equal(again.state, 'rejected', 'the rejection still stands');
      await me.unreject({ id: a.id, reason: 'it is so after all' });
      raw(home, 'memory.db', (db) => {
        for (const sql of [
          `UPDATE rejections SET lifted_at = '2040-01-01T00:00:00.000Z' WHERE memory_id = ?`,
          `UPDATE rejections SET lifted_by = 'human:ceo' WHERE memory_id = ?`,
          `UPDATE rejections SET lifted_at = NULL, lifted_by = NULL, lift_reason = NULL WHERE memory_id = ?`,
        ])
          refuses(db, sql, [a.id], /I5 rejection stands/);
      });
      const landed = await me.remember({ body: 'Will be rejected', scope: 'shared' });
      assert.equal(
        landed.state,
        'active',
        'a lifted rejection no longer stands, and cannot be put back by hand',
      );
    }));

  test('I8 audit (sqlite): audit.db refuses UPDATE and DELETE of its records', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      await me.remember({ body: 'Audited', scope: 'shared' });
      const records = (await me.audit()).length;
      raw(home, 'audit.db', (db) => {
        refuses(db, `UPDATE audit SET outcome = 'error'`, [], /I8 audit is append-only/);
        refuses(db, `UPDATE audit SET principal = 'human:nobody'`, [], /I8 audit is append-only/);
        refuses(db, 'DELETE FROM audit', [], /I8 audit is append-only/);
      });
      assert.equal((await me.audit()).length, records + 1);
    }));

  test('I8 audit (sqlite): outbox rows left by killed writers hold no content, and reopening clears them once audit.db has them', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      ledger.close(); // the test reopens the home itself, so every open below starts its connections afresh
      const outbox = () =>
        raw(home, 'memory.db', (db) =>
          db.prepare('SELECT id, record FROM audit_outbox ORDER BY id').all(),
        ) as { id: string; record: string }[];
      const before = startWriter(home, 'before', 5, { at: 3, action: 'kill' });
      assert.equal((await before.exited).signal, 'SIGKILL');
      const [lost] = outbox();
      assert.equal(outbox().length, 1, 'the writer killed before its audit write left its last row');
      assert.ok(!lost!.record.includes('wrote memory number'), 'no body in an outbox row');
      assert.match(lost!.record, /"operation":"remember"/, 'control: it is the remember record');
      // The next writer's open moves that row to audit.db; its next commit deletes it. Killed after its own
      // audit write, it leaves its own last row, whose record audit.db already holds.
      const after = startWriter(home, 'after', 5, { at: 3, action: 'kill-after' });
      assert.equal((await after.exited).signal, 'SIGKILL');
      const left = outbox();
      assert.equal(left.length, 1);
      assert.notEqual(left[0]!.id, lost!.id);
      assert.match(left[0]!.record, /agent:after/);
      const reopened = openLedger({ home });
      const records = await reopened.as(reopened.operator()).audit({ operation: 'remember', limit: 100 });
      reopened.close();
      assert.equal(records.length, 6, 'three writes of each writer, one record each');
      assert.deepEqual(
        records.filter((r) => (r.argsPreview as { recovered?: boolean }).recovered === true).map((r) => r.id),
        [lost!.id],
        'only the record that never reached audit.db is recovered',
      );
      const remaining = raw(home, 'memory.db', (db) => db.prepare('SELECT id FROM audit_outbox').all());
      assert.deepEqual(remaining, [], 'the outbox is empty once audit.db holds every record');
      const ids = raw(home, 'audit.db', (db) => db.prepare('SELECT id FROM audit').all()) as { id: string }[];
      assert.equal(new Set(ids.map((r) => r.id)).size, ids.length, 'no audit id twice');
    }));

  test('I8 audit (sqlite): every call that commits to memory.db leaves its record in the outbox when audit.db refuses it; the next open moves each', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      ledger.close();
      // A ledger whose audit store refuses every record: only the outbox keeps them.
      const connections = acquireConnections(home, undefined);
      const inner = connections.audit;
      const refusing: AuditSink = {
        write: () => {
          throw new Error('audit.db refused the record');
        },
        query: (filter) => inner.query(filter),
        failureCounts: (since) => inner.failureCounts(since),
        close: () => inner.close(),
      };
      const broken = new Ledger(
        home,
        { ...connections, audit: refusing },
        parsePolicy(DEFAULT_POLICY_DOCUMENT),
        nowIso,
      );
      const me = broken.as(broken.operator(), { surface: 'library', sessionId: 'outbox-test' });
      const agent = broken.as(broken.principal('agent:bot'), { surface: 'library' });
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.message);
      process.on('warning', onWarning);
      try {
        const a = await me.remember({
          body: 'Deploys happen on Tuesdays',
          scope: 'shared',
          key: 'deploy.day',
        });
        const held = await agent.remember({ body: 'Deploys happen on Fridays', scope: 'shared' });
        const again = await agent.remember({ body: 'Deploys happen on Mondays', scope: 'shared' });
        await me.approve({ id: held.id });
        await me.reject({ id: again.id, reason: 'not so' });
        await me.confirm({ id: a.id });
        await me.claim({ scope: 'shared', key: 'deploy.day' });
        await me.release({ scope: 'shared', key: 'deploy.day' });
        await me.retract({ id: a.id, reason: 'moved' });
        await me.import(
          linesOf([importedMemoryLine({ scope: 'shared', body: 'Imported note', at: nowIso() })]),
        );
        await me.feedAdd({ name: 'notes', connector: 'folder', config: { path: home } });
        await me.feedUpdate({ name: 'notes', lastError: null });
        await me.feedRemove('notes');
        await me.reindex();
        await me.remember({
          body: 'Call Ann on Thursdays',
          scope: 'shared',
          subjects: ['person:ann@example.com'],
        });
        await me.erase({ subject: 'person:ann@example.com' });
        // Reads commit nothing, so they have no row: with audit.db refusing, their records are lost (and warned).
        await me.search({ query: 'deploys' });
        await me.list({ limit: 5 });
        await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
      } finally {
        process.off('warning', onWarning);
        broken.close();
      }
      assert.equal(
        warnings.filter((w) => /audit write failed/.test(w)).length,
        18,
        'each lost record is warned',
      );

      const reopened = openLedger({ home });
      try {
        const records = await reopened.as(reopened.operator()).audit({ limit: 100 });
        const recovered = records
          .filter((r) => (r.argsPreview as { recovered?: boolean }).recovered === true)
          .map((r) => r.operation)
          .sort();
        assert.deepEqual(recovered, [
          'claim',
          'confirm',
          'erase',
          'feeds.add',
          'feeds.remove',
          'feeds.update',
          'import',
          'reindex',
          'release',
          'remember',
          'remember',
          'remember',
          'remember',
          'retract',
          'review.approve',
          'review.reject',
        ]);
        assert.deepEqual(
          records.filter((r) => r.operation === 'search' || r.operation === 'list'),
          [],
          'control: calls that committed nothing left nothing to recover',
        );
      } finally {
        reopened.close();
      }
    }));

  test('I13 durable (sqlite): a writer killed with SIGKILL mid-load keeps every id it printed, and the files stay intact', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const doomed = startWriter(home, 'doomed', 1_000_000);
      const survivor = startWriter(home, 'survivor', 200);
      await doomed.printed(300);
      doomed.kill('SIGKILL');
      const [killed, survived] = await Promise.all([doomed.exited, survivor.exited]);
      assert.equal(killed.signal, 'SIGKILL', `the writer was killed mid-load: ${killed.stderr}`);
      assert.ok(doomed.ids.length >= 300 && doomed.ids.length < 1_000_000);
      assert.equal(survived.code, 0, survived.stderr);
      assert.equal(survivor.ids.length, 200);

      const me = ledger.as(ledger.operator());
      for (const id of [...doomed.ids, ...survivor.ids]) assert.equal((await me.get(id)).state, 'active', id);
      for (const file of ['memory.db', 'audit.db'] as const) {
        raw(home, file, (db) => {
          const rows = db
            .prepare('PRAGMA integrity_check')
            .all()
            .map((r) => ({ ...r }));
          assert.deepEqual(rows, [{ integrity_check: 'ok' }], file);
        });
      }
      raw(home, 'memory.db', (db) => {
        db.exec(`INSERT INTO fts_current(fts_current) VALUES ('integrity-check')`);
        db.exec(`INSERT INTO fts_history(fts_history) VALUES ('integrity-check')`);
      });
      // The home keeps working after the crash.
      const after = await me.remember({ body: 'Written after the crash', scope: 'shared' });
      assert.equal((await me.get(after.id)).state, 'active');
    }));

  test('I9 erasure (sqlite): a reader holding the write-ahead log delays the checkpoint, which is retried until the bytes are gone', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const secret = uniqueWord('wal');
      const control = uniqueWord('kept');
      await me.remember({
        body: `The locker code word is ${secret}`,
        scope: 'shared',
        subjects: ['person:wal@example.com'],
      });
      await me.remember({ body: `Control ${control}`, scope: 'shared' });
      const reader = holdRead(home, 1_200);
      await reader.reading;
      const result = await me.erase({ subject: 'person:wal@example.com' });
      assert.equal(result.checkpointed, true, 'retried past the reader');
      await reader.done;
      assert.deepEqual(filesContaining(home, secret), []);
      assert.ok(filesContaining(home, control).length > 0, 'control: other content is still on disk');
    }));

  test('I9 erasure (sqlite): a reader that outlasts every attempt is reported honestly, and the next checkpoint clears the bytes', () =>
    withHome(sqliteHome, async ({ ledger, home }) => {
      const me = ledger.as(ledger.operator());
      const secret = uniqueWord('wal');
      await me.remember({
        body: `The vault code word is ${secret}`,
        scope: 'shared',
        subjects: ['person:vault@example.com'],
      });
      const reader = holdRead(home, 30_000);
      await reader.reading;
      const result = await me.erase({ subject: 'person:vault@example.com' });
      assert.equal(result.checkpointed, false, 'bytes remain, and the result says so');
      assert.ok(
        filesContaining(home, secret).some((f) => f.endsWith('-wal')),
        'they remain in the write-ahead log',
      );
      reader.stop();
      await reader.done;
      const again = await me.erase({ subject: 'person:vault@example.com' });
      assert.deepEqual([again.erased, again.checkpointed], [0, true]);
      assert.deepEqual(filesContaining(home, secret), [], 'gone once a checkpoint could run');
    }));
});
