/** API tokens: shown once, stored as hashes, the principal from the token only (I4, I14), revocable at once. */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { hashSecret, newSecret } from '../../src/auth/secret.ts';
import { openTokenStore } from '../../src/auth/sqlite-token-store.ts';
import type { TokenStore } from '../../src/auth/token-store.ts';
import { containsSecret, findSecret } from '../../src/guard/secrets.ts';
import { isMemoryError, openLedger } from '../../src/index.ts';
import { tempHome } from '../mcp/helpers.ts';
import { tokenContract } from './token-contract.ts';

describe('token store', () => {
  let home: ReturnType<typeof tempHome>;
  let tokens: TokenStore;

  before(() => {
    home = tempHome('tokens');
    tokens = openTokenStore(home.home);
  });
  after(async () => {
    await tokens.close();
    home.cleanup();
  });

  tokenContract({
    name: 'sqlite',
    store: () => tokens,
    second: async () => openTokenStore(home.home),
  });

  test('the secret is stored only as a SHA-256 hash', async () => {
    const t = await tokens.create({ name: 'hash-check', kind: 'service', grants: ['shared:r'] });
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
