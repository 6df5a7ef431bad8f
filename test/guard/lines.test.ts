/** Lines with a length limit (I11): the same lines however the bytes arrive, and no over-long line kept whole. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type LineEvent, LineSplitter } from '../../src/guard/lines.ts';

/** The events for `input`, pushed in pieces of `size` bytes, with line bytes as text. */
function split(input: Buffer, max: number, size: number): unknown[] {
  const lines = new LineSplitter(max);
  const events: LineEvent[] = [];
  for (let i = 0; i < input.length; i += size) events.push(...lines.push(input.subarray(i, i + size)));
  events.push(...lines.end());
  return events.map((e) =>
    e.type === 'line'
      ? ['line', e.number, e.bytes.toString()]
      : e.type === 'long'
        ? ['long', e.number, e.bytes, e.head.toString(), e.tail.toString()]
        : ['overflow', e.number, e.binary],
  );
}

test('I11 lines: whole lines within the limit, CRLF and a last line without a newline, in any chunking', () => {
  const input = Buffer.from('{"a":1}\r\n\nsecond\nlast');
  const expected = [
    ['line', 1, '{"a":1}'],
    ['line', 2, ''],
    ['line', 3, 'second'],
    ['line', 4, 'last'],
  ];
  for (const size of [1, 2, 3, 7, 1024])
    assert.deepEqual(split(input, 100, size), expected, `chunks of ${size}`);
});

test('I11 lines: a line over the limit is reported with its size and edges, and the next line is whole', () => {
  const long = `{"id":7,${'x'.repeat(5_000)},"end":1}`;
  const input = Buffer.from(`ok\n${long}\nafter\n`);
  for (const size of [1, 64, 100_000]) {
    const events = split(input, 2_000, size) as [string, ...unknown[]][];
    assert.deepEqual(events[0], ['line', 1, 'ok']);
    assert.deepEqual(events[1], ['overflow', 2, false]);
    const [type, number, bytes, head, tail] = events[2]!;
    assert.deepEqual([type, number, bytes], ['long', 2, long.length]);
    assert.equal(head, long.slice(0, 1024));
    assert.equal(tail, long.slice(-1024));
    assert.deepEqual(events[3], ['line', 3, 'after']);
    assert.equal(events.length, 4);
  }
  // NUL bytes in the part that overflowed mark it binary.
  assert.deepEqual(split(Buffer.alloc(3_000), 1_000, 512)[0], ['overflow', 1, true]);
});
