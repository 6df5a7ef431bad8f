/**
 * The TokenStore contract, run on every backend (tokens.test.ts on SQLite, postgres-tokens.test.ts on Postgres):
 * shown once, the principal from the token only (I4, I14), revocable at once, bad input refused (I10).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashSecret, newSecret } from '../../src/auth/secret.ts';
import type { TokenInput, TokenStore } from '../../src/auth/token-store.ts';
import { isMemoryError } from '../../src/index.ts';

export interface TokenBackend {
  /** Names the backend in each test's name. */
  name: string;
  skip?: string | false;
  /** The store under test; `second` opens another handle on the same tokens, as a second process would. */
  store(): TokenStore;
  second(): Promise<TokenStore>;
}

const authFailure = (reason: string) => (error: unknown) =>
  isMemoryError(error, 'permission') && error.details.authentication === reason;

export function tokenContract(backend: TokenBackend): void {
  const { skip } = backend;
  const named = (title: string) => `${title} (${backend.name})`;

  test(
    named(
      'I4 I14 create returns the secret once; verify yields exactly the token principal, roles and grants',
    ),
    { skip },
    async () => {
      const tokens = backend.store();
      const t = await tokens.create(
        { name: 'claude-code', kind: 'agent', grants: ['agent:{self}:rw', 'shared:r'] },
        'human:op',
      );
      assert.match(t.secret, /^mlk_[A-Za-z0-9_-]{43}$/);
      assert.equal(t.principal, 'agent:claude-code');
      assert.deepEqual(t.roles, ['reader', 'writer']);
      assert.equal(t.createdBy, 'human:op');
      const v = await tokens.verify(t.secret);
      assert.equal(v.tokenId, t.id);
      assert.deepEqual(v.principal, {
        kind: 'agent',
        id: 'claude-code',
        roles: ['reader', 'writer'],
        grants: [
          { scope: 'agent:{self}', read: true, write: true },
          { scope: 'shared', read: true, write: false },
        ],
      });
      const all = await tokens.list();
      const listed = all.find((x) => x.id === t.id);
      assert.ok(listed);
      assert.ok(!JSON.stringify(all).includes(t.secret), 'list never shows the secret');
      assert.ok(!JSON.stringify(all).includes(hashSecret(t.secret)), 'nor its hash');
      assert.equal(listed.prefix, t.secret.slice(0, 12));
    },
  );

  test(
    named('defaults: an agent reads and writes its own scope; a human or service gets reader and no grants'),
    { skip },
    async () => {
      const tokens = backend.store();
      const agent = await tokens.create({ name: 'a1', kind: 'agent' });
      assert.deepEqual((await tokens.verify(agent.secret)).principal.grants, [
        { scope: 'agent:{self}', read: true, write: true },
      ]);
      const human = (await tokens.verify((await tokens.create({ name: 'h1', kind: 'human' })).secret))
        .principal;
      assert.deepEqual([human.roles, human.grants], [['reader'], []]);
    },
  );

  test(
    named('I4 missing, malformed, unknown and revoked secrets are refused; another live token keeps working'),
    { skip },
    async () => {
      const tokens = backend.store();
      const a = await tokens.create({ name: 'rev-a', kind: 'agent' });
      const b = await tokens.create({ name: 'rev-b', kind: 'agent' });
      await assert.rejects(tokens.verify(undefined), authFailure('missing'));
      await assert.rejects(tokens.verify(''), authFailure('missing'));
      await assert.rejects(tokens.verify('Basic abc'), authFailure('unknown'));
      await assert.rejects(tokens.verify(newSecret().secret), authFailure('unknown'));
      // same prefix, different secret: the hash comparison decides, not the prefix
      const twin = `${a.secret.slice(0, 40)}${a.secret[40] === 'A' ? 'B' : 'A'}${a.secret.slice(41)}`;
      assert.notEqual(twin, a.secret);
      await assert.rejects(tokens.verify(twin), authFailure('unknown'));
      await tokens.revoke(a.id);
      await assert.rejects(tokens.verify(a.secret), authFailure('revoked'));
      await assert.rejects(tokens.assertLive(a.id), authFailure('revoked'));
      assert.equal((await tokens.verify(b.secret)).tokenId, b.id, 'control: the other token still verifies');
      await tokens.assertLive(b.id);
      assert.equal((await tokens.revoke(a.id)).revokedAt !== null, true, 'revoking twice is harmless');
      assert.ok(!(await tokens.list()).some((t) => t.id === a.id));
      assert.ok((await tokens.list({ includeRevoked: true })).some((t) => t.id === a.id));
      await assert.rejects(tokens.revoke('tok_nope'), (e: unknown) => isMemoryError(e, 'not_found'));
    },
  );

  test(named('a revocation by one process is seen by another at its next verify'), { skip }, async () => {
    const tokens = backend.store();
    const t = await tokens.create({ name: 'cross', kind: 'agent' });
    const control = await tokens.create({ name: 'cross-control', kind: 'agent' });
    const other = await backend.second();
    try {
      assert.equal((await other.verify(t.secret)).tokenId, t.id);
      await other.assertLive(t.id);
      await tokens.revoke(t.id);
      // The handle that verified it before (a server between two requests) refuses it on the next one.
      await assert.rejects(other.verify(t.secret), authFailure('revoked'));
      await assert.rejects(other.assertLive(t.id), authFailure('revoked'));
      assert.equal((await other.verify(control.secret)).tokenId, control.id, 'a live token keeps working');
    } finally {
      await other.close();
    }
  });

  test(named('invalid names, kinds, roles and grants are refused as invalid_input'), { skip }, async () => {
    const tokens = backend.store();
    const before = (await tokens.list()).length;
    for (const input of [
      { name: 'has space', kind: 'agent' },
      { name: 'ok', kind: 'robot' },
      { name: 'ok', kind: 'agent', roles: ['god'] },
      { name: 'ok', kind: 'agent', grants: ['everything'] },
      { name: 'ok', kind: 'agent', grants: ['user:a:rwx'] },
      { name: 'ok', kind: 'agent', extra: 1 },
    ]) {
      await assert.rejects(
        tokens.create(input as never),
        (e: unknown) => isMemoryError(e, 'invalid_input'),
        JSON.stringify(input),
      );
    }
    assert.equal((await tokens.list()).length, before, 'nothing was created');
  });

  test(
    named(
      'I10 a token name or grant that looks like a credential is refused, naming the field; a plain one is not',
    ),
    { skip },
    async () => {
      const tokens = backend.store();
      const github = `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;
      const before = (await tokens.list()).length;
      const refused: [TokenInput, string][] = [
        [{ name: github, kind: 'agent' }, 'name'],
        [{ name: 'ci-bot', kind: 'agent', grants: [`project:${github}:rw`] }, 'grants'],
      ];
      for (const [input, field] of refused) {
        await assert.rejects(
          tokens.create(input),
          (e: unknown) =>
            isMemoryError(e, 'invalid_input') && e.details.field === field && !e.message.includes(github),
          field,
        );
      }
      assert.equal((await tokens.list()).length, before, 'nothing was created');
      const control = await tokens.create({ name: 'ci-bot', kind: 'agent', grants: ['project:okapi:rw'] });
      assert.equal(control.principal, 'agent:ci-bot');
    },
  );
}
