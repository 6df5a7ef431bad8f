/**
 * Behavior sources' guard, through the library: a write, ATTACH, a pragma and load_extension in a source are each
 * refused with `permission` beside a control source that returns its rows; a runaway source is stopped at the
 * time limit and the window still arrives; definitions with invalid sources are refused at `behaviors add` and
 * store nothing. (Scope and the join run on both backends in test/conformance/cases/i16-behavior-sources.ts.)
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openLedger, type Ledger, type LedgerSession } from '../../src/index.ts';
import type { BehaviorDefinitionInput } from '../../src/behaviors/definition.ts';

let home: string;
let ledger: Ledger;
let me: LedgerSession;

const base = (name: string, sources: unknown): BehaviorDefinitionInput =>
  ({
    name,
    prompt: 'Summarise the new decisions.',
    triggers: [{ type: 'event', kinds: ['decision'] }],
    reads: { scopes: ['shared'] },
    writes: { kinds: ['note'], scopes: ['shared'] },
    settleSeconds: 0,
    sources,
  }) as BehaviorDefinitionInput;

before(() => {
  home = mkdtempSync(join(tmpdir(), 'memledger-sources-'));
  ledger = openLedger({ home });
  me = ledger.as(ledger.operator());
});
after(() => {
  ledger.close();
  rmSync(home, { recursive: true, force: true });
});

test('a write, ATTACH, a pragma and load_extension in a source are refused with permission; the control source returns its rows', async () => {
  await me.behaviors.add(
    base('guarded', [
      { name: 'control', sql: 'SELECT count(*) AS n FROM memories' },
      { name: 'insert', sql: "INSERT INTO memories (id) VALUES ('x')" },
      { name: 'create', sql: 'CREATE TABLE t (a)' },
      { name: 'attach', sql: "ATTACH DATABASE '/tmp/memledger-source.db' AS other" },
      { name: 'pragma', sql: 'PRAGMA database_list' },
      { name: 'extension', sql: "SELECT load_extension('/tmp/nothing.so')" },
    ]),
  );
  await me.remember({ scope: 'shared', kind: 'decision', body: 'We deploy on Tuesdays.' });
  const w = await me.behaviors.next('guarded');
  assert.ok(w !== null);
  assert.deepEqual(w.sources.control, { columns: ['n'], rows: [[1]], truncated: false });
  for (const name of ['insert', 'create', 'attach', 'pragma', 'extension']) {
    const r: (typeof w.sources)[string] | undefined = w.sources[name];
    assert.ok(r !== undefined && 'error' in r, `${name} failed`);
    assert.equal(r.error.class, 'permission', `${name}: ${r.error.message}`);
  }
  assert.match((w.sources.attach as { error: { message: string } }).error.message, /ATTACH/);
  assert.match((w.sources.pragma as { error: { message: string } }).error.message, /pragma/i);
  assert.match((w.sources.extension as { error: { message: string } }).error.message, /load_extension/);
});

test('a runaway source is stopped at the time limit; the window and the other sources still arrive', async () => {
  await me.behaviors.add(
    base('runaway', [
      {
        name: 'forever',
        sql: 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r',
      },
      { name: 'control', sql: 'SELECT type, in_window FROM events WHERE in_window = 1', limit: 5 },
    ]),
  );
  await me.remember({ scope: 'shared', kind: 'decision', body: 'We freeze in December.' });
  const w = await me.behaviors.next('runaway');
  assert.ok(w !== null, 'the window arrives');
  assert.equal(w.events.length, 2);
  const forever = w.sources.forever;
  assert.ok(forever !== undefined && 'error' in forever);
  assert.equal(forever.error.class, 'invalid_input');
  assert.match(forever.error.message, /time limit/);
  assert.deepEqual(w.sources.control, {
    columns: ['type', 'in_window'],
    rows: [
      ['appended', 1],
      ['appended', 1],
    ],
    truncated: false,
  });
});

test('definitions with invalid sources are refused at behaviors add with invalid_input and store nothing', async () => {
  const before = (await me.behaviors.list()).length;
  const bad: [string, unknown][] = [
    [
      'duplicate names',
      [
        { name: 'a', sql: 'SELECT 1' },
        { name: 'a', sql: 'SELECT 2' },
      ],
    ],
    ['a bad name', [{ name: 'Bad Name', sql: 'SELECT 1' }]],
    ['empty sql', [{ name: 'a', sql: '   ' }]],
    ['an unknown field', [{ name: 'a', sql: 'SELECT 1', database: 'main' }]],
    ['a limit out of range', [{ name: 'a', sql: 'SELECT 1', limit: 0 }]],
    ['not a list', { name: 'a', sql: 'SELECT 1' }],
  ];
  for (const [why, sources] of bad) {
    await assert.rejects(
      me.behaviors.add(base('bad-sources', sources)),
      (e: { class?: string }) => e.class === 'invalid_input',
      why,
    );
  }
  assert.equal((await me.behaviors.list()).length, before, 'nothing stored');
  // Control: the same definition with a valid source is accepted.
  await me.behaviors.add(base('bad-sources', [{ name: 'a', sql: 'SELECT 1', limit: 10 }]));
  assert.equal((await me.behaviors.list()).length, before + 1);
});
