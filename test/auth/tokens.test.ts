/** API tokens: shown once, stored as hashes, the principal from the token only (I4, I14), revocable at once. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashSecret, newSecret } from '../../src/auth/secret.ts';
import { openTokenStore, type TokenInput, type TokenStore } from '../../src/auth/token-store.ts';
import { containsSecret, findSecret } from '../../src/guard/secrets.ts';
import { isMemoryError, openLedger } from '../../src/index.ts';
import { tempHome } from '../mcp/helpers.ts';

describe('token store', () => {
  let home: ReturnType<typeof tempHome>;
  let tokens: TokenStore;

  before(() => {
    home = tempHome('tokens');
    tokens = openTokenStore(home.home);
  });
  after(() => {
    tokens.close();
    home.cleanup();
  });

  const authFailure = (reason: string) => (error: unknown) =>
    isMemoryError(error, 'permission') && error.details.authentication === reason;

  test('I4 I14 create returns the secret once; verify yields exactly the token principal, roles and grants', () => {
    const t = tokens.create(
      { name: 'claude-code', kind: 'agent', grants: ['agent:{self}:rw', 'shared:r'] },
      'human:op',
    );
    assert.match(t.secret, /^mlk_[A-Za-z0-9_-]{43}$/);
    assert.equal(t.principal, 'agent:claude-code');
    assert.deepEqual(t.roles, ['reader', 'writer']);
    assert.equal(t.createdBy, 'human:op');
    const v = tokens.verify(t.secret);
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
    const listed = tokens.list().find((x) => x.id === t.id);
    assert.ok(listed);
    assert.ok(!JSON.stringify(tokens.list()).includes(t.secret), 'list never shows the secret');
    assert.ok(!JSON.stringify(tokens.list()).includes(hashSecret(t.secret)), 'nor its hash');
    assert.equal(listed.prefix, t.secret.slice(0, 12));
  });

  test('defaults: an agent reads and writes its own scope; a human or service gets reader and no grants', () => {
    assert.deepEqual(tokens.verify(tokens.create({ name: 'a1', kind: 'agent' }).secret).principal.grants, [
      { scope: 'agent:{self}', read: true, write: true },
    ]);
    const human = tokens.verify(tokens.create({ name: 'h1', kind: 'human' }).secret).principal;
    assert.deepEqual([human.roles, human.grants], [['reader'], []]);
  });

  test('the secret is stored only as a SHA-256 hash', () => {
    const t = tokens.create({ name: 'hash-check', kind: 'service', grants: ['shared:r'] });
    const bytes = readdirSync(home.home)
      .filter((f) => f.startsWith('auth.db'))
      .map((f) => readFileSync(join(home.home, f)));
    assert.ok(bytes.length > 0);
    assert.ok(!bytes.some((b) => b.includes(t.secret)), 'the secret is in auth.db');
    assert.ok(
      bytes.some((b) => b.includes(hashSecret(t.secret))),
      'control: the hash is there',
    );
  });

  test('I4 missing, malformed, unknown and revoked secrets are refused; another live token keeps working', () => {
    const a = tokens.create({ name: 'rev-a', kind: 'agent' });
    const b = tokens.create({ name: 'rev-b', kind: 'agent' });
    assert.throws(() => tokens.verify(undefined), authFailure('missing'));
    assert.throws(() => tokens.verify(''), authFailure('missing'));
    assert.throws(() => tokens.verify('Basic abc'), authFailure('unknown'));
    assert.throws(() => tokens.verify(newSecret().secret), authFailure('unknown'));
    // same prefix, different secret: the hash comparison decides, not the prefix
    const twin = `${a.secret.slice(0, 40)}${a.secret[40] === 'A' ? 'B' : 'A'}${a.secret.slice(41)}`;
    assert.notEqual(twin, a.secret);
    assert.throws(() => tokens.verify(twin), authFailure('unknown'));
    tokens.revoke(a.id);
    assert.throws(() => tokens.verify(a.secret), authFailure('revoked'));
    assert.equal(tokens.verify(b.secret).tokenId, b.id);
    assert.equal(tokens.revoke(a.id).revokedAt !== null, true, 'revoking twice is harmless');
    assert.ok(!tokens.list().some((t) => t.id === a.id));
    assert.ok(tokens.list({ includeRevoked: true }).some((t) => t.id === a.id));
    assert.throws(
      () => tokens.revoke('tok_nope'),
      (e: unknown) => isMemoryError(e, 'not_found'),
    );
  });

  test('a revocation by one process is seen by another at its next verify', () => {
    const t = tokens.create({ name: 'cross', kind: 'agent' });
    const other = openTokenStore(home.home);
    try {
      assert.equal(other.verify(t.secret).tokenId, t.id);
      tokens.revoke(t.id);
      assert.throws(() => other.verify(t.secret), authFailure('revoked'));
    } finally {
      other.close();
    }
  });

  test('invalid names, kinds, roles and grants are refused as invalid_input', () => {
    for (const input of [
      { name: 'has space', kind: 'agent' },
      { name: 'ok', kind: 'robot' },
      { name: 'ok', kind: 'agent', roles: ['god'] },
      { name: 'ok', kind: 'agent', grants: ['everything'] },
      { name: 'ok', kind: 'agent', grants: ['user:a:rwx'] },
      { name: 'ok', kind: 'agent', extra: 1 },
    ]) {
      assert.throws(
        () => tokens.create(input as never),
        (e: unknown) => isMemoryError(e, 'invalid_input'),
        JSON.stringify(input),
      );
    }
  });

  test('I10 a token name or grant that looks like a credential is refused, naming the field; a plain one is not', () => {
    const github = `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;
    const before = tokens.list().length;
    const refused: [TokenInput, string][] = [
      [{ name: github, kind: 'agent' }, 'name'],
      [{ name: 'ci-bot', kind: 'agent', grants: [`project:${github}:rw`] }, 'grants'],
    ];
    for (const [input, field] of refused) {
      assert.throws(
        () => tokens.create(input),
        (e: unknown) =>
          isMemoryError(e, 'invalid_input') && e.details.field === field && !e.message.includes(github),
        field,
      );
    }
    assert.equal(tokens.list().length, before, 'nothing was created');
    const control = tokens.create({ name: 'ci-bot', kind: 'agent', grants: ['project:okapi:rw'] });
    assert.equal(control.principal, 'agent:ci-bot');
  });
});

test('I10 credentials: every memledger token is caught by the credential detector and refused as a memory', async () => {
  for (let i = 0; i < 300; i++) {
    const { secret } = newSecret();
    const finding = findSecret(`use ${secret} for the agent`);
    assert.equal(finding?.kind, 'memledger-token', secret);
  }
  assert.equal(containsSecret('the token prefix mlk_AbCdEfGh is shown in token list'), false);
  const home = tempHome('token-guard');
  const ledger = openLedger({ home: home.home });
  try {
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    const secret = newSecret().secret;
    await assert.rejects(
      me.remember({ body: `MEMLEDGER_TOKEN is ${secret}`, scope: 'shared' }),
      (e: unknown) => isMemoryError(e, 'invalid_input'),
    );
    // control: the same sentence without the token lands
    assert.equal(
      (await me.remember({ body: 'MEMLEDGER_TOKEN is set in the shell profile', scope: 'shared' })).state,
      'active',
    );
  } finally {
    ledger.close();
    home.cleanup();
  }
});
