/**
 * I16 the engine guards agent SQL: allow-listed actions only (an authorizer, not a regex), within a time and a
 * size limit, and one agent never reaches another's workspace or any file. Each refusal sits beside a control
 * statement that must succeed. Persistence is the backend's own (zstd snapshots in the store); only the limits are
 * the test's.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { Ledger, LedgerSession } from '../../../src/index.ts';
import type { WorkspaceLimits } from '../../../src/workspace/config.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, principal } from '../helpers.ts';

/**
 * Sets the ledger's workspace limits (its persistence stays the store's snapshots); `dir` is a scratch directory
 * for paths an escape names, `version` the agent's stored snapshot version (0: none).
 */
export function withWorkspaces(ledger: Ledger, limits: Partial<WorkspaceLimits> = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-ws-'));
  ledger.useWorkspaceLimits(limits);
  return {
    dir,
    version: async (agent: string) => (await ledger.store.workspaces.meta(agent))?.version ?? 0,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const run = (s: LedgerSession, ...statements: string[]) => s.workspaceSql({ statements });

export function agentSqlCases(factory: ConformanceFactory): void {
  describe('I16 the engine guards agent SQL', () => {
    test('I16 agent SQL: every escape is refused with its class, beside a control that runs', () =>
      withHome(factory, async ({ ledger }) => {
        const ws = withWorkspaces(ledger);
        try {
          const bot = ledger.as(ledger.principal('agent:bot'));
          await run(bot, 'CREATE TABLE notes (id INTEGER PRIMARY KEY, subject TEXT, body TEXT)');
          const escapes: [string, string, RegExp][] = [
            [`ATTACH '${join(ws.dir, 'other.db')}' AS other`, 'permission', /ATTACH/],
            [`VACUUM INTO '${join(ws.dir, 'copy.db')}'`, 'permission', /VACUUM/],
            ["SELECT load_extension('/tmp/evil.so')", 'permission', /load_extension/],
            ["SELECT readfile('/etc/passwd')", 'permission', /readfile/],
            [`SELECT writefile('${join(ws.dir, 'out.txt')}', 'x')`, 'permission', /writefile/],
            ["SELECT edit('x', 'vi')", 'permission', /edit/],
            ['PRAGMA database_list', 'permission', /database_list/],
            ["PRAGMA temp_store_directory = '/tmp'", 'permission', /temp_store_directory/],
            ["INSERT INTO __memories (id, body) VALUES ('m', 'forged')", 'permission', /save_memory/],
            ["UPDATE __memories SET body = 'changed'", 'permission', /save_memory/],
            ['DELETE FROM __events', 'permission', /save_memory/],
            ['DROP TABLE __memories', 'permission', /save_memory/],
            ['CREATE TEMP TABLE scratch (subject TEXT)', 'permission', /TEMP/],
            ['BEGIN', 'permission', /transaction/],
          ];
          for (const [i, [sql, cls, why]] of escapes.entries()) {
            const e = await expectError(run(bot, sql), cls as 'permission', sql);
            assert.match(e.message, why, sql);
            // The control: right after each refusal an ordinary write and read of the agent's own table run.
            const ok = await run(
              bot,
              "INSERT INTO notes (subject, body) VALUES (NULL, 'control')",
              'SELECT count(*) FROM notes',
            );
            assert.equal(ok.results.at(1)?.rows[0]?.[0], i + 1, `control after: ${sql}`);
          }
          assert.equal(existsSync(join(ws.dir, 'copy.db')), false, 'VACUUM INTO wrote no file');
          assert.equal(existsSync(join(ws.dir, 'out.txt')), false, 'writefile wrote no file');
          const count = await run(bot, 'SELECT count(*) FROM notes', 'PRAGMA table_info(notes)');
          assert.equal(count.results.at(0)?.rows[0]?.[0], escapes.length, 'every control insert landed');
          assert.deepEqual(
            count.results[1]!.rows.map((r) => r[1]),
            ['id', 'subject', 'body'],
          );
        } finally {
          ws.cleanup();
        }
      }));

    test("I16 agent SQL: another agent's workspace is unreachable, and a human needs the admin role", () =>
      withHome(factory, async ({ ledger }) => {
        const ws = withWorkspaces(ledger);
        try {
          const a = ledger.as(ledger.principal('agent:alpha'));
          const b = ledger.as(ledger.principal('agent:beta'));
          await run(
            a,
            'CREATE TABLE secrets (subject TEXT, v TEXT)',
            "INSERT INTO secrets VALUES (NULL, 'alpha-only')",
          );
          await expectError(
            b.workspaceSql({ statements: ['SELECT * FROM secrets'], agent: 'agent:alpha' }),
            'permission',
          );
          await expectError(b.workspaceSchema({ agent: 'agent:alpha' }), 'permission');
          // beta's own workspace is its own: alpha's table is not there.
          await expectError(run(b, 'SELECT * FROM secrets'), 'invalid_input');
          const reader = ledger.as(principal('human', 'rita', { roles: ['reader', 'writer', 'reviewer'] }));
          await expectError(
            reader.workspaceSql({ statements: ['SELECT 1'], agent: 'agent:alpha' }),
            'permission',
          );
          const service = ledger.as(principal('service', 'cron'));
          await expectError(service.workspaceSql({ statements: ['SELECT 1'] }), 'permission');
          // The controls: alpha reads its own, and a human admin reads alpha's by name.
          const own = await run(a, 'SELECT v FROM secrets');
          assert.deepEqual(own.results[0]!.rows, [['alpha-only']]);
          const admin = ledger.as(ledger.operator());
          const seen = await admin.workspaceSql({
            statements: ['SELECT v FROM secrets'],
            agent: 'agent:alpha',
          });
          assert.deepEqual(seen.results[0]!.rows, [['alpha-only']]);
        } finally {
          ws.cleanup();
        }
      }));

    test('I16 agent SQL: a runaway statement is stopped at the time limit, the workspace unchanged, the ledger responsive', () =>
      withHome(factory, async ({ ledger }) => {
        const ws = withWorkspaces(ledger, { timeoutMs: 4_000 });
        try {
          const bot = ledger.as(ledger.principal('agent:bot'));
          await run(bot, 'CREATE TABLE t (subject TEXT, n INTEGER)', 'INSERT INTO t VALUES (NULL, 1)');
          const version = await ws.version('agent:bot');
          let runawayDone = false;
          const runaway = run(
            bot,
            'INSERT INTO t VALUES (NULL, 2)',
            'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
          ).finally(() => {
            runawayDone = true;
          });
          // Another ledger call completes while the runaway runs: the serving process is not the one stuck.
          const other = await ledger
            .as(ledger.operator())
            .remember({ body: 'still answering', scope: 'shared' });
          assert.equal(other.state, 'active');
          assert.equal(runawayDone, false, 'the remember finished before the runaway was stopped');
          const e = await expectError(runaway, 'invalid_input');
          assert.match(e.message, /time limit/);
          assert.equal(await ws.version('agent:bot'), version, 'nothing was committed');
          const after = await run(bot, 'SELECT n FROM t ORDER BY n');
          assert.deepEqual(
            after.results[0]!.rows,
            [[1]],
            'the insert before the runaway was rolled back; the control row stays',
          );
        } finally {
          ws.cleanup();
        }
      }));

    test('I16 agent SQL: writes past the size cap are refused naming the cap, and the batch is rolled back', () =>
      withHome(factory, async ({ ledger }) => {
        const ws = withWorkspaces(ledger, { maxBytes: 256 * 1024 });
        try {
          const bot = ledger.as(ledger.principal('agent:bot'));
          await run(
            bot,
            'CREATE TABLE blobs (subject TEXT, b BLOB)',
            'INSERT INTO blobs VALUES (NULL, zeroblob(1000))',
          );
          const e = await expectError(
            run(
              bot,
              'INSERT INTO blobs VALUES (NULL, zeroblob(10))',
              'INSERT INTO blobs SELECT NULL, zeroblob(400000)',
            ),
            'conflict',
          );
          assert.match(e.message, /size cap of 0\.3 MB/);
          assert.equal(e.details.statement, 1);
          const rows = await run(bot, 'SELECT length(b) FROM blobs');
          assert.deepEqual(
            rows.results[0]!.rows,
            [[1000]],
            'the small control row stays, the batch left nothing',
          );
        } finally {
          ws.cleanup();
        }
      }));
  });
}
