/**
 * Workspace limits without replacing persistence: `openLedger({ workspaceLimits })` and the variables
 * MEMLEDGER_WORKSPACE_TIMEOUT_MS / MEMLEDGER_WORKSPACE_MAX_BYTES set the engine's limits while workspaces stay
 * the store's snapshots; each cap is shown refusing beside a control run without it.
 */
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { limitsFromEnv } from '../../src/workspace/config.ts';
import { cli } from '../cli/helpers.ts';
import { tempHome } from '../mcp/helpers.ts';
import { storedBytes } from './snapshot-helpers.ts';

const BIG = 'CREATE TABLE b (subject TEXT, x BLOB); INSERT INTO b VALUES (NULL, zeroblob(400000))';

describe('workspace limits on the real persistence', () => {
  const { home, cleanup } = tempHome('workspace-limits');
  after(cleanup);

  test('limitsFromEnv reads the two variables, and ignores unset or non-positive values', () => {
    assert.deepEqual(
      limitsFromEnv({ MEMLEDGER_WORKSPACE_TIMEOUT_MS: '1500', MEMLEDGER_WORKSPACE_MAX_BYTES: '65536' }),
      { timeoutMs: 1500, maxBytes: 65536 },
    );
    assert.deepEqual(
      limitsFromEnv({ MEMLEDGER_WORKSPACE_TIMEOUT_MS: 'soon', MEMLEDGER_WORKSPACE_MAX_BYTES: '0' }),
      {},
    );
  });

  test('openLedger({ workspaceLimits }) caps the size; the snapshot is still stored in the store', async () => {
    const capped = openLedger({ home, workspaceLimits: { maxBytes: 128 * 1024 } });
    try {
      const bot = capped.as(capped.principal('agent:capped'));
      const e = await bot.workspaceSql({ statements: [BIG] }).catch((error: unknown) => error);
      assert.equal((e as { class?: string }).class, 'conflict');
      assert.match((e as Error).message, /size cap/);
      const small = await bot.workspaceSql({ statements: ['CREATE TABLE s (subject TEXT)'] });
      assert.equal(small.committed, true, 'the control under the cap commits');
      assert.ok((await storedBytes(capped, 'agent:capped')) !== null, 'into the store');
    } finally {
      capped.close();
    }
    const uncapped = openLedger({ home });
    try {
      const r = await uncapped.as(uncapped.principal('agent:free')).workspaceSql({ statements: [BIG] });
      assert.equal(r.committed, true, 'without the option the default cap stands');
    } finally {
      uncapped.close();
    }
  });

  test('MEMLEDGER_WORKSPACE_MAX_BYTES caps a spawned CLI; without it the same batch commits', async () => {
    const refused = await cli(home, ['workspace', 'sql', BIG, '--as', 'agent:env', '--json'], {
      env: { MEMLEDGER_WORKSPACE_MAX_BYTES: String(128 * 1024) },
    });
    assert.notEqual(refused.code, 0);
    assert.equal(refused.error().class, 'conflict');
    const control = await cli(home, ['workspace', 'sql', BIG, '--as', 'agent:env', '--json']);
    assert.equal(control.code, 0, control.stderr);
  });
});
