/**
 * The workspace engine through the ledger API: one transaction per batch with the failing statement's index,
 * the subject-column rule on the table as built, bounded results, errors that teach, the safe functions, and
 * an audit that keeps statement shapes and counts but never literals or rows (I8).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { MemoryError, openLedger } from '../../src/index.ts';
import { expectError } from '../conformance/helpers.ts';
import { withWorkspaceHome } from './helpers.ts';

describe('workspace batches', () => {
  test('the first failure rolls the whole batch back and names its index; a clean batch commits once', () =>
    withWorkspaceHome(async ({ agent, sql, files }) => {
      const bot = agent('bot');
      await sql(bot, 'CREATE TABLE t (subject TEXT, n INTEGER UNIQUE)', 'INSERT INTO t VALUES (NULL, 1)');
      assert.equal(files.version('agent:bot'), 1);
      const e = await expectError(
        sql(
          bot,
          'INSERT INTO t VALUES (NULL, 2)',
          'CREATE TABLE u (subject TEXT)',
          'INSERT INTO t VALUES (NULL, 1)',
        ),
        'invalid_input',
      );
      assert.equal(e.details.statement, 2);
      assert.match(e.message, /statement 3 of 3 \(index 2\).*UNIQUE/);
      const after = await sql(bot, 'SELECT n FROM t', "SELECT count(*) FROM sqlite_schema WHERE name = 'u'");
      assert.deepEqual(after.results[0]!.rows, [[1]]);
      assert.deepEqual(after.results[1]!.rows, [[0]], 'the table the batch created is gone too');
      assert.equal(after.committed, false, 'a read-only batch stores nothing');
      assert.equal(files.version('agent:bot'), 1);
    }));

  test('several statements in one string, named bindings with or without their prefix, booleans as 1/0', () =>
    withWorkspaceHome(async ({ agent }) => {
      const r = await agent('bot').workspaceSql({
        statements: [
          'CREATE TABLE p (subject TEXT, name TEXT, ok INTEGER); INSERT INTO p VALUES (:who, :name, :ok);',
          'SELECT * FROM p',
        ],
        bindings: { who: 'person:ann@example.com', ':name': 'Ann; DROP TABLE p; --', ok: true },
      });
      assert.equal(r.results.length, 3);
      assert.deepEqual(r.results[2]!.rows, [['person:ann@example.com', 'Ann; DROP TABLE p; --', 1]]);
    }));

  test('a CREATE TABLE without a subject column is refused with what to add; with one it lands', () =>
    withWorkspaceHome(async ({ agent, sql }) => {
      const bot = agent('bot');
      for (const bad of [
        'CREATE TABLE contacts (id INTEGER PRIMARY KEY, email TEXT)',
        'CREATE TABLE copy AS SELECT 1 AS a',
      ]) {
        const e = await expectError(sql(bot, bad), 'invalid_input', bad);
        assert.match(e.message, /subject TEXT/);
        assert.match(e.message, /erasure/);
      }
      await sql(bot, 'CREATE TABLE contacts (id INTEGER PRIMARY KEY, subject TEXT, email TEXT)');
      const e = await expectError(sql(bot, 'ALTER TABLE contacts DROP COLUMN subject'), 'invalid_input');
      assert.match(e.message, /no subject column/);
      const cols = await sql(bot, 'PRAGMA table_info(contacts)');
      assert.deepEqual(
        cols.results[0]!.rows.map((r) => r[1]),
        ['id', 'subject', 'email'],
      );
      await sql(
        bot,
        'ALTER TABLE contacts ADD COLUMN phone TEXT',
        'CREATE VIEW v AS SELECT email FROM contacts',
      );
    }));

  test('results are bounded: 100 rows, 8 KB of JSON, long cells cut head and tail, blobs as sizes, a LIMIT hint', () =>
    withWorkspaceHome(async ({ agent, sql }) => {
      const bot = agent('bot');
      await sql(
        bot,
        'CREATE TABLE big (subject TEXT, n INTEGER, s TEXT, b BLOB)',
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 500) INSERT INTO big SELECT NULL, x, 'v' || x, NULL FROM c",
        "INSERT INTO big VALUES (NULL, 0, 'HEAD' || printf('%.5000c', 'x') || 'TAIL', zeroblob(777))",
      );
      const many = await sql(bot, 'SELECT n, s FROM big');
      const r = many.results[0]!;
      assert.equal(r.rows.length, 100);
      assert.equal(r.rowCount, 501);
      assert.equal(r.truncated, true);
      assert.match(r.note!, /showing 100 of 501 rows.*add LIMIT/);
      const limited = await sql(bot, 'SELECT n FROM big LIMIT 300');
      assert.doesNotMatch(limited.results.at(0)?.note ?? '', /add LIMIT/);
      const long = (await sql(bot, 'SELECT s, b FROM big WHERE n = 0')).results[0]!;
      const cell = String(long.rows[0]![0]);
      assert.ok(cell.startsWith('HEAD') && cell.endsWith('TAIL'), 'head and tail kept');
      assert.match(cell, /…\[\d+ bytes omitted\]…/);
      assert.ok(cell.length < 500);
      assert.equal(long.rows[0]![1], '[blob 777 bytes]');
      const wide = (await sql(bot, "SELECT printf('%.300c', 'w') AS w FROM big LIMIT 100")).results[0]!;
      assert.ok(Buffer.byteLength(JSON.stringify(wide.rows)) <= 8 * 1024);
      assert.ok(wide.rows.length < 100 && wide.truncated);
      assert.match(wide.note!, /8192 bytes of JSON/);
    }));

  test('errors teach: real columns, existing tables, and the SQLite form of dialect slips', () =>
    withWorkspaceHome(async ({ agent, sql }) => {
      const bot = agent('bot');
      await sql(bot, 'CREATE TABLE people (id INTEGER PRIMARY KEY, subject TEXT, full_name TEXT)');
      const cases: [string, RegExp][] = [
        ['SELECT name FROM people', /people has columns: id INTEGER, subject TEXT, full_name TEXT/],
        ['SELECT * FROM persons', /tables: people/],
        ["SELECT * FROM people WHERE full_name ILIKE 'a%'", /LIKE is already case-insensitive/],
        ['SELECT TOP 5 * FROM people', /LIMIT n/],
        ['SELECT id::text FROM people', /CAST\(x AS INTEGER\)/],
        ['SELECT NOW()', /datetime\('now'\)/],
        ['SELECT * FROM people WHERE id === 1', /use = and <>/],
        ['SHOW TABLES', /workspace_schema/],
      ];
      for (const [bad, hint] of cases) {
        const e = await expectError(sql(bot, bad), 'invalid_input', bad);
        assert.match(e.message, hint, bad);
      }
      const ok = await sql(bot, 'SELECT id FROM people WHERE id == 1');
      assert.equal(ok.results[0]!.rowCount, 0, '== is valid SQLite and runs');
    }));

  test('the safe functions agents reach for are there, deterministic and pure', () =>
    withWorkspaceHome(async ({ agent, sql }) => {
      const r = await sql(
        agent('bot'),
        "SELECT 'abc123' REGEXP '[0-9]+$', regexp_replace('a-b-c', '-', '+'), regexp_substr('id=42;', '[0-9]+'), " +
          "split_part('a,b,c', ',', 2), left('hello', 2), right('hello', 3), starts_with('hello', 'he'), lpad('7', 3, '0')",
      );
      assert.deepEqual(r.results[0]!.rows[0], [1, 'a+b+c', '42', 'b', 'he', 'llo', 1, '007']);
    }));

  test('the audit keeps statement shapes with literals masked and row counts, never values or rows (I8)', () =>
    withWorkspaceHome(async ({ ledger, agent, sql }) => {
      const bot = agent('bot');
      await sql(
        bot,
        'CREATE TABLE s (subject TEXT, v TEXT)',
        "INSERT INTO s VALUES ('person:zed', 'zqsecretvalue9')",
        'SELECT v FROM s WHERE v > 41',
      );
      await expectError(sql(bot, "SELECT nosuch FROM s WHERE v = 'zqsecretother8'"), 'invalid_input');
      const records = await ledger.as(ledger.operator()).audit({ operation: 'workspace.sql' });
      assert.equal(records.length, 2);
      const text = JSON.stringify(records);
      assert.ok(!text.includes('zqsecret'), 'no literal reached the audit');
      assert.ok(!text.includes('person:zed'));
      const ok = records.find((r) => r.outcome === 'ok')!;
      const preview = ok.argsPreview as { shapes: string[]; rows: number[]; committed: boolean };
      assert.deepEqual(preview.shapes, [
        'CREATE TABLE s (subject TEXT, v TEXT)',
        'INSERT INTO s VALUES (?, ?)',
        'SELECT v FROM s WHERE v > ?',
      ]);
      assert.deepEqual(preview.rows, [0, 0, 1]);
      assert.equal(preview.committed, true);
      const failed = records.find((r) => r.outcome === 'error')!;
      assert.equal(failed.failureClass, 'invalid_input');
      assert.ok(ok.argsHash.length > 0 && failed.argsHash !== ok.argsHash);
    }));

  test("a ledger given no WorkspaceFiles uses its own store's snapshots; a service is still refused (permission)", async () => {
    const home = mkdtempSync(join(tmpdir(), 'memledger-noworkspace-'));
    const ledger = openLedger({ home });
    try {
      const r = await ledger
        .as(ledger.principal('agent:bot'))
        .workspaceSql({ statements: ['CREATE TABLE t (subject TEXT)', 'SELECT 1'] });
      assert.equal(r.committed, true);
      assert.equal((await ledger.store.workspaces.meta('agent:bot'))?.version, 1, 'stored in the store');
      const e = await expectError(
        ledger.as(ledger.principal('service:x')).workspaceSql({ statements: ['SELECT 1'] }),
        'permission',
      );
      assert.ok(e instanceof MemoryError);
    } finally {
      ledger.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
