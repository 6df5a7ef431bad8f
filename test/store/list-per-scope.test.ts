/**
 * The SQLite listing inside a few named scopes (src/store/sqlite/list-per-scope.ts) walks each scope's partial
 * index and merges: it returns exactly the rows, in the order, that the same filter returns over every scope
 * once filtered to those scopes and cut to the limit, whatever the kinds, states, clocks, cursor or limit.
 */
import assert from 'node:assert/strict';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { test } from 'node:test';
import type { ListFilter } from '../../src/store/port.ts';
import { POOL_KINDS, perScopeList } from '../../src/store/sqlite/list-per-scope.ts';
import { listMemories } from '../../src/store/sqlite/search.ts';
import { resolve, withHome } from './helpers.ts';

const SCOPES = ['shared', 'user:ann', 'project:web', 'project:api'];
const KINDS = ['fact', 'decision', 'preference', 'commitment'] as const;

test('a listing in named scopes returns the rows and order of the same filter over every scope, cut to its scopes', () => {
  let t = Date.parse('2031-05-01T00:00:00.000Z');
  const now = () => new Date(t).toISOString();
  return withHome(
    async ({ db: path, ledger }) => {
      const me = ledger.as(ledger.operator());
      const bot = ledger.as(ledger.principal('agent:bot'), { surface: 'library' });
      let middle = '';
      for (let i = 0; i < 120; i++) {
        const scope = SCOPES[(i + Math.floor(i / 4)) % SCOPES.length]!;
        const kind = KINDS[i % KINDS.length]!;
        // Valid times in the past, around the reference time and in the future, for the valid-at reads.
        const valid =
          i % 5 === 0
            ? { validFrom: new Date(t + 86_400_000 * ((i % 3) - 1) * 30).toISOString() }
            : i % 7 === 0
              ? { validTo: new Date(t + 86_400_000 * ((i % 2) * 2 - 1) * 20).toISOString() }
              : {};
        const r = await me.remember({
          body: `note ${i} about the ${kind} in ${scope}`,
          scope,
          kind,
          ...(i % 6 === 0 ? { key: `slot.k${i % 4}` } : {}),
          ...valid,
        });
        if (i % 11 === 0) await me.retract({ id: r.id, reason: 'replaced' });
        if (i % 13 === 0) await bot.remember({ body: `proposal ${i} for ${scope}`, scope: 'shared' });
        if (i === 60) middle = r.id;
        t += 60_000;
      }
      const asOf = new Date(t - 50 * 60_000).toISOString();
      const validAt = new Date(t).toISOString();
      const filters: Omit<ListFilter, 'scopes'>[] = [
        { limit: 50 },
        { limit: 7 },
        { kinds: ['decision', 'preference'], limit: 200 },
        { kinds: ['decision', 'preference'], limit: 5 },
        { kinds: ['fact', 'decision'], limit: 30 },
        { kinds: ['commitment'], states: ['active'], validAt, limit: 100 },
        { kinds: ['commitment'], states: ['active'], validAt, limit: 3 },
        { states: ['held'], limit: 100 },
        { states: ['active'], asOf, limit: 20 },
        { key: 'slot.k2', limit: 10 },
        { before: middle, limit: 15 },
      ];
      const db = new DatabaseSync(path);
      try {
        const prepare = (sql: string) => db.prepare(sql);
        const every = { toks: null, exact: [], prefixes: [] };
        let compared = 0;
        for (const exact of [
          ['shared'],
          ['shared', 'user:ann'],
          ['project:web', 'project:api', 'user:ann'],
        ]) {
          for (const f of filters) {
            const scopes = resolve(db, exact);
            assert.notEqual(perScopeList('m.seq', exact, ["m.state = 'active'"], {}), null);
            const fast = listMemories(
              { ...f, scopes: { all: false, exact, prefixes: [] } },
              scopes,
              prepare,
            ).map((m) => m.id);
            const reference = listMemories({ ...f, limit: 10_000, scopes: { all: true } }, every, prepare)
              .filter((m) => exact.includes(m.scope))
              .slice(0, f.limit)
              .map((m) => m.id);
            assert.deepEqual(fast, reference, `${exact.join(',')} ${JSON.stringify(f)}`);
            if (reference.length > 0) compared++;
          }
        }
        // Control: the filters do select rows (all but the held listing outside shared, where no agent wrote).
        assert.equal(compared, 32);
        const held = listMemories(
          { states: ['held'], limit: 100, scopes: { all: false, exact: ['shared'], prefixes: [] } },
          resolve(db, ['shared']),
          prepare,
        );
        assert.ok(held.length > 0 && held.every((m) => m.state === 'held'));
      } finally {
        db.close();
      }
    },
    { now },
  );
});

