/**
 * Canonical JSON without recursion (I5, I8, I11): fingerprints of stored memories depend on it giving the same
 * text as the recursive sorted copy it replaced, and the audit hashes arguments of any depth with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canonicalJson } from '../../src/guard/canonical.ts';

/** The earlier, recursive form, kept here as the reference the iterative one must match byte for byte. */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeys(v);
    }
    return out;
  }
  return value;
}
const reference = (value: unknown): string => JSON.stringify(sortKeys(value)) ?? 'null';

/** An array with a hole in it: `[1, <empty>, 2]`. */
function holey(): unknown[] {
  const a: unknown[] = [1];
  a[2] = 2;
  return a;
}

test('I5 canonical JSON is the text of the recursive sorted copy, for every kind of value', () => {
  const samples: unknown[] = [
    null,
    undefined,
    0,
    -0,
    1e21,
    Number.NaN,
    Number.POSITIVE_INFINITY,
    'quote " newline \n line separator \u2028',
    true,
    [],
    {},
    [undefined, () => 1, Symbol('s'), null],
    holey(),
    {
      b: 1,
      a: [1, { d: undefined, c: 2 }],
      '10': 1,
      '9': 2,
      '01': 3,
      '-1': 4,
      '4294967295': 5,
      '4294967294': 6,
    },
    JSON.parse('{"__proto__": {"x": 1}, "a": 1}'),
    { f() {}, s: Symbol('x'), u: undefined, n: null },
    new Date(0),
    [new Date(0)],
    { é: 1, e: 2, E: 3, '\ud83e': 4 },
    new Map([[1, 2]]),
    new Uint8Array([1, 2]),
  ];
  samples.forEach((sample, i) => {
    assert.equal(canonicalJson(sample), reference(sample), `sample ${i}`);
  });
  // And on random nested documents.
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const build = (depth: number): unknown => {
    const r = random();
    if (depth > 5 || r < 0.3) return [1, 'a', null, true, 2.5, 'é', undefined][Math.floor(random() * 7)];
    if (r < 0.6) return Array.from({ length: Math.floor(random() * 4) }, () => build(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = 0; i < 4; i++)
      o[['b', 'a', '10', '2', 'z', '_'][Math.floor(random() * 6)]!] = build(depth + 1);
    return o;
  };
  for (let i = 0; i < 2_000; i++) {
    const doc = build(0);
    assert.equal(canonicalJson(doc), reference(doc));
  }
});

test('I11 canonical JSON of a value 50,000 levels deep is written without overflowing the stack', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < 50_000; i++) deep = { a: [deep] };
  const text = canonicalJson(deep);
  assert.ok(text.startsWith('{"a":[{"a":[') && text.endsWith(']}]}'));
  assert.equal(text.length, 50_000 * 8 + '"leaf"'.length);
  // Control: the recursive form could not.
  assert.throws(() => reference(deep), RangeError);
});

test('canonical JSON refuses a cycle as JSON.stringify does, and shares repeated references', () => {
  const cycle: Record<string, unknown> = { a: 1 };
  cycle.self = [cycle];
  assert.throws(() => canonicalJson(cycle), TypeError);
  const shared = { x: 1 };
  assert.equal(canonicalJson({ b: shared, a: shared }), '{"a":{"x":1},"b":{"x":1}}');
  assert.throws(() => canonicalJson({ n: 1n }), TypeError);
});
