// The one diff walk: what both the console's word diff and install's line diff stand on.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { unifiedDiff } from '../../src/integrations/line-diff.ts';
import { diffSteps } from '../../src/model/lcs.ts';
import { diffWords } from '../../src/web/diff.ts';

test('diffSteps keeps the common subsequence and puts a removal before the addition at one place', () => {
  assert.deepEqual(diffSteps(['a', 'b', 'c'], ['a', 'x', 'c'], 100), [
    ['same', 'a'],
    ['removed', 'b'],
    ['added', 'x'],
    ['same', 'c'],
  ]);
  assert.deepEqual(diffSteps([], ['n'], 100), [['added', 'n']]);
});

test('past its cell budget nothing is matched: all removed, then all added', () => {
  assert.deepEqual(diffSteps(['a', 'b'], ['a', 'b'], 3), [
    ['removed', 'a'],
    ['removed', 'b'],
    ['added', 'a'],
    ['added', 'b'],
  ]);
});

test('the word diff joins back into both texts, and the line diff is unified', () => {
  const parts = diffWords('Acme is on Pro now', 'Acme is on Enterprise now');
  assert.deepEqual(parts, [
    { kind: 'same', text: 'Acme is on ' },
    { kind: 'removed', text: 'Pro ' },
    { kind: 'added', text: 'Enterprise ' },
    { kind: 'same', text: 'now' },
  ]);
  const before = parts
    .filter((p) => p.kind !== 'added')
    .map((p) => p.text)
    .join('');
  assert.equal(before, 'Acme is on Pro now');
  assert.equal(
    unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', '.mcp.json'),
    '--- .mcp.json\n+++ .mcp.json\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n',
  );
});
