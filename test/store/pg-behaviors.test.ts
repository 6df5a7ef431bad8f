/**
 * Behaviors on Postgres across replicas: two pools on one tenant tick the scheduler at once and a schedule
 * window fires exactly once; two `memledger scheduler --once` processes on the database do the same; two
 * replicas claiming a behavior's window at once get it once, the other nothing (the lease is in the store).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { localOperator } from '../../src/policy/identity.ts';
import { spawn } from 'node:child_process';
import { BIN, cleanEnv } from '../cli/helpers.ts';
import { principal } from '../conformance/helpers.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { openPgLedger, type PgTestDatabase, pgTestDatabase } from './pg-helpers.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;
const LONG_AGO = () => '2020-01-01T00:00:00.000Z';
const runner = principal('agent', 'runner', { roles: ['reader', 'writer'], grants: ['*:rw'] });

const yearly = (name: string) => ({
  name,
  prompt: 'Review the year.',
  triggers: [{ type: 'schedule' as const, cron: '0 0 1 1 *', timezone: 'UTC' }],
  reads: { scopes: ['shared'] },
  writes: { kinds: ['note' as const], scopes: ['agent:runner'] },
});

/** `memledger scheduler --once --json --store URL` in its own process; resolves with how many windows it fired. */
function schedulerOnce(store: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'scheduler', '--once', '--json', '--store', store], {
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c;
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c;
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0
        ? resolve((JSON.parse(out) as { fired: number }).fired)
        : reject(new Error(`exit ${code}: ${err}`)),
    );
  });
}

describe('behaviors on Postgres replicas', { skip }, () => {
  let db: PgTestDatabase;
  before(async () => {
    if ('url' in cluster) db = await pgTestDatabase(cluster.url);
  });
  after(async () => {
    await db?.drop();
  });

  test('two pools on one tenant tick at once: the schedule window fires exactly once', async () => {
    const first = await openPgLedger(db, { now: LONG_AGO });
    await first.ledger.as(localOperator()).behaviors.add(yearly('yearly'));
    await first.close();
    const a = await openPgLedger(db, { tenant: first.tenant });
    const b = await openPgLedger(db, { tenant: first.tenant });
    try {
      const ticks = await Promise.all(
        [a, b, a, b, a, b].map((r) => r.ledger.as(localOperator()).behaviors.tick()),
      );
      assert.equal(
        ticks.reduce((n, t) => n + t.fired.length, 0),
        1,
      );
      const w = await a.ledger.as(runner).behaviors.next('yearly');
      assert.equal(w?.fired.length, 1);
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('two memledger scheduler processes on the database fire the window exactly once', async () => {
    const first = await openPgLedger(db, { now: LONG_AGO });
    await first.ledger.as(localOperator()).behaviors.add(yearly('yearly'));
    await first.close();
    const store = first.home;
    const [x, y] = await Promise.all([schedulerOnce(store), schedulerOnce(store)]);
    assert.equal(x + y, 1);
  });

  test('two replicas claim one window at once: one gets it, the other nothing', async () => {
    const a = await openPgLedger(db);
    const b = await openPgLedger(db, { tenant: a.tenant });
    try {
      await a.ledger.as(localOperator()).behaviors.add({
        name: 'digest',
        prompt: 'Summarise.',
        triggers: [{ type: 'event', kinds: ['decision'] }],
        reads: { scopes: ['shared'] },
        writes: { kinds: ['note'], scopes: ['agent:runner'] },
        settleSeconds: 0,
      });
      await a.ledger
        .as(localOperator())
        .remember({ scope: 'shared', kind: 'decision', body: 'Ship on Fridays.' });
      const [wa, wb] = await Promise.all([
        a.ledger.as(runner).behaviors.next('digest'),
        b.ledger.as(runner).behaviors.next('digest'),
      ]);
      assert.equal([wa, wb].filter((w) => w !== null).length, 1);
      assert.equal((wa ?? wb)!.events.length, 1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
