/**
 * A restore batch on Postgres written by COPY (copy-batch.ts) lands the same rows as the per-line statements:
 * one file restored into two tenants, one of them with COPY off, compared table by table. In the same batch a
 * held line, a line the guard refuses, a copy of a claim with a standing rejection (I5) and a second successor
 * only the unique index refuses (I2) each keep their outcome, beside controls that land.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { connect } from '../../src/store/postgres/database.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { importedMemoryLine, linesOf } from '../conformance/helpers.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const AT = '2031-03-01T00:00:00.000Z';
const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';

type Line = { type: 'memory'; memory: Record<string, unknown> & { id: string }; events: unknown[] };

let n = 0;
const memoryLine = (fields: {
  scope: string;
  body: string;
  key?: string;
  state?: 'active' | 'held';
}): Line => {
  const line = JSON.parse(importedMemoryLine({ ...fields, at: AT })) as Line;
  line.memory.subjects = ['payments', `topic ${n}`];
  line.events = [
    {
      id: `evt_copy${(n++).toString(36)}x${Math.random()
        .toString(36)
        .slice(2, 10)
        .replace(/[^0-9a-z]/g, '')}`,
      type: 'appended',
      memoryId: line.memory.id,
      actor: 'agent:miner',
      actorKind: 'agent',
      at: AT,
      reason: 'tab\there, a backslash \\ and a\nnew line',
      detail: { note: 'ü and "quotes"' },
    },
  ];
  return line;
};

/** The batch: every outcome a restore line can have, beside controls. */
function batchFile(): { file: string[]; ids: Record<string, string> } {
  const x = memoryLine({ scope: 'project:c', body: 'the launch is in march' });
  x.memory.state = 'superseded';
  const winner = memoryLine({ scope: 'project:c', body: 'the launch is in april' });
  winner.memory.supersedes = x.memory.id;
  x.memory.supersededBy = winner.memory.id;
  const second = memoryLine({ scope: 'project:c', body: 'the launch is in may' });
  second.memory.supersedes = x.memory.id;
  second.memory.state = 'superseded';
  const held = memoryLine({ scope: 'shared', body: 'the vendor may be changing', state: 'held' });
  const guarded = memoryLine({ scope: 'shared', body: `the deploy token is ${TOKEN}` });
  const planted = memoryLine({ scope: 'shared', body: 'deploys run on fridays' });
  planted.memory.state = 'rejected';
  planted.memory.activeFrom = null;
  const rejection = {
    type: 'rejection',
    rejection: {
      scope: 'shared',
      memoryId: planted.memory.id,
      reason: 'no',
      by: 'human:ceo',
      at: AT,
      lifted: null,
    },
  };
  const copy = memoryLine({ scope: 'shared', body: 'deploys run on fridays' });
  const keyed = memoryLine({ scope: 'project:c', body: 'the owner is ana', key: 'team.owner' });
  const controls = Array.from({ length: 5 }, (_, i) =>
    memoryLine({
      scope: i % 2 === 0 ? 'shared' : 'project:c',
      body: `control ${i}: backups run nightly at ${i}`,
    }),
  );
  const lines = [x, winner, second, held, guarded, planted, rejection, copy, keyed, ...controls];
  return {
    file: lines.map((l) => JSON.stringify(l)),
    ids: {
      second: second.memory.id,
      winner: winner.memory.id,
      held: held.memory.id,
      guarded: guarded.memory.id,
      copy: copy.memory.id,
      keyed: keyed.memory.id,
      control: controls[4]!.memory.id,
    },
  };
}

/** Every row the tenant's restore wrote, in seq order, without the tenant and the (cluster-wide) seqs. */
async function rowsOf(adminUrl: string, tenant: string): Promise<Record<string, unknown[]>> {
  const sql = connect(adminUrl, { max: 1 });
  try {
    const q = (text: string) => sql.unsafe(text, [tenant]).then((r) => [...r]);
    return {
      memories: await q(
        `select to_jsonb(m) - 'seq' - 'tenant' as row from memledger.memories m where tenant = $1 order by seq`,
      ),
      subjects: await q(`select s.subject, m.id from memledger.memory_subjects s
        join memledger.memories m on m.seq = s.memory_seq where m.tenant = $1 order by m.seq, s.subject`),
      docs: await q(`select d.idx, d.scope, d.tsv::text, m.id from memledger.search_docs d
        join memledger.memories m on m.seq = d.seq where m.tenant = $1 order by d.idx, m.seq`),
      stats: await q(
        'select scope, idx, docs, tokens from memledger.scope_stats where tenant = $1 order by scope, idx',
      ),
      events: await q(
        `select to_jsonb(e) - 'seq' - 'tenant' as row from memledger.events e where tenant = $1 order by seq`,
      ),
      rejections: await q(
        `select to_jsonb(r) - 'seq' - 'tenant' as row from memledger.rejections r where tenant = $1 order by seq`,
      ),
    };
  } finally {
    await sql.end();
  }
}

