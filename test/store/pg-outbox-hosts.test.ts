/**
 * The audit outbox across hosts (I8 with replicas on several machines): opening a ledger moves a row of this
 * machine as soon as its process is dead, leaves a live local process's row to it, and moves another machine's
 * row only once it is older than the outbox lease, by the database's clock. A ledger that stays open (a server)
 * moves rows left after its open with `recoverAuditOutbox`, leaving its own process's rows to it.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { test } from 'node:test';
import type { AuditRecord } from '../../src/audit/record.ts';
import { OUTBOX_LEASE_MS } from '../../src/ledger/audit-recovery.ts';
import { thisHost } from '../../src/ledger/host.ts';
import { connect, inTenant } from '../../src/store/postgres/database.ts';
import { newTenant, openPgLedger, describeOnPostgres } from './pg-helpers.ts';

/** A record as a call leaves it in the outbox at its last commit. */
function record(id: string): AuditRecord {
  return {
    id,
    at: new Date().toISOString(),
    principal: 'agent:replica',
    principalKind: 'agent',
    onBehalfOf: null,
    surface: 'http',
    operation: 'remember',
    tool: null,
    tokenId: null,
    sessionId: null,
    runId: null,
    client: null,
    targets: [],
    argsHash: 'h',
    argsPreview: { scope: 'shared' },
    outcome: 'ok',
    failureClass: null,
    message: null,
    changes: [],
    durationMs: 1,
  };
}

/** Rows as a dead or live writer left them, each `ageSeconds` old by the database's clock. */
async function plant(
  adminUrl: string,
  tenant: string,
  rows: { id: string; pid: number; host: string; ageSeconds: number }[],
): Promise<void> {
  const admin = connect(adminUrl, { max: 1 });
  try {
    await inTenant(admin, tenant, async (q) => {
      for (const r of rows) {
        await q`insert into memledger.audit_outbox (tenant, id, pid, host, record, written_at)
                values (${tenant}, ${r.id}, ${r.pid}, ${r.host}, ${JSON.stringify(record(r.id))},
                        now() - make_interval(secs => ${r.ageSeconds}))`;
      }
    });
  } finally {
    await admin.end();
  }
}

const isRecovered = (r: AuditRecord) => (r.argsPreview as { recovered?: boolean }).recovered === true;

describeOnPostgres('postgres audit outbox across hosts', {}, (database) => {
  test("I8 audit (postgres replicas): another host's outbox row younger than the lease is left to it, an older one is moved; a dead local pid's row is moved at once, a live one's is not", async () => {
    const tenant = newTenant();
    const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
    const live = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    const admin = connect(database().adminUrl, { max: 1 });
    const leaseSeconds = OUTBOX_LEASE_MS / 1000;
    const rows = [
      // pid 1 is alive on this machine, which must not matter: the row is another machine's.
      { id: 'aud_other_young', pid: 1, host: 'elsewhere/boot-a', ageSeconds: leaseSeconds - 60 },
      { id: 'aud_other_old', pid: 1, host: 'elsewhere/boot-a', ageSeconds: leaseSeconds + 60 },
      { id: 'aud_local_dead', pid: deadPid, host: thisHost(), ageSeconds: 0 },
      { id: 'aud_local_live', pid: live.pid!, host: thisHost(), ageSeconds: 0 },
    ];
    try {
      await inTenant(admin, tenant, async (q) => {
        for (const r of rows) {
          await q`insert into memledger.audit_outbox (tenant, id, pid, host, record, written_at)
                  values (${tenant}, ${r.id}, ${r.pid}, ${r.host}, ${JSON.stringify(record(r.id))},
                          now() - make_interval(secs => ${r.ageSeconds}))`;
        }
      });
      const h = await openPgLedger(database(), { tenant });
      try {
        const me = h.ledger.as(h.ledger.operator());
        // The read waits for the open's recovery.
        const audit = await me.audit({ limit: 1000 });
        const recovered = audit
          .filter((r) => (r.argsPreview as { recovered?: boolean }).recovered === true)
          .map((r) => r.id)
          .sort();
        assert.deepEqual(recovered, ['aud_local_dead', 'aud_other_old']);
        assert.ok(!audit.some((r) => r.id === 'aud_other_young' || r.id === 'aud_local_live'));
        // The next commit deletes the moved rows; the others stay for their writers (or a later open).
        await me.remember({ body: 'a write after the open', scope: 'shared' });
        const left = await inTenant(
          admin,
          tenant,
          (q) =>
            q<{ id: string }[]>`select id from memledger.audit_outbox where tenant = ${tenant} order by id`,
        );
        // (The remember's own row waits for the next commit too: it is not one of these.)
        const planted = new Set(rows.map((r) => r.id));
        assert.deepEqual(
          left.map((r) => r.id).filter((id) => planted.has(id)),
          ['aud_local_live', 'aud_other_young'],
        );
      } finally {
        await h.close();
      }
    } finally {
      live.kill('SIGKILL');
      await admin.end();
    }
  });

  test("I8 audit (postgres replicas): a ledger that stays open moves rows left after its open (a dead local pid, another host past the lease) and leaves its own process's and a young foreign row", async () => {
    const h = await openPgLedger(database());
    try {
      const me = h.ledger.as(h.ledger.operator());
      await me.remember({ body: 'the server was open before these rows', scope: 'shared' });
      const deadPid = spawnSync(process.execPath, ['-e', '0']).pid;
      const leaseSeconds = OUTBOX_LEASE_MS / 1000;
      await plant(database().adminUrl, h.tenant, [
        { id: 'aud_sweep_dead', pid: deadPid, host: thisHost(), ageSeconds: 0 },
        { id: 'aud_sweep_old', pid: 1, host: 'elsewhere/boot-b', ageSeconds: leaseSeconds + 1 },
        { id: 'aud_sweep_young', pid: 1, host: 'elsewhere/boot-b', ageSeconds: 0 },
        { id: 'aud_sweep_mine', pid: process.pid, host: thisHost(), ageSeconds: leaseSeconds + 1 },
      ]);
      assert.equal(await h.ledger.recoverAuditOutbox(), 2);
      const audit = await me.audit({ limit: 1000 });
      assert.deepEqual(
        audit
          .filter(isRecovered)
          .map((r) => r.id)
          .sort(),
        ['aud_sweep_dead', 'aud_sweep_old'],
      );
      assert.ok(
        !audit.some((r) => r.id === 'aud_sweep_young' || r.id === 'aud_sweep_mine'),
        "a live writer's rows are its own",
      );
      // Control: a second round finds nothing new to move, and writes nothing twice.
      assert.equal(await h.ledger.recoverAuditOutbox(), 0);
      const again = await me.audit({ limit: 1000 });
      assert.equal(again.filter((r) => r.id === 'aud_sweep_dead').length, 1);
    } finally {
      await h.close();
    }
  });
});
