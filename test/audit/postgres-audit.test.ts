/**
 * The audit store on Postgres, on the run's cluster: the sink contract, append-only by privilege and by
 * trigger, readable by the auditor role that cannot read the store, and tenant A never reads tenant B (I8, I19).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type postgres from 'postgres';
import { openPostgresAudit } from '../../src/audit/postgres-audit.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { type Scratch, scratchDatabase } from './pg-scratch.ts';
import { auditRecord, sinkContract } from './sink-contract.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

/** Rejects with SQLSTATE `code` (42501: insufficient privilege), optionally with a message. */
const refusedWith = (code: string, message?: RegExp) => (error: unknown) => {
  const e = error as { code?: string; message?: string };
  return e.code === code && (message === undefined || message.test(e.message ?? ''));
};
const inTenant = <T>(sql: postgres.Sql, tenant: string, fn: (tx: postgres.TransactionSql) => Promise<T>) =>
  sql.begin(async (tx) => {
    await tx`select set_config('memledger.tenant', ${tenant}, true)`;
    return fn(tx);
  }) as Promise<T>;

describe('Postgres audit', { skip }, () => {
  let db: Scratch;
  let tenants = 0;

  before(async () => {
    if ('skip' in cluster) return;
    db = await scratchDatabase(cluster.url, 'audit');
    // As the owner: the one opener that migrates.
    await (await openPostgresAudit(db.url(), { tenant: 'setup' })).close();
  });
  after(async () => {
    await db?.cleanup();
  });

  sinkContract({
    name: 'postgres',
    skip,
    open: () => openPostgresAudit(db.url(undefined, `t${++tenants}`)),
  });

  test('I8 audit (postgres): as memledger_app, INSERT and the ledger reads work, UPDATE, DELETE, TRUNCATE and SELECT are refused', async () => {
    const login = await db.loginAs('memledger_app');
    const sink = await openPostgresAudit(db.url(login, 'app'), { migrate: false });
    const raw = db.raw(login);
    try {
      const r = auditRecord('2026-03-01T00:00:00.000Z');
      await sink.write(r);
      await sink.write(r); // moved again from an outbox: still one record, without SELECT on the table
      assert.deepEqual(
        (await sink.query({})).map((x) => x.id),
        [r.id],
        'control: the application wrote it and reads it back',
      );
      for (const statement of [
        `UPDATE memledger_audit.records SET outcome = 'error'`,
        'DELETE FROM memledger_audit.records',
        'TRUNCATE memledger_audit.records',
        'SELECT * FROM memledger_audit.records',
      ]) {
        await assert.rejects(
          inTenant(raw, 'app', (tx) => tx.unsafe(statement)),
          refusedWith('42501', /permission denied/),
          statement,
        );
      }
      assert.deepEqual(
        (await sink.query({})).map((x) => [x.id, x.outcome]),
        [[r.id, 'ok']],
        'the record is as written',
      );
    } finally {
      await sink.close();
    }
  });

  test('I8 audit (postgres): a record the outbox backs (committed without waiting for its fsync) lands as memledger_app, once, beside an unbacked one', async () => {
    const login = await db.loginAs('memledger_app');
    const sink = await openPostgresAudit(db.url(login, 'backed'), { migrate: false });
    try {
      const backed = auditRecord('2026-03-02T00:00:00.000Z');
      const plain = auditRecord('2026-03-02T00:00:01.000Z', { operation: 'search' });
      await sink.write(backed, { backed: true });
      await sink.write({ ...backed, outcome: 'error' }, { backed: true });
      await sink.write(plain);
      assert.deepEqual(
        (await sink.query({})).map((x) => [x.id, x.outcome]),
        [
          [plain.id, 'ok'],
          [backed.id, 'ok'],
        ],
        'the backed record is there once, as first written, and the control beside it',
      );
    } finally {
      await sink.close();
    }
  });

  test('I8 audit (postgres): the trigger refuses UPDATE, DELETE and TRUNCATE even to the owner', async () => {
    const sink = await openPostgresAudit(db.url(undefined, 'owner'));
    const raw = db.raw();
    try {
      const r = auditRecord('2026-03-02T00:00:00.000Z');
      await sink.write(r);
      for (const statement of [
        `UPDATE memledger_audit.records SET principal = 'human:nobody' WHERE tenant = 'owner'`,
        `DELETE FROM memledger_audit.records WHERE tenant = 'owner'`,
        'TRUNCATE memledger_audit.records',
      ]) {
        await assert.rejects(
          inTenant(raw, 'owner', (tx) => tx.unsafe(statement)),
          refusedWith('42501', /I8 audit is append-only/),
          statement,
        );
      }
      const [row] = await inTenant(
        raw,
        'owner',
        (tx) => tx`
        SELECT principal, count(*) OVER () AS n FROM memledger_audit.records WHERE tenant = 'owner'`,
      );
      assert.deepEqual([row?.principal, Number(row?.n)], ['agent:bot', 1], 'the record is there, unchanged');
    } finally {
      await sink.close();
    }
  });

  test('I8 audit (postgres): memledger_auditor reads audit records but not a store table; the application reads that table', async () => {
    const sink = await openPostgresAudit(db.url(undefined, 'audited'));
    const owner = db.raw();
    // A stand-in for the store's tables, granted as the store grants them: to the application only.
    await owner.unsafe(`
      CREATE TABLE IF NOT EXISTS public.store_standin (tenant text NOT NULL, body text NOT NULL);
      INSERT INTO public.store_standin VALUES ('audited', 'Acme renews in March');
      REVOKE ALL ON public.store_standin FROM PUBLIC;
      GRANT SELECT, INSERT ON public.store_standin TO memledger_app;`);
    const auditor = db.raw(await db.loginAs('memledger_auditor'));
    const app = db.raw(await db.loginAs('memledger_app'));
    try {
      const r = auditRecord('2026-03-03T00:00:00.000Z');
      await sink.write(r);
      const rows = await inTenant(
        auditor,
        'audited',
        (tx) => tx`SELECT id, principal FROM memledger_audit.records`,
      );
      assert.deepEqual(
        rows.map((x) => [x.id, x.principal]),
        [[r.id, 'agent:bot']],
      );
      await assert.rejects(
        inTenant(auditor, 'audited', (tx) => tx`SELECT body FROM public.store_standin`),
        refusedWith('42501', /permission denied/),
        'the auditor cannot read memories',
      );
      const control = await inTenant(app, 'audited', (tx) => tx`SELECT body FROM public.store_standin`);
      assert.equal(control.length, 1, 'control: the application can');
      await assert.rejects(
        inTenant(auditor, 'audited', (tx) => tx`DELETE FROM memledger_audit.records`),
        refusedWith('42501'),
        'nor change the audit',
      );
      await assert.rejects(
        inTenant(
          auditor,
          'audited',
          (tx) => tx`INSERT INTO memledger_audit.records (tenant, id, at, principal, principal_kind, surface,
            operation, targets, args_hash, args_preview, outcome, changes, duration_ms)
            VALUES ('audited', 'aud_forged', 'x', 'p', 'k', 's', 'o', '[]', 'h', '{}', 'ok', '[]', 0)`,
        ),
        refusedWith('42501'),
        'nor add to it',
      );
    } finally {
      await sink.close();
    }
  });

  test('I8 audit (postgres): tenant A reads only its own records, through the sink and through raw connections', async () => {
    const a = await openPostgresAudit(db.url(undefined, 'tenant-a'));
    const b = await openPostgresAudit(db.url(), { tenant: 'tenant-b' });
    const app = db.raw(await db.loginAs('memledger_app'));
    const auditor = db.raw(await db.loginAs('memledger_auditor'));
    try {
      const mine = auditRecord('2026-03-04T00:00:00.000Z', { principal: 'agent:a' });
      const theirs = auditRecord('2026-03-04T00:00:01.000Z', {
        principal: 'agent:b',
        outcome: 'error',
        failureClass: 'permission',
        message: 'no',
      });
      await a.write(mine);
      await b.write(theirs);
      assert.deepEqual(
        (await a.query({})).map((r) => r.id),
        [mine.id],
        'A sees its own, not B',
      );
      assert.deepEqual(
        (await b.query({})).map((r) => r.id),
        [theirs.id],
        'control: B sees its own',
      );
      assert.deepEqual(await a.failureCounts(), [], "B's failure is not counted for A");

      const viaFeed = await inTenant(
        app,
        'tenant-a',
        (tx) => tx`SELECT id FROM memledger_audit.feed(null, null, null, null, null, null, 100)`,
      );
      assert.deepEqual(
        viaFeed.map((r) => r.id),
        [mine.id],
        'the feed function reads the caller tenant only',
      );
      const direct = await inTenant(auditor, 'tenant-a', (tx) => tx`SELECT id FROM memledger_audit.records`);
      assert.deepEqual(
        direct.map((r) => r.id),
        [mine.id],
        'row-level security holds for the auditor',
      );
      const unset = await auditor`SELECT id FROM memledger_audit.records`;
      assert.equal(unset.length, 0, 'a connection that names no tenant sees nothing');
      await assert.rejects(
        inTenant(
          app,
          'tenant-a',
          (tx) => tx`INSERT INTO memledger_audit.records (tenant, id, at, principal, principal_kind, surface,
            operation, targets, args_hash, args_preview, outcome, changes, duration_ms)
            VALUES ('tenant-b', 'aud_forged', 'x', 'p', 'k', 's', 'o', '[]', 'h', '{}', 'ok', '[]', 0)`,
        ),
        refusedWith('42501', /row-level security/),
        "A cannot write into B's records",
      );
      assert.deepEqual(
        (await b.query({})).map((r) => r.id),
        [theirs.id],
        "B's records are as they were",
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('the tenant is named once: a URL and an option that disagree are refused, a malformed one too', async () => {
    await assert.rejects(openPostgresAudit(db.url(undefined, 'one'), { tenant: 'two' }), {
      class: 'invalid_input',
    });
    await assert.rejects(openPostgresAudit(db.url(), { tenant: 'Not A Tenant' }), { class: 'invalid_input' });
  });
});