describe('postgres restore batches by COPY', { skip }, () => {
  let db: PgTestDatabase;
  before(async () => {
    if ('url' in cluster) db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    await db?.drop();
  });

  test('I2 I5 I10 a COPY batch keeps every outcome of the per-line path and writes the same rows', async () => {
    const { file, ids } = batchFile();
    const results = [];
    const tenants = [];
    for (const copy of [true, false]) {
      const { ledger, store, tenant, close } = await openPgLedger(db, { now: () => AT });
      store.copyBatches = copy;
      tenants.push(tenant);
      try {
        const me = ledger.as(ledger.operator());
        const result = await me.import(linesOf(file), { mode: 'restore', file: 'copy.jsonl' });
        results.push(result);
        assert.deepEqual(
          result.failed.map((f) => [f.line, f.class]),
          [
            [3, 'conflict'],
            [5, 'invalid_input'],
          ],
          JSON.stringify(result.failed),
        );
        assert.match(result.failed[0]!.message, new RegExp(ids.winner!), 'the conflict names the winner');
        assert.ok(!result.failed[1]!.message.includes(TOKEN), 'the guard does not echo the secret');
        assert.equal(result.held, 1);
        assert.equal(result.rejected, 1, 'the copy of the rejected claim lands rejected (I5)');
        await assert.rejects(me.get(ids.second!), (e: { class?: string }) => e.class === 'not_found');
        await assert.rejects(me.get(ids.guarded!), (e: { class?: string }) => e.class === 'not_found');
        assert.equal((await me.get(ids.copy!)).state, 'rejected');
        assert.equal((await me.get(ids.held!)).state, 'held');
        assert.equal((await me.get(ids.keyed!)).state, 'active', 'control: the keyed line lands');
        const found = await me.search({ query: 'backups nightly', scopes: ['shared'] });
        assert.ok(
          found.hits.some((h) => h.memory.id === ids.control),
          'control: the last line is restored and searchable',
        );
        const fridays = await me.search({ query: 'fridays', scopes: ['shared'] });
        assert.deepEqual(fridays.hits, [], 'the rejected copy is out of the current index');
      } finally {
        await close();
      }
    }
    assert.deepEqual(results[0], results[1], 'the same outcomes both ways');
    const [copied, perLine] = [
      await rowsOf(db.adminUrl, tenants[0]!),
      await rowsOf(db.adminUrl, tenants[1]!),
    ];
    assert.ok(copied.memories!.length >= 10 && copied.events!.length >= 10);
    assert.deepEqual(copied, perLine, 'the same rows, column for column, in the same order');
  });

  test('I1 batches without conflicts land by COPY with the same rows as line by line, events and documents included, whatever the batch size', async () => {
    const lines = Array.from({ length: 1500 }, (_, i) =>
      memoryLine({
        scope: `project:s${i % 7}`,
        body: `fact number ${i} about the harbour`,
        ...(i % 5 === 0 ? { key: `k.${i}` } : {}),
        ...(i % 11 === 0 ? { state: 'held' as const } : {}),
      }),
    );
    const tenants = [];
    for (const copy of [true, false]) {
      const { ledger, store, tenant, close } = await openPgLedger(db, { now: () => AT });
      store.copyBatches = copy;
      // By COPY in two transactions (1,000 and 500 lines), line by line in one (the store's 5,000 a restore).
      if (copy) store.restoreBatch = 1000;
      tenants.push(tenant);
      try {
        const me = ledger.as(ledger.operator());
        let batches = 0;
        const result = await me.import(linesOf(lines.map((l) => JSON.stringify(l))), {
          mode: 'restore',
          onProgress: () => batches++,
        });
        assert.equal(batches, copy ? 2 : 1, 'one progress report per committed batch');
        assert.deepEqual(result.failed, []);
        assert.equal(result.imported + result.held, 1500);
        const history = await me.history(lines.at(-1)!.memory.id);
        assert.ok(
          history.events.some((e) => e.type === 'appended'),
          'the copied event is read back',
        );
        const found = await me.search({ query: 'fact number 1499 harbour', scopes: ['project:s1'] });
        assert.ok(
          found.hits.some((h) => h.memory.id === lines.at(-1)!.memory.id),
          'and searchable',
        );
      } finally {
        await close();
      }
    }
    const [copied, perLine] = [
      await rowsOf(db.adminUrl, tenants[0]!),
      await rowsOf(db.adminUrl, tenants[1]!),
    ];
    assert.equal(copied.memories!.length, 1500);
    assert.deepEqual(copied, perLine, 'the same rows, column for column, in the same order');
  });
});
