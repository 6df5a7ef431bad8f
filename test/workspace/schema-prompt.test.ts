/**
 * The schema prompt: within its table and byte budget with 40 tables, whole lines only, a last line saying what
 * was left out; mounts first with their mortality notes, then recently used tables, then the rest alternately
 * oldest and newest; samples (first, middle, last; ≤ 8 columns; strings cut at 60) and column profiles.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { withWorkspaceHome } from './helpers.ts';

const tableNames = (prompt: string): string[] => [...prompt.matchAll(/^## (\S+) \(/gm)].map((m) => m[1]!);

describe('workspace schema prompt', () => {
  test('40 tables: at most 25 and 30,000 bytes, whole lines, the omitted ones named last', () =>
    withWorkspaceHome(async ({ agent }) => {
      const bot = agent('bot');
      const statements: string[] = [];
      for (let i = 0; i < 40; i++) {
        const t = `t${String(i).padStart(2, '0')}`;
        statements.push(
          `CREATE TABLE ${t} (id INTEGER PRIMARY KEY, subject TEXT, ${Array.from({ length: 12 }, (_, c) => `c${c} TEXT`).join(', ')})`,
          `WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n LIMIT 30) INSERT INTO ${t} (subject, c0, c1) SELECT 'person:p' || x || '@example.com', printf('%.200c', 'z'), 'open' FROM n`,
        );
      }
      await bot.workspaceSql({ statements: statements.slice(0, 40) });
      await bot.workspaceSql({ statements: statements.slice(40) });
      const s = await bot.workspaceSchema();
      assert.ok(s.bytes <= 30_000, `${s.bytes} bytes`);
      assert.equal(Buffer.byteLength(s.prompt), s.bytes);
      const shown = tableNames(s.prompt);
      assert.ok(shown.length <= 25);
      assert.deepEqual(shown.slice(0, 4), ['__memories', '__events', '__commitments', '__corrections']);
      assert.equal(s.tables, shown.length);
      assert.equal(s.tables + s.omitted, 44);
      const last = s.prompt.split('\n').at(-1)!;
      assert.match(last, new RegExp(`^\\(${s.omitted} more tables not shown: `));
      for (const line of s.prompt.split('\n')) {
        if (line.startsWith('  {')) JSON.parse(line.trim()); // every sample line is whole JSON: nothing was cut mid-line
      }
      // Samples: at most 8 columns, strings cut at 60.
      const sample = s.prompt.split('\n').find((l) => l.startsWith('  {"id"'))!;
      const row = JSON.parse(sample.trim()) as Record<string, unknown>;
      assert.equal(Object.keys(row).length, 8);
      assert.equal(String(row.c0).length, 61);
      assert.match(
        s.prompt,
        /profile: id: int 1\.\.30; subject: email|profile: id: int 1\.\.30; subject: subject ref/,
      );
      assert.match(s.prompt, /c1: enum\(open\)/);

      const tight = await withBudget(bot, 4_000);
      assert.ok(tight.bytes <= 4_000);
      assert.ok(tight.omitted > s.omitted);
    }));

  test('order: mounts with notes, then the most recently used, then the rest alternately oldest and newest', () =>
    withWorkspaceHome(async ({ agent, sql }) => {
      const bot = agent('bot');
      await sql(bot, ...['a', 'b', 'c', 'd', 'e'].map((t) => `CREATE TABLE ${t} (subject TEXT, v INTEGER)`));
      await sql(bot, 'INSERT INTO d VALUES (NULL, 1)');
      await sql(bot, 'SELECT * FROM b');
      const s = await bot.workspaceSchema();
      const mine = tableNames(s.prompt).filter((t) => !t.startsWith('__'));
      assert.deepEqual(mine, ['b', 'd', 'a', 'e', 'c']);
      assert.match(s.prompt, /## __memories \(0 rows\) - ephemeral, mounted for this call only/);
      assert.match(s.prompt, /## __corrections \(0 rows\) - ephemeral/);
      assert.match(s.prompt, /\(every table is shown\)$/);
    }));
});

/** The same prompt under a smaller byte budget: the session's host with other limits. */
async function withBudget(bot: import('../../src/index.ts').LedgerSession, bytes: number) {
  const host = bot.workspaces!;
  const saved = host.limits;
  bot.workspaces = { ...host, limits: { ...saved, schemaBytes: bytes } };
  try {
    return await bot.workspaceSchema();
  } finally {
    bot.workspaces = host;
  }
}
