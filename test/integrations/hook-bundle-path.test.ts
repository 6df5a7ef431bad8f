/**
 * The hook bundle's evaluated path (scripts/hook-path.ts, from esbuild's metafile of the bundle's entry): what a
 * session start reads is on it, and the modules only other calls use (the write path, search, claims,
 * corroboration, summaries, the import options, the token store's open) are reached through a dynamic import,
 * so a hook process never evaluates them and the bundle keeps their inits out of its code cache.
 */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { build } from 'esbuild';
import { hookPath } from '../../scripts/hook-path.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

test('the hook path holds the session start reads and none of the write path, search or verdicts', async () => {
  const result = await build({
    entryPoints: ['src/surfaces/cli/hook-main.ts'],
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node24',
    external: ['gpt-tokenizer', 'postgres', 'sqlite-vec', '@energetic-ai/*', 'unicode-confusables'],
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const path = hookPath(result.metafile, root);
  // Controls: what a SessionStart calls is evaluated with the bundle.
  for (const read of [
    'src/integrations/hook.ts',
    'src/ledger/context/context.ts',
    'src/ledger/context/pools.ts',
    'src/ledger/plans/context-pool.ts',
    'src/ledger/read.ts',
    'src/ledger/corrections.ts',
    'src/model/commitment.ts',
  ]) {
    assert.ok(path.has(read), `${read} is on the hook's path`);
  }
  for (const lazy of [
    'src/ledger/remember.ts',
    'src/ledger/search.ts',
    'src/ledger/neighbours.ts',
    'src/ledger/claims.ts',
    'src/ledger/corroborate.ts',
    'src/ledger/verdicts.ts',
    'src/ledger/plans/commitments.ts',
    'src/ledger/plans/summaries.ts',
    'src/ledger/transfer/import-options.ts',
    'src/guard/instructions.ts',
  ]) {
    assert.ok(!path.has(lazy), `${lazy} is loaded on first use, not with the hook`);
    assert.ok(lazy in result.metafile.inputs, `control: ${lazy} is in the bundle, for the calls that use it`);
  }
});
