/**
 * I15 ephemeral is ephemeral: the ledger's tables mounted into a workspace call are read-only, show only what
 * the caller may read (I4), and are never persisted: the store's snapshot, decompressed, holds no marker mounted
 * through them, beside a durable table's marker that must be there; where the store lives in files, no file of
 * the home's workspaces (local copies, journals) holds it either, while the ledger's own file does (the control).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { storedBytes } from '../../workspace/snapshot-helpers.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, filesContaining, uniqueWord } from '../helpers.ts';
import { withWorkspaces } from './i16-agent-sql.ts';

export function ephemeralCases(factory: ConformanceFactory): void {
  describe('I15 ephemeral is ephemeral', () => {
    test('I15 ephemeral: a marker mounted through __memories is absent from the decompressed snapshot and the workspace files; a durable marker is there', () =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        const ws = withWorkspaces(ledger);
        try {
          const bot = ledger.as(ledger.principal('agent:bot'));
          const mounted = uniqueWord();
          const durable = uniqueWord();
          await bot.remember({ body: `The ${mounted} is only in the ledger`, scope: 'agent:bot' });
          const r = await bot.workspaceSql({
            statements: [
              'CREATE TABLE notes (subject TEXT, body TEXT)',
              'INSERT INTO notes VALUES (NULL, :durable)',
              "SELECT body FROM __memories WHERE body LIKE '%' || :mounted || '%'",
              'SELECT count(*) FROM __events',
            ],
            bindings: { durable: `kept ${durable}`, mounted },
          });
          assert.equal(r.committed, true);
          assert.equal(r.results[2]!.rows.length, 1, 'the mount held the memory during the call');
          const bytes = await storedBytes(ledger, 'agent:bot');
          assert.ok(bytes !== null, 'the commit stored a snapshot');
          assert.ok(
            bytes.includes(Buffer.from(durable)),
            'the durable table is in the decompressed snapshot',
          );
          assert.ok(!bytes.includes(Buffer.from(mounted)), 'the mounted memory is not');
          assert.ok(!bytes.includes(Buffer.from('__memories')), 'no mount left even its name');
          if (capabilities.files) {
            const workspaces = join(home, 'workspaces');
            assert.notDeepEqual(
              filesContaining(workspaces, durable),
              [],
              'the local copy holds the durable row',
            );
            assert.deepEqual(
              filesContaining(workspaces, mounted),
              [],
              'no workspace file holds the mounted marker',
            );
            const holders = filesContaining(home, mounted);
            assert.notDeepEqual(holders, [], "the ledger's own store holds the memory (the scan finds it)");
            assert.ok(
              holders.every((f) => !f.startsWith(workspaces)),
              'only outside the workspaces',
            );
          }
          const tables = await bot.workspaceSql({
            statements: ["SELECT name FROM sqlite_schema WHERE type = 'table'"],
          });
          assert.deepEqual(
            tables.results[0]!.rows.map((row) => row[0]).filter((n) => n !== '_workspace_usage'),
            ['notes'],
          );
        } finally {
          ws.cleanup();
        }
      }));

    test("I15 ephemeral: mounts are read-only and show only what the caller may read, never another agent's scope", () =>
      withHome(factory, async ({ ledger }) => {
        const ws = withWorkspaces(ledger);
        try {
          const alpha = ledger.as(ledger.principal('agent:alpha'));
          const beta = ledger.as(ledger.principal('agent:beta'));
          const hidden = uniqueWord();
          const own = uniqueWord();
          await alpha.remember({ body: `alpha knows ${hidden}`, scope: 'agent:alpha' });
          await beta.remember({ body: `beta knows ${own}`, scope: 'agent:beta' });
          const seen = await beta.workspaceSql({ statements: ['SELECT body FROM __memories'] });
          const bodies = seen.results[0]!.rows.map((row) => String(row[0]));
          assert.ok(
            bodies.some((b) => b.includes(own)),
            "beta's own memory is mounted (the control)",
          );
          assert.ok(!bodies.some((b) => b.includes(hidden)), "alpha's memory is not");
          const e = await expectError(
            beta.workspaceSql({ statements: [`UPDATE __memories SET body = 'x'`] }),
            'permission',
          );
          assert.match(e.message, /save_memory/);
          const again = await beta.workspaceSql({ statements: ['SELECT count(*) FROM __memories'] });
          assert.equal(again.results.at(0)?.rows[0]?.[0], bodies.length, 'the refused write changed nothing');
        } finally {
          ws.cleanup();
        }
      }));
  });
}
