/**
 * scope_stats (migration 6) against the full-text indexes themselves: after every kind of change, each scope's
 * documents and tokens per index are what fts5vocab finds in that index for that scope. Search takes bm25's
 * collection size and length from this table (I4), so a drift would skew every score in the scope.
 */
import assert from 'node:assert/strict';
import type { DatabaseSync } from 'node:sqlite';
import { describe, test } from 'node:test';
import { join } from 'node:path';
import { openLedger } from '../../src/index.ts';
import { openDatabase } from '../../src/store/sqlite/database.ts';
import { MEMORY_MIGRATIONS } from '../../src/store/sqlite/migrations/index.ts';
import { newId } from '../../src/model/ids.ts';
import { raw, withHome } from './helpers.ts';

async function* linesOf(docs: readonly unknown[]): AsyncGenerator<string> {
  for (const d of docs) yield JSON.stringify(d);
}

type Counts = Record<string, { docs: number; tokens: number }>;

/** Documents and token instances per `index scope`, read from the index (every column, as bm25 counts length). */
function fromIndex(db: DatabaseSync): Counts {
  const out: Counts = {};
  for (const index of ['current', 'history']) {
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.terms_${index} USING fts5vocab(main, fts_${index}, instance)`,
    );
    const rows = db
      .prepare(
        `SELECT m.scope, count(DISTINCT v.doc) AS docs, count(*) AS tokens
         FROM temp.terms_${index} v JOIN memories m ON m.seq = v.doc GROUP BY m.scope`,
      )
      .all() as { scope: string; docs: number; tokens: number }[];
    for (const r of rows) out[`${index} ${r.scope}`] = { docs: r.docs, tokens: r.tokens };
  }
  return out;
}

function fromTable(db: DatabaseSync): Counts {
  const out: Counts = {};
  for (const r of db.prepare('SELECT scope, idx, docs, tokens FROM scope_stats WHERE docs <> 0').all() as {
    scope: string;
    idx: string;
    docs: number;
    tokens: number;
  }[]) {
    out[`${r.idx} ${r.scope}`] = { docs: r.docs, tokens: r.tokens };
  }
  return out;
}

/** The table agrees with the index, and returns it for further checks. */
function assertInStep(path: string, step: string): Counts {
  return raw(path, (db) => {
    const table = fromTable(db);
    assert.deepEqual(table, fromIndex(db), step);
    assert.equal(
      (
        db.prepare('SELECT count(*) AS n FROM scope_stats WHERE docs < 0 OR tokens < 0').get() as {
          n: number;
        }
      ).n,
      0,
      step,
    );
    return table;
  });
}

describe('scope statistics', () => {
  test('count documents and tokens per scope and index through insert, supersede, retract, reject, approve and erase', () =>
    withHome(async ({ db, ledger }) => {
      const me = ledger.as(ledger.operator());
      const bot = ledger.as(ledger.principal('agent:bot'));
      // Three body tokens, the key's two in the meta column, the scope token: six.
      await me.remember({ body: 'Alpha beta gamma', scope: 'shared', key: 'acme.plan' });
      assert.deepEqual(assertInStep(db, 'insert'), { 'current shared': { docs: 1, tokens: 6 } });

      await me.remember({ body: 'Alpha beta gamma delta', scope: 'shared', key: 'acme.plan' });
      assert.deepEqual(assertInStep(db, 'supersede'), {
        'current shared': { docs: 1, tokens: 7 },
        'history shared': { docs: 1, tokens: 6 },
      });

      const other = await me.remember({ body: 'Only in a project', scope: 'project:x' });
      await me.retract({ id: other.id, reason: 'wrong' });
      const retracted = assertInStep(db, 'retract');
      assert.equal(retracted['current project:x'], undefined);
      assert.deepEqual(retracted['history project:x'], { docs: 1, tokens: 5 });

      // The default policy holds an agent's write to shared: nothing indexed until a verdict lands it.
      const held = await bot.remember({ body: 'Proposed by the bot', scope: 'shared' });
      const rejected = await bot.remember({ body: 'Another bot proposal', scope: 'shared' });
      assert.equal(held.state, 'held');
      assert.deepEqual(assertInStep(db, 'held'), retracted);
      await me.reject({ id: rejected.id, reason: 'no' });
      assert.deepEqual(assertInStep(db, 'reject'), retracted);
      await me.approve({ id: held.id });
      assert.equal(assertInStep(db, 'approve')['current shared']!.docs, 2);

      await me.remember({ body: 'About Dana', scope: 'shared', subjects: ['person:dana@example.com'] });
      await me.remember({
        body: 'About Dana again',
        scope: 'shared',
        key: 'dana.x',
        subjects: ['person:dana@example.com'],
      });
      await me.remember({
        body: 'About Dana, revised',
        scope: 'shared',
        key: 'dana.x',
        subjects: ['person:dana@example.com'],
      });
      const withDana = assertInStep(db, 'before erase');
      await me.erase({ subject: 'person:dana@example.com' });
      const erased = assertInStep(db, 'erase');
      assert.equal(erased['current shared']!.docs, withDana['current shared']!.docs - 2);
      assert.equal(erased['history shared']!.docs, withDana['history shared']!.docs - 1);
    }));

  test('an import batch writes its held-back index documents once: a key superseded inside the batch, refused lines and a replayed batch leave the index, the table and search in step', () =>
    withHome(async ({ db, ledger }) => {
      const me = ledger.as(ledger.operator());
      // Ingest, one batch: a key written twice (the second supersedes the first inside the transaction, so the
      // first's document must be in the current index before it moves to history), a credential (refused by
      // the guard), a claim rejected before (lands rejected, unindexed), and controls.
      const rejected = await me.remember({ body: 'Pluto is a planet', scope: 'shared' });
      await me.reject({ id: rejected.id, reason: 'no', expect: 'active' });
      const ingest = await me.import(
        linesOf([
          { body: 'Zephyr plan is Pro', scope: 'project:a', key: 'zephyr.plan' },
          { body: 'Zephyr plan is Team', scope: 'project:a', key: 'zephyr.plan' },
          { body: 'token ghp_0123456789abcdefghijABCDEFGHIJ012345 here', scope: 'project:a' },
          { body: 'Pluto is a planet', scope: 'shared' },
          { body: 'Quokka control landed', scope: 'project:b' },
        ]),
      );
      assert.equal(ingest.imported, 3);
      assert.equal(ingest.rejected, 1);
      assert.deepEqual(
        ingest.failed.map((f) => [f.line, f.class]),
        [[3, 'invalid_input']],
      );
      const afterIngest = assertInStep(db, 'ingest batch');
      // Four body tokens, the key's two, the scope token.
      assert.deepEqual(afterIngest['current project:a'], { docs: 1, tokens: 7 });
      assert.equal(afterIngest['history project:a']?.docs, 1);
      const found = async (q: string) => (await me.search({ query: q })).hits.map((h) => h.memory.body);
      assert.deepEqual(await found('zephyr team'), ['Zephyr plan is Team']);
      assert.deepEqual(await found('quokka'), ['Quokka control landed']);
      // The rejection stands (I5): neither the rejected original nor the re-imported claim is current.
      assert.deepEqual(await found('pluto'), []);
      assert.deepEqual(await found('ghp_0123456789abcdefghijABCDEFGHIJ012345'), []);

      // Restore, one batch whose third line trips the one-successor index after it began writing: the batch
      // rolls back and replays line by line with savepoints. The lines before and after it stay indexed.
      const source = await me.remember({ body: 'Walrus base version', scope: 'project:c', key: 'walrus' });
      const v2 = await me.remember({ body: 'Walrus second version', scope: 'project:c', key: 'walrus' });
      const lines: Record<string, unknown>[] = [];
      for await (const line of me.export()) {
        const doc = JSON.parse(line) as { type: string; memory?: { id: string } };
        if (doc.memory?.id === source.id || doc.memory?.id === v2.id) lines.push(doc);
      }
      assert.equal(lines.length, 2);
      await withHome(async ({ db: db2, ledger: other }) => {
        const admin = other.as(other.operator());
        const base = lines[0] as { memory: Record<string, unknown> };
        const second = lines[1] as { memory: Record<string, unknown> };
        const rival = {
          type: 'memory',
          memory: { ...second.memory, id: newId('mem'), key: null, body: 'Walrus rival version' },
          events: [],
        };
        const control = {
          type: 'memory',
          memory: {
            ...second.memory,
            id: newId('mem'),
            key: null,
            supersedes: null,
            body: 'Narwhal control',
          },
          events: [],
        };
        const restored = await admin.import(linesOf([base, second, rival, control]), { mode: 'restore' });
        assert.equal(restored.imported, 3);
        assert.deepEqual(
          restored.failed.map((f) => [f.line, f.class]),
          [[3, 'conflict']],
        );
        assertInStep(db2, 'replayed restore batch');
        const hits = async (q: string) =>
          (await admin.search({ query: q })).hits.map((h) => h.memory.body).sort();
        assert.deepEqual(await hits('walrus'), ['Walrus second version']);
        assert.deepEqual(await hits('narwhal'), ['Narwhal control']);
        assert.deepEqual(await hits('rival'), []);
      });
    }));

  test('reindex rebuilds them from the log, whatever the table held', () =>
    withHome(async ({ db, ledger }) => {
      const me = ledger.as(ledger.operator());
      for (let i = 0; i < 5; i++) {
        await me.remember({
          body: `Note ${i} with some words`,
          scope: `project:p${i % 2}`,
          key: `k${i % 3}`,
        });
      }
      const good = assertInStep(db, 'written');
      raw(db, (d) => d.exec(`UPDATE scope_stats SET docs = docs + 7, tokens = 0`));
      await me.reindex();
      assert.deepEqual(assertInStep(db, 'reindex'), good);
    }));

  test('migration 6 counts what an existing home has indexed', () =>
    withHome(async ({ home, db, ledger }) => {
      const me = ledger.as(ledger.operator());
      await me.remember({ body: 'Kept current', scope: 'shared', key: 'a' });
      await me.remember({ body: 'Kept current, second version', scope: 'shared', key: 'a' });
      const gone = await me.remember({
        body: 'Retracted later',
        scope: 'user:z',
        value: { note: 'in meta' },
      });
      await me.retract({ id: gone.id, reason: 'x' });
      const expected = assertInStep(db, 'written');
      ledger.close();
      // A home as memledger left it before migration 6: no statistics table, schema version 5. Migration 6 runs
      // alone on it (the later ones are this home's already), then the home opens as usual.
      const latest = MEMORY_MIGRATIONS.at(-1)!.version;
      raw(db, (d) => d.exec('DROP TABLE scope_stats; PRAGMA user_version = 5'));
      openDatabase(
        join(home, 'memory.db'),
        MEMORY_MIGRATIONS.filter((m) => m.version <= 6),
      ).close();
      raw(db, (d) => d.exec(`PRAGMA user_version = ${latest}`));
      const reopened = openLedger({ home });
      try {
        assert.deepEqual(assertInStep(db, 'migrated'), expected);
      } finally {
        reopened.close();
      }
    }));
});
