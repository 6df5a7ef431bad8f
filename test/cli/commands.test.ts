/** The command table as `memledger help` shows it: each entry loads its own command, and its usage names it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { COMMANDS } from '../../src/surfaces/cli/commands/index.ts';

test("every command's usage line starts with its own words (an alias that copies another's shows its own)", async () => {
  assert.ok(
    COMMANDS.some((c) => c.name === 'summaries list'),
    'control: the alias is in the table',
  );
  for (const entry of COMMANDS) {
    const loaded = await entry.load();
    assert.equal(loaded.name, entry.name, `${entry.name} loads its own command`);
    const first = loaded.usage.split('\n')[0]!;
    assert.ok(first.startsWith(`memledger ${entry.name}`), `${entry.name}: usage "${first}"`);
  }
});
