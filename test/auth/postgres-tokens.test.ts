/**
 * API tokens on Postgres, on the run's cluster: the TokenStore contract, per tenant (a token of one tenant is
 * unknown to another, below the code too), and a token's identity immutable by privilege and by trigger.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type postgres from 'postgres';
import { openPostgresTokens } from '../../src/auth/postgres-token-store.ts';
import { hashSecret } from '../../src/auth/secret.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { isMemoryError } from '../../src/index.ts';
import { type Scratch, scratchDatabase } from '../audit/pg-scratch.ts';
import { testCluster } from '../support/pg-cluster.ts';
import { tokenContract } from './token-contract.ts';

const cluster = testCluster();
const skip = 'skip' in cluster ? cluster.skip : false;

const inTenant = <T>(sql: postgres.Sql, tenant: string, fn: (tx: postgres.TransactionSql) => Promise<T>) =>
  sql.begin(async (tx) => {
    await tx`select set_config('memledger.tenant', ${tenant}, true)`;
    return fn(tx);
  }) as Promise<T>;

describe('Postgres tokens', { skip }, () => {
  let db: Scratch;
  let tokens: TokenStore;
  let login: string;

  before(async () => {
    if ('skip' in cluster) return;
    db = await scratchDatabase(cluster.url, 'tokens');
    await (await openPostgresTokens(db.url(), { tenant: 'setup' })).close(); // the owner migrates
    login = await db.loginAs('memledger_app');
    // The contract runs as the application would: a memledger_app login that does not migrate.
    tokens = await openPostgresTokens(db.url(login, 'contract'), { migrate: false });
  });
  after(async () => {
    await tokens?.close();
    await db?.cleanup();
  });

  tokenContract({
    name: 'postgres',
    skip,
    store: () => tokens,
    second: () => openPostgresTokens(db.url(login, 'contract'), { migrate: false }),
  });

  test('I4 tenancy (postgres): a token of tenant A is unknown to tenant B, and B lists none of A', async () => {
    const a = await openPostgresTokens(db.url(login, 'tenant-a'), { migrate: false });
    const b = await openPostgresTokens(db.url(login), { tenant: 'tenant-b', migrate: false });
    try {
      const t = await a.create({ name: 'shared-name', kind: 'agent' });
      assert.equal((await a.verify(t.secret)).tokenId, t.id, 'control: A verifies its own');
      await assert.rejects(
        b.verify(t.secret),
        (e: unknown) => isMemoryError(e, 'permission') && e.details.authentication === 'unknown',
      );
      await assert.rejects(b.assertLive(t.id), (e: unknown) => isMemoryError(e, 'permission'));
      await assert.rejects(b.revoke(t.id), (e: unknown) => isMemoryError(e, 'not_found'));
      assert.deepEqual(await b.list({ includeRevoked: true }), []);
      const own = await b.create({ name: 'shared-name', kind: 'agent' });
      assert.deepEqual(
        (await b.list()).map((x) => x.id),
        [own.id],
        'the same name in B is another token',
      );
      assert.equal((await a.verify(t.secret)).tokenId, t.id, "A's token was not revoked by B");
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('I4 tenancy (postgres): a raw memledger_app connection in tenant B reads and writes none of A', async () => {
    const a = await openPostgresTokens(db.url(login, 'raw-a'), { migrate: false });
    const raw = db.raw(login);
    try {
      const t = await a.create({ name: 'raw-bot', kind: 'agent' });
      const inA = await inTenant(raw, 'raw-a', (tx) => tx`SELECT id FROM memledger_auth.tokens`);
      assert.deepEqual(
        inA.map((r) => r.id),
        [t.id],
        'control: tenant A sees its row',
      );
      const inB = await inTenant(raw, 'raw-b', (tx) => tx`SELECT id FROM memledger_auth.tokens`);
      assert.equal(inB.length, 0, 'tenant B sees no row of A');
      const revoked = await inTenant(
        raw,
        'raw-b',
        (tx) => tx`UPDATE memledger_auth.tokens SET revoked_at = 'x' WHERE id = ${t.id}`,
      );
      assert.equal(revoked.count, 0, "B cannot revoke A's token");
      await assert.rejects(
        inTenant(
          raw,
          'raw-b',
          (
            tx,
          ) => tx`INSERT INTO memledger_auth.tokens (tenant, id, name, kind, roles, grants, prefix, hash, created_at)
            VALUES ('raw-a', 'tok_forged', 'evil', 'human', '["admin"]', '["*:rw"]', 'mlk_x', 'h', 'now')`,
        ),
        (e: unknown) => (e as { code?: string }).code === '42501',
        'B cannot plant a token in A',
      );
      await a.assertLive(t.id);
    } finally {
      await a.close();
    }
  });

  test('the secret is stored only as a SHA-256 hash (postgres)', async () => {
    const t = await tokens.create({ name: 'hash-check', kind: 'service', grants: ['shared:r'] });
    const [row] =
      await db.raw()`SELECT row_to_json(t)::text AS text FROM memledger_auth.tokens t WHERE id = ${t.id}`;
    assert.ok(!String(row?.text).includes(t.secret), 'the secret is not in the row');
    assert.ok(String(row?.text).includes(hashSecret(t.secret)), 'control: the hash is there');
  });

  test("I4 a token's identity never changes and a revocation is final: by privilege for the application, by trigger for the owner", async () => {
    const store = await openPostgresTokens(db.url(login, 'immutable'), { migrate: false });
    const app = db.raw(login);
    const owner = db.raw();
    try {
      const t = await store.create({ name: 'fixed', kind: 'agent' });
      await assert.rejects(
        inTenant(
          app,
          'immutable',
          (tx) => tx`UPDATE memledger_auth.tokens SET roles = '["admin"]' WHERE id = ${t.id}`,
        ),
        (e: unknown) => (e as { code?: string }).code === '42501',
        'the application may update revoked_at only',
      );
      await assert.rejects(
        inTenant(
          owner,
          'immutable',
          (tx) => tx`UPDATE memledger_auth.tokens SET grants = '["*:rw"]' WHERE id = ${t.id}`,
        ),
        /identity never changes/,
      );
      await store.revoke(t.id);
      await assert.rejects(
        inTenant(
          owner,
          'immutable',
          (tx) => tx`UPDATE memledger_auth.tokens SET revoked_at = NULL WHERE id = ${t.id}`,
        ),
        /stays revoked/,
      );
      await assert.rejects(store.verify(t.secret), (e: unknown) => isMemoryError(e, 'permission'));
      const [row] = await inTenant(
        owner,
        'immutable',
        (tx) => tx`SELECT roles, grants FROM memledger_auth.tokens WHERE id = ${t.id}`,
      );
      assert.deepEqual(
        [row?.roles, row?.grants],
        ['["reader","writer"]', '["agent:{self}:rw"]'],
        'unchanged',
      );
    } finally {
      await store.close();
    }
  });
});
