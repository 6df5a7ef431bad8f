/**
 * The admin's workspace verbs through real surfaces: the CLI spawned (`workspace list | show | export | reset`)
 * and the HTTP routes under /v1/workspaces. An admin human may; an agent (its own workspace included) and a
 * non-admin human get `permission`, audited, changing nothing. `show` never carries row content.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DatabaseSync } from 'node:sqlite';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { type Ledger, openLedger } from '../../src/index.ts';
import { createHttpApp, type HttpApp } from '../../src/surfaces/http/app.ts';
import { cli, ok } from '../cli/helpers.ts';
import { makeTokens, tempHome } from '../mcp/helpers.ts';
import { writeWorkspace } from './snapshot-helpers.ts';

const ROW = 'heron-row-content';
const SEED = `CREATE TABLE sightings (id INTEGER PRIMARY KEY, subject TEXT, note TEXT);
  INSERT INTO sightings (note) VALUES ('${ROW} 1'), ('${ROW} 2');
  CREATE INDEX sightings_note ON sightings(note);`;

async function seeded(home: string): Promise<void> {
  const ledger = openLedger({ home });
  try {
    await writeWorkspace(ledger, 'agent:scout', SEED);
    await writeWorkspace(ledger, 'agent:other', 'CREATE TABLE t (id INTEGER PRIMARY KEY, subject TEXT)');
  } finally {
    ledger.close();
  }
}

const BOB = {
  name: 'bob',
  kind: 'human' as const,
  roles: ['reader' as const, 'writer' as const],
  grants: ['*:rw'],
};

describe('workspace admin over the CLI', () => {
  let home: ReturnType<typeof tempHome>;
  let bob: string;
  before(async () => {
    home = tempHome('ws-cli');
    await seeded(home.home);
    bob = (await makeTokens(home.home, { bob: BOB })).bob!.secret;
  });
  after(() => home.cleanup());

  test('an admin lists, shows (counts and sizes, no rows), exports and resets a workspace', async () => {
    const list = ok(await cli(home.home, ['workspace', 'list', '--json'])).json();
    assert.deepEqual(
      list.workspaces.map((w: { agent: string; version: number }) => [w.agent, w.version]),
      [
        ['agent:other', 1],
        ['agent:scout', 1],
      ],
    );
    const shown = ok(await cli(home.home, ['workspace', 'show', 'agent:scout', '--json']));
    const detail = shown.json();
    assert.deepEqual(
      detail.tables.map((t: { name: string; rows: number }) => [t.name, t.rows]),
      [['sightings', 2]],
    );
    assert.ok(detail.tables[0].bytes >= 8192, 'the table and its index take pages');
    assert.ok(!shown.stdout.includes(ROW), 'show never carries row content');
    const human = ok(await cli(home.home, ['workspace', 'show', 'agent:scout']));
    assert.match(human.stdout, /sightings\s+2/);

    const out = join(home.home, 'scout.sqlite');
    ok(await cli(home.home, ['workspace', 'export', 'agent:scout', '--out', out]));
    const db = new DatabaseSync(out, { readOnly: true });
    assert.deepEqual(
      db
        .prepare('SELECT note FROM sightings ORDER BY id')
        .all()
        .map((r) => r.note),
      [`${ROW} 1`, `${ROW} 2`],
    );
    db.close();
    assert.equal(readFileSync(out).subarray(0, 15).toString(), 'SQLite format 3');

    ok(await cli(home.home, ['workspace', 'reset', 'agent:other']));
    const after = ok(await cli(home.home, ['workspace', 'list', '--json'])).json();
    assert.deepEqual(
      after.workspaces.map((w: { agent: string }) => w.agent),
      ['agent:scout'],
    );
    const again = await cli(home.home, ['workspace', 'reset', 'agent:other', '--json']);
    assert.equal(again.error().class, 'not_found');
  });

  test('an agent and a non-admin human get permission for every verb, audited, and nothing changes', async () => {
    const verbs = [['list'], ['show', 'agent:scout'], ['export', 'agent:scout'], ['reset', 'agent:scout']];
    for (const verb of verbs) {
      for (const who of [
        ['--as', 'agent:scout'],
        ['--token', bob],
      ]) {
        const r = await cli(home.home, ['workspace', ...verb, ...who, '--json']);
        assert.notEqual(r.code, 0);
        assert.equal(r.error().class, 'permission', `${verb[0]} ${who[0]}`);
        assert.ok(!r.stdout.includes(ROW) && !r.stderr.includes(ROW));
      }
    }
    // Control: the workspace is still there, whole, for the admin.
    const detail = ok(await cli(home.home, ['workspace', 'show', 'agent:scout', '--json'])).json();
    assert.deepEqual(
      detail.tables.map((t: { rows: number }) => t.rows),
      [2],
    );
    const ledger = openLedger({ home: home.home });
    try {
      const refused = await ledger
        .as(ledger.operator())
        .audit({ operation: 'workspace.reset', failureClass: 'permission', limit: 100 });
      assert.deepEqual(
        refused.map((r) => r.principal).sort(),
        ['agent:scout', 'human:bob'],
        'each refused reset is audited',
      );
    } finally {
      ledger.close();
    }
  });
});

describe('workspace admin over HTTP', () => {
  let home: ReturnType<typeof tempHome>;
  let ledger: Ledger;
  let tokens: TokenStore;
  let http: HttpApp;
  let secrets: Awaited<ReturnType<typeof makeTokens>>;
  before(async () => {
    home = tempHome('ws-http');
    await seeded(home.home);
    secrets = await makeTokens(home.home, {
      admin: {
        name: 'ada',
        kind: 'human',
        roles: ['reader', 'writer', 'reviewer', 'admin'],
        grants: ['*:rw'],
      },
      agent: { name: 'scout', kind: 'agent', roles: ['reader', 'writer', 'admin'], grants: ['*:rw'] },
      bob: BOB,
    });
    ledger = openLedger({ home: home.home });
    tokens = openTokenStore(home.home);
    http = createHttpApp({ ledger, tokens });
  });
  after(async () => {
    await http.close();
    tokens.close();
    ledger.close();
    home.cleanup();
  });
  const as = (who: string, path: string, init: RequestInit = {}) =>
    http.app.request(path, {
      ...init,
      headers: { authorization: `Bearer ${secrets[who]!.secret}`, 'content-type': 'application/json' },
    });

  test('an admin lists, shows, downloads and resets; an agent (even an admin agent) and a non-admin human get 403', async () => {
    const scout = encodeURIComponent('agent:scout');
    for (const who of ['agent', 'bob']) {
      for (const [path, init] of [
        ['/v1/workspaces', {}],
        [`/v1/workspaces/${scout}`, {}],
        [`/v1/workspaces/${scout}/export`, {}],
        [`/v1/workspaces/${scout}/reset`, { method: 'POST', body: '{}' }],
      ] as const) {
        const res = await as(who, path, init);
        assert.equal(res.status, 403, `${who} ${path}`);
        assert.equal(((await res.json()) as { error: { class: string } }).error.class, 'permission');
      }
    }
    const list = await as('admin', '/v1/workspaces');
    assert.equal(list.status, 200);
    assert.deepEqual(
      ((await list.json()) as { workspaces: { agent: string }[] }).workspaces.map((w) => w.agent),
      ['agent:other', 'agent:scout'],
    );
    const show = await as('admin', `/v1/workspaces/${scout}`);
    const text = await show.text();
    assert.equal(show.status, 200);
    assert.ok(!text.includes(ROW), 'show never carries rows');
    assert.deepEqual(
      (JSON.parse(text) as { tables: { name: string; rows: number }[] }).tables.map((t) => [t.name, t.rows]),
      [['sightings', 2]],
    );
    const file = await as('admin', `/v1/workspaces/${scout}/export`);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'application/vnd.sqlite3');
    assert.match(
      file.headers.get('content-disposition') ?? '',
      /attachment; filename="agent_scout-v1\.sqlite"/,
    );
    const bytes = Buffer.from(await file.arrayBuffer());
    assert.equal(bytes.subarray(0, 15).toString(), 'SQLite format 3');
    assert.ok(bytes.includes(ROW), 'the export is the file itself');
    const missing = await as('admin', `/v1/workspaces/${encodeURIComponent('agent:nobody')}`);
    assert.equal(missing.status, 404);
    const reset = await as('admin', `/v1/workspaces/${scout}/reset`, { method: 'POST', body: '{}' });
    assert.equal(reset.status, 200);
    assert.equal((await as('admin', `/v1/workspaces/${scout}`)).status, 404);
    const audit = await ledger.as(ledger.operator()).audit({ operation: 'workspace.export', limit: 100 });
    assert.deepEqual(
      audit.map((r) => [r.principal, r.outcome]).sort(),
      [
        ['agent:scout', 'error'],
        ['human:ada', 'ok'],
        ['human:bob', 'error'],
      ],
      'every download and every refused one is audited',
    );
  });
});
