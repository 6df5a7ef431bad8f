/**
 * A memory row read as an array (`rowFromColumns`, what getMemories reads) is the same record as the named row:
 * every column of MEMORY_COLUMNS in its place, for memories with and without the optional fields.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MEMORY_COLUMNS, type MemoryRow, rowFromColumns, toMemory } from '../../src/store/sqlite/rows.ts';
import { raw, withHome } from './helpers.ts';

test('a memory row read as an array is the record the named row is, every field in its place', () =>
  withHome(async ({ db, ledger }) => {
    const me = ledger.as(ledger.operator());
    const plain = await me.remember({ body: 'The otter holt is by the stone', scope: 'shared' });
    const full = await me.remember({
      body: 'Acme is on the enterprise plan',
      scope: 'project:web',
      kind: 'decision',
      key: 'acme.plan',
      value: { plan: 'enterprise', seats: 40 },
      subjects: ['company:acme'],
      validFrom: '2025-03-01',
      validTo: '2026-03-01',
      confidence: 0.8,
    });
    const next = await me.remember({
      body: 'Acme moved to the pro plan',
      scope: 'project:web',
      key: 'acme.plan',
      supersedes: full.id,
    });
    raw(db, (d) => {
      const sql = `SELECT ${MEMORY_COLUMNS} FROM memories m WHERE m.id = ?`;
      const named = d.prepare(sql);
      const arrays = d.prepare(sql);
      arrays.setReturnArrays(true);
      for (const { id } of [plain, full, next]) {
        const row = named.get(id) as unknown as MemoryRow;
        const columns = arrays.get(id) as unknown as unknown[];
        assert.deepEqual(rowFromColumns(columns), { ...row }, id);
        assert.deepEqual(toMemory(rowFromColumns(columns)), toMemory(row), id);
      }
      // Control: the rows differ from one another where the memories do.
      assert.notDeepEqual(
        toMemory(rowFromColumns(arrays.get(plain.id) as unknown as unknown[])),
        toMemory(rowFromColumns(arrays.get(full.id) as unknown as unknown[])),
      );
    });
  }));
