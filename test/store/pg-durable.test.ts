/**
 * I13 on Postgres (the twin of sqlite.test.ts's SIGKILL check): writer processes on one tenant, one killed with
 * SIGKILL mid-load; every write a writer saw acknowledged is there afterwards, and the tenant still takes writes.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { newTenant, openPgLedger, describeOnPostgres } from './pg-helpers.ts';

const WRITER = fileURLToPath(new URL('./fixtures/pg-writer.ts', import.meta.url));

/** Starts a writer; `killAfter` acknowledged ids, it is killed with SIGKILL. */
function writer(url: string, tenant: string, label: string, count: number, killAfter?: number) {
  const child = spawn(process.execPath, [WRITER, url, tenant, label, String(count)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ids: string[] = [];
  let buffered = '';
  let stderr = '';
  child.stderr.on('data', (c) => {
    stderr += c;
  });
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      ids.push(line);
      if (killAfter !== undefined && ids.length === killAfter) child.kill('SIGKILL');
    }
  });
  const exited = new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stderr })),
  );
  return { ids, exited };
}

describeOnPostgres('postgres durability', {}, (database) => {
  test('I13 durable (postgres): a writer killed with SIGKILL mid-load loses no acknowledged write; the others and later writes land', async () => {
    const tenant = newTenant();
    const killed = writer(database().appUrl, tenant, 'killed', 400, 40);
    const steady = writer(database().appUrl, tenant, 'steady', 60);
    const [k, s] = await Promise.all([killed.exited, steady.exited]);
    assert.equal(k.signal, 'SIGKILL', k.stderr);
    assert.equal(s.code, 0, s.stderr);
    assert.ok(killed.ids.length >= 40, 'the killed writer saw its writes acknowledged before the kill');
    assert.equal(steady.ids.length, 60);
    const h = await openPgLedger(database(), { tenant });
    try {
      const me = h.ledger.as(h.ledger.operator());
      const acknowledged = [...killed.ids, ...steady.ids];
      assert.equal(new Set(acknowledged).size, acknowledged.length, 'ids are unique across processes');
      const found = await h.store.getMemories(acknowledged);
      assert.deepEqual(
        acknowledged.filter((_, i) => found[i] === null),
        [],
        'every acknowledged write is there',
      );
      // Control: the kill left no lock behind; the tenant takes a write and finds it.
      const after = await me.remember({ body: 'written after the kill', scope: 'shared' });
      assert.equal((await me.get(after.id)).state, 'active');
    } finally {
      await h.close();
    }
  });
});
