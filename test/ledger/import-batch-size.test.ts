/**
 * An import's batch ends at its line count or once its lines hold 32 Mi characters, whichever comes first: a
 * file of lines near the 4 MiB line limit is never held whole. Ten such lines (not JSON: each fails by its
 * number) make two committed batches, not one, and the plain line after them lands.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { linesOf } from '../conformance/helpers.ts';
import { withLedger } from './helpers.ts';

test('I13 a batch of huge lines ends at 32 Mi characters: each committed batch is reported, failed lines by number, the control lands', () =>
  withLedger(async ({ me }) => {
    const huge = 'x'.repeat(4_000_000);
    const file = [
      ...Array.from({ length: 10 }, () => huge),
      JSON.stringify({ body: 'the harbour opens at six' }),
    ];
    let batches = 0;
    const result = await me.import(linesOf(file), { onProgress: () => batches++ });
    assert.equal(batches, 2, 'eight lines reach 32 Mi characters; the rest is a second batch');
    assert.deepEqual(
      result.failed.map((f) => [f.line, f.class]),
      Array.from({ length: 10 }, (_, i) => [i + 1, 'invalid_input']),
    );
    assert.equal(result.imported, 1, 'control: the plain line lands');
    const found = await me.search({ query: 'harbour opens' });
    assert.equal(found.hits.length, 1);
  }));
