/**
 * The SQLite listing of the pools' kinds over every scope, scopes by prefix or many scopes (list-per-scope.ts
 * `perKindList`, migration 18's kind ranges): the rows and order of the same filter without kinds, filtered to
 * the kinds and cut to the limit; and each kind read from its own range, never a walk of the whole log.
 */
import assert from 'node:assert/strict';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { test } from 'node:test';
import type { ListFilter } from '../../src/store/port.ts';
import { listMemories, type ResolvedScopes } from '../../src/store/sqlite/search.ts';
import { resolve, withHome } from './helpers.ts';

const SCOPES = ['shared', 'user:ann', 'project:web', 'project:api'];
const KINDS = ['fact', 'decision', 'preference', 'commitment', 'note'] as const;
const EVERY: ResolvedScopes = { toks: null, exact: [], prefixes: [] };

test('over every scope, by prefix and past eight scopes, a listing of pool kinds returns the rows of the kind-free listing', () => {
  let t = Date.parse('2031-05-01T00:00:00.000Z');
  const now = () => new Date(t).toISOString();
  return withHome(
    async ({ db: path, ledger }) => {
      const me = ledger.as(ledger.operator());
      let middle = '';
      for (let i = 0; i < 150; i++) {
        const kind = KINDS[i % KINDS.length]!;
        const valid =
          i % 4 === 0 ? { validTo: new Date(t + 86_400_000 * ((i % 3) - 1) * 20).toISOString() } : {};
        const r = await me.remember({
          body: `item ${i}, a ${kind}`,
          scope: SCOPES[(i + Math.floor(i / 5)) % SCOPES.length]!,
          kind,
          ...valid,
        });
        if (i % 9 === 0) await me.retract({ id: r.id, reason: 'replaced' });
        if (i === 75) middle = r.id;
        t += 60_000;
      }
      const validAt = new Date(t).toISOString();
      const filters: Omit<ListFilter, 'scopes'>[] = [
        { kinds: ['preference', 'decision'], limit: 200 },
        { kinds: ['decision'], limit: 4 },
        { kinds: ['commitment'], states: ['active'], validAt, limit: 100 },
        { kinds: ['commitment', 'preference'], limit: 6, before: middle },
      ];
      const nine = [
        'shared',
        'user:ann',
        'project:web',
        'project:api',
        ...['a', 'b', 'c', 'd', 'e'].map((s) => `user:${s}`),
      ];
      const db = new DatabaseSync(path);
      try {
        const prepare = (sql: string) => db.prepare(sql);
        const shapes: [string, ListFilter['scopes'], ResolvedScopes, (scope: string) => boolean][] = [
          ['every scope', { all: true }, EVERY, () => true],
          [
            'a prefix and an exact scope',
            { all: false, exact: ['shared'], prefixes: ['project:'] },
            resolve(db, ['shared'], ['project:']),
            (s) => s === 'shared' || s.startsWith('project:'),
          ],
          [
            'nine scopes',
            { all: false, exact: nine, prefixes: [] },
            resolve(db, nine),
            (s) => nine.includes(s),
          ],
        ];
        let compared = 0;
        for (const [name, scopes, resolved, within] of shapes) {
          for (const f of filters) {
            const listed = listMemories({ ...f, scopes }, resolved, prepare);
            const { kinds, limit, ...rest } = f;
            const reference = listMemories({ ...rest, limit: 10_000, scopes }, resolved, prepare)
              .filter((m) => kinds!.includes(m.kind) && within(m.scope))
              .slice(0, limit);
            assert.deepEqual(
              listed.map((m) => m.id),
              reference.map((m) => m.id),
              `${name} ${JSON.stringify(f)}`,
            );
            if (reference.length > 0) compared++;
          }
        }
        // Control: every comparison had rows to compare.
        assert.equal(compared, shapes.length * filters.length);
      } finally {
        db.close();
      }
    },
    { now },
  );
});

test('over every scope each pool kind is read from its own range; another kind walks the log', () =>
  withHome(async ({ db: path, ledger }) => {
    const me = ledger.as(ledger.operator());
    for (let i = 0; i < 40; i++) {
      await me.remember({
        body: `plan note ${i}`,
        scope: i % 2 === 0 ? 'shared' : 'user:ann',
        kind: KINDS[i % 5]!,
      });
    }
    const db = new DatabaseSync(path);
    try {
      const plan = (filter: Omit<ListFilter, 'scopes'>): string[] => {
        let lines: string[] = [];
        const prepare = (sql: string) =>
          ({
            all: (params: Record<string, SQLInputValue>) => {
              lines = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(params) as { detail: string }[]).map(
                (r) => r.detail,
              );
              return db.prepare(sql).all(params);
            },
          }) as unknown as StatementSync;
        listMemories({ ...filter, scopes: { all: true } }, EVERY, prepare);
        return lines.filter((l) => /^(SEARCH|SCAN) m\b/.test(l));
      };
      assert.deepEqual(plan({ kinds: ['preference', 'decision'], limit: 200 }), [
        'SEARCH m USING INTEGER PRIMARY KEY (rowid=?)',
        'SCAN m USING COVERING INDEX memories_active_preference',
        'SCAN m USING COVERING INDEX memories_active_decision',
      ]);
      assert.deepEqual(
        plan({ kinds: ['commitment'], states: ['active'], validAt: '2031-01-01T00:00:00.000Z', limit: 100 }),
        ['SEARCH m USING INTEGER PRIMARY KEY (rowid=?)', 'SCAN m USING INDEX memories_active_commitment'],
      );
      // Control: a kind with no range of its own is listed by walking the log newest first.
      assert.deepEqual(plan({ kinds: ['fact'], limit: 50 }), ['SCAN m']);
      const names = db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'memories'`)
        .all() as { name: string }[];
      assert.ok(!names.some((n) => n.name === 'memories_active_kind'), 'migration 18 dropped the kind index');
    } finally {
      db.close();
    }
  }));