test('scopes by prefix, more than eight scopes, and states with no partial index keep the single range', () => {
  const active = ["m.state = 'active'"];
  assert.equal(perScopeList('m.seq', [], active, {}), null);
  const nine = Array.from({ length: 9 }, (_, i) => `project:p${i}`);
  assert.equal(perScopeList('m.seq', nine, active, {}), null);
  assert.equal(perScopeList('m.seq', ['shared'], ["m.state IN ('active', 'held')"], {}), null);
  // Control: the same scopes under eight, with a state a partial index holds, take the per-scope form.
  assert.match(perScopeList('m.seq', nine.slice(0, 8), active, {}) ?? '', /INDEXED BY memories_active_scope/);
  assert.match(perScopeList('m.seq', ['shared'], ["m.state = 'held'"], {}) ?? '', /INDEXED BY memories_held/);
});

/** The query plan of a listing in `shared` and `user:ann` with `filter`, one line per step. */
function plan(path: string, filter: Omit<ListFilter, 'scopes'>): string[] {
  const db = new DatabaseSync(path);
  try {
    const exact = ['shared', 'user:ann'];
    let lines: string[] = [];
    const prepare = (sql: string) => {
      const statement = db.prepare(sql);
      return {
        all: (params: Record<string, SQLInputValue>) => {
          lines = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map(
            (r) => r.detail,
          );
          return statement.all(params);
        },
      } as unknown as StatementSync;
    };
    listMemories({ ...filter, scopes: { all: false, exact, prefixes: [] } }, resolve(db, exact), prepare);
    return lines;
  } finally {
    db.close();
  }
}

test("the pools' listings (rules; commitments valid now) walk the pools' index, one ordered range per scope and kind", () =>
  withHome(async ({ db: path, ledger }) => {
    const me = ledger.as(ledger.operator());
    for (let i = 0; i < 40; i++) {
      const kind = (['fact', 'decision', 'preference', 'commitment', 'note'] as const)[i % 5]!;
      await me.remember({ body: `plan note ${i}`, scope: i % 2 === 0 ? 'shared' : 'user:ann', kind });
    }
    const indexOf = (line: string) => /USING (?:COVERING )?INDEX (\w+)/.exec(line)?.[1];
    const rules = plan(path, { kinds: ['preference', 'decision'], limit: 200 });
    const commitments = plan(path, {
      kinds: ['commitment'],
      states: ['active'],
      validAt: '2031-01-01T00:00:00.000Z',
      limit: 100,
    });
    for (const [lines, arms] of [
      [rules, 4],
      [commitments, 2],
    ] as const) {
      const searches = lines.filter((l) => indexOf(l) !== undefined);
      // Every index the statement uses is the pools' one, by equality on scope and kind, once per scope and kind.
      assert.equal(searches.length, arms, lines.join('\n'));
      for (const l of searches) assert.match(l, /INDEX memories_pool_kinds \(scope=\? AND kind=\?\)/);
    }
    assert.deepEqual(POOL_KINDS, ['preference', 'decision', 'commitment']);
    // Control: a kind outside the pools keeps the scope index (the pools' index does not hold facts).
    const mixed = plan(path, { kinds: ['fact', 'decision'], limit: 30 }).filter(
      (l) => indexOf(l) !== undefined,
    );
    assert.ok(
      mixed.length === 2 && mixed.every((l) => indexOf(l) === 'memories_active_scope'),
      mixed.join('\n'),
    );
  }));
