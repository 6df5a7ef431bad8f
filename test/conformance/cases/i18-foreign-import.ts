/**
 * I18 nothing acts around the gate, for imports from other memory tools (src/importers/): a mem0 export or a
 * notes folder is new writes by its importer, through the same guard, grants, rejection check and gate, and a
 * person's rejection stands when another export repeats the claim (I5).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { importFrom } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';

/** A mem0 `get_all` export in a temporary file, removed after `fn`. */
async function withMem0File<T>(results: object[], fn: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-foreign-'));
  try {
    const file = join(dir, 'mem0-export.json');
    writeFileSync(file, JSON.stringify({ results }));
    return await fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function foreignImportCases(factory: ConformanceFactory): void {
  describe('I18 nothing acts around the gate: imports from other memory tools', () => {
    test('I18 nothing acts around the gate: an agent’s mem0 import is held like its own writes, its secret refused, its grants kept; its own scope lands', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:scout'), { surface: 'cli', sessionId: 'mig-1' });
        const records = [
          { id: 'a1', memory: 'The staging cluster runs in Frankfurt' },
          { id: 'a2', memory: 'token ghp_16C7e42F292c6912E7710c838347Ae178B4a' },
          { id: 'a3', memory: 'Release notes go to the changelog channel' },
        ];
        await withMem0File(records, async (file) => {
          const shared = await importFrom(agent, 'mem0', file, { scope: 'shared' });
          assert.deepEqual(
            [shared.imported, shared.held],
            [0, 2],
            'held for a person, as the agent’s writes are',
          );
          assert.deepEqual(
            shared.failed.map((f) => [f.origin, f.class]),
            [['mem0-export.json record 2', 'invalid_input']],
          );
          const queue = await me.reviewList();
          assert.equal(queue.length, 2);
          for (const m of queue) {
            assert.equal(m.provenance.principal, 'agent:scout', 'the importer’s provenance');
            assert.equal(m.provenance.sessionId, 'mig-1');
            assert.equal(m.provenance.source?.connector, 'mem0');
          }
          const elsewhere = await importFrom(agent, 'mem0', file, { scope: 'user:alex' });
          assert.deepEqual(
            elsewhere.failed.map((f) => f.class),
            ['permission', 'invalid_input', 'permission'],
            'no write grant on user:alex: refused, as a remember would be',
          );
          const own = await importFrom(agent, 'mem0', file, { scope: 'agent:scout' });
          assert.equal(own.imported, 2, 'control: the agent’s own scope lands');
          assert.equal((await agent.search({ query: 'staging Frankfurt' })).hits.length, 1);
        });
        const [record] = await me.audit({ operation: 'import' });
        assert.ok(record, 'the import is audited');
      }));

    test('I5 rejection stands: a claim imported from mem0 and rejected lands as rejected when a later export repeats it under a new id, while its control lands', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        await withMem0File(
          [{ id: 'old-1', memory: 'Alex is allergic to peanuts', user_id: 'alex' }],
          (file) => importFrom(me, 'mem0', file),
        );
        const [imported] = await me.list({ scopes: ['user:alex'] });
        assert.ok(imported);
        await me.reject({ id: imported.id, reason: 'wrong person', expect: 'active' });
        const again = await withMem0File(
          [
            { id: 'new-9', memory: 'Alex is allergic to peanuts', user_id: 'alex' },
            { id: 'new-10', memory: 'Alex is allergic to shellfish', user_id: 'alex' },
          ],
          (file) => importFrom(me, 'mem0', file),
        );
        assert.deepEqual([again.rejected, again.imported], [1, 1]);
        const current = (await me.list({ scopes: ['user:alex'] })).map((m) => m.body);
        assert.deepEqual(
          current,
          ['Alex is allergic to shellfish'],
          'the rejected claim is withheld; the control is there',
        );
        assert.equal((await me.search({ query: 'peanuts' })).hits.length, 0);
      }));

    test('I18 nothing acts around the gate: a malformed foreign file is refused whole, audited, and writes nothing', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const before = (await me.stats()).memories;
        await withMem0File(
          [
            { id: 'ok', memory: 'Fine line' },
            { id: 'bad', memory: null },
          ],
          async (file) => {
            await assert.rejects(importFrom(me, 'mem0', file), (e: Error & { class?: string }) => {
              assert.equal(e.class, 'invalid_input');
              assert.match(e.message, /record 2 \(id bad\)/);
              return true;
            });
          },
        );
        assert.equal((await me.stats()).memories, before);
        const [record] = await me.audit({ operation: 'import' });
        assert.equal(record?.outcome, 'error');
      }));
  });
}
