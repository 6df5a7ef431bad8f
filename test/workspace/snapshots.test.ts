/** Workspace snapshots on every backend: commit/checkout round trip, the optimistic version, two writing processes. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { eachBackend } from './backends.ts';
import { readWorkspace, storedBytes, writeWorkspace } from './snapshot-helpers.ts';

const RACE = fileURLToPath(new URL('./fixtures/commit-race.ts', import.meta.url));
const NOTES = 'CREATE TABLE notes (id INTEGER PRIMARY KEY, subject TEXT, body TEXT);';

eachBackend('workspace snapshots', (open) => {
  test('a committed workspace is restored by another handle on the store, then served from its local copy', async () => {
    const h = await open();
    try {
      const agent = 'agent:scout';
      const first = await h.ledger.workspaceFiles.checkout(agent);
      assert.deepEqual([first.version, first.outcome], [0, 'fresh']);
      const v1 = await writeWorkspace(
        h.ledger,
        agent,
        `${NOTES} INSERT INTO notes (body) VALUES ('kestrel');`,
      );
      assert.equal(v1, 1);
      const meta = await h.ledger.store.workspaces.meta(agent);
      assert.equal(meta?.version, 1);
      assert.equal(meta?.tableCount, 1);
      assert.ok(meta!.compressedSize > 0 && meta!.rawSize >= meta!.compressedSize);
      assert.ok((await storedBytes(h.ledger, agent))!.includes('kestrel'), 'the snapshot holds the row');

      const other = await h.reopen();
      const restored = await other.workspaceFiles.checkout(agent);
      assert.deepEqual([restored.version, restored.outcome, restored.notice], [1, 'restored', undefined]);
      assert.notEqual(restored.path, first.path, 'each handle keeps its own local copy');
      assert.deepEqual(await readWorkspace(other, agent, 'SELECT body FROM notes'), [{ body: 'kestrel' }]);
      assert.equal((await other.workspaceFiles.checkout(agent)).outcome, 'cached');

      // The other handle writes; the first sees the newer version and restores it.
      assert.equal(await writeWorkspace(other, agent, "INSERT INTO notes (body) VALUES ('plover')"), 2);
      const again = await h.ledger.workspaceFiles.checkout(agent);
      assert.deepEqual([again.version, again.outcome], [2, 'restored']);
      assert.deepEqual(await readWorkspace(h.ledger, agent, 'SELECT body FROM notes ORDER BY id'), [
        { body: 'kestrel' },
        { body: 'plover' },
      ]);
      // Control: another agent's workspace is untouched and separate.
      assert.equal((await h.ledger.workspaceFiles.checkout('agent:other')).outcome, 'fresh');
      assert.deepEqual(
        (await h.ledger.store.workspaces.list()).map((m) => [m.agent, m.version]),
        [[agent, 2]],
      );
    } finally {
      await h.cleanup();
    }
  });

  test('after a reset the next version 1 is a new workspace: a copy of the old version 1 is not served', async () => {
    const h = await open();
    try {
      const agent = 'agent:scout';
      await writeWorkspace(h.ledger, agent, `${NOTES} INSERT INTO notes (body) VALUES ('before-reset')`);
      const other = await h.reopen();
      assert.equal((await other.workspaceFiles.checkout(agent)).outcome, 'restored');
      assert.equal(await h.ledger.workspaceFiles.reset(agent), true);
      assert.equal(
        await writeWorkspace(h.ledger, agent, `${NOTES} INSERT INTO notes (body) VALUES ('after-reset')`),
        1,
      );
      const again = await other.workspaceFiles.checkout(agent);
      assert.deepEqual([again.version, again.outcome], [1, 'restored']);
      assert.deepEqual(await readWorkspace(other, agent, 'SELECT body FROM notes'), [
        { body: 'after-reset' },
      ]);
    } finally {
      await h.cleanup();
    }
  });

  test('a commit on a stale version is a conflict and stores nothing; the winner stands', async () => {
    const h = await open();
    try {
      const agent = 'agent:scout';
      await writeWorkspace(h.ledger, agent, `${NOTES} INSERT INTO notes (body) VALUES ('base')`);
      const other = await h.reopen();
      const mine = await h.ledger.workspaceFiles.checkout(agent);
      const theirs = await other.workspaceFiles.checkout(agent);
      assert.equal(mine.version, theirs.version);
      assert.equal(await writeWorkspace(other, agent, "INSERT INTO notes (body) VALUES ('winner')"), 2);
      const { DatabaseSync } = await import('node:sqlite');
      const db = new DatabaseSync(mine.path);
      db.exec("INSERT INTO notes (body) VALUES ('loser')");
      db.close();
      await assert.rejects(h.ledger.workspaceFiles.commit(agent, mine.path, mine.version), (e: Error) => {
        assert.equal((e as { class?: string }).class, 'conflict');
        assert.doesNotMatch(e.message, /loser|winner/);
        return true;
      });
      assert.equal((await h.ledger.store.workspaces.meta(agent))?.version, 2);
      const bytes = (await storedBytes(h.ledger, agent))!;
      assert.ok(bytes.includes('winner'), 'control: the winner is stored');
      assert.ok(!bytes.includes('loser'), 'the stale write is not');
      // The loser's next checkout restores the winner; its next call works.
      const next = await h.ledger.workspaceFiles.checkout(agent);
      assert.deepEqual([next.version, next.outcome], [2, 'restored']);
      assert.equal(await writeWorkspace(h.ledger, agent, "INSERT INTO notes (body) VALUES ('retry')"), 3);
    } finally {
      await h.cleanup();
    }
  });

  test('two processes commit one workspace on the same version: exactly one wins, the file is never a mix', async () => {
    const h = await open();
    const dir = mkdtempSync(join(tmpdir(), 'ml-race-'));
    try {
      const agent = 'agent:racer';
      await writeWorkspace(h.ledger, agent, `${NOTES} INSERT INTO notes (body) VALUES ('start')`);
      const barrier = join(dir, 'go');
      const writers = ['alpha', 'bravo'].map((m) => racer(h.spec, agent, `marker-${m}`, barrier));
      await Promise.all(writers.map((w) => w.ready));
      writeFileSync(barrier, '');
      const results = await Promise.all(writers.map((w) => w.result));
      const won = results.filter((r) => 'version' in r);
      const lost = results.filter((r) => 'conflict' in r);
      assert.equal(won.length, 1, JSON.stringify(results));
      assert.equal(lost.length, 1, JSON.stringify(results));
      assert.equal((won[0] as { version: number }).version, 2);
      const winner = results.indexOf(won[0]!) === 0 ? 'marker-alpha' : 'marker-bravo';
      const loser = winner === 'marker-alpha' ? 'marker-bravo' : 'marker-alpha';
      const rows = await readWorkspace(h.ledger, agent, 'SELECT body FROM notes ORDER BY id');
      assert.deepEqual(rows, [{ body: 'start' }, { body: winner }]);
      assert.ok(!(await storedBytes(h.ledger, agent))!.includes(loser));
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await h.cleanup();
    }
  });
});

function racer(spec: string, agent: string, marker: string, barrier: string) {
  const child = spawn(
    process.execPath,
    ['--disable-warning=ExperimentalWarning', RACE, spec, agent, marker, barrier],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  let onReady: () => void;
  const ready = new Promise<void>((r) => {
    onReady = r;
  });
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    out += c;
    if (out.includes('ready')) onReady();
  });
  const result = new Promise<Record<string, unknown>>((resolve) => {
    child.on('close', () => resolve(JSON.parse(out.trim().split('\n').pop() ?? '{}')));
  });
  return { ready, result };
}
