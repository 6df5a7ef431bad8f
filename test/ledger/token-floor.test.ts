/**
 * The floor context assembly tests items with before counting them (src/ledger/context/token-floor.ts): never
 * above cl100k_base's count, so skipping on it skips only what the count would skip.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { randomTexts } from './random-text.ts';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { tokenFloor } from '../../src/ledger/context/token-floor.ts';

const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** Deterministic text from letters, digits, symbols, every kind of white space (and look-alikes that are not). */
function sample(count: number): string[] {
  const pools = [
    'abcdefghijklmnopqrstuvwxyz',
    'ÉéüñçßæÅ日本語한국어Привет',
    '0123456789',
    ' \t\n\r\u000b\u000c',
    // White space past ASCII (no-break, em and ideographic spaces, line and paragraph separators, BOM) and
    // characters that are not `\s` though they look like it (NEL, Mongolian vowel separator, zero-width space).
    '\u00a0\u1680\u2003\u202f\u205f\u3000\u2028\u2029\ufeff\u0085\u180e\u200b',
    '!@#$%^&*()_+-=[]{};:\'",.<>/?\\|`~·⏎…',
    '🙂🚀👍🏽\ud800',
    "'s 're 've 'll 'd 'm 't",
  ];
  return randomTexts(count, pools, 1914, 160);
}

test('the floor is never above the cl100k_base count: eval set memories as context items, and random text', () => {
  const set = JSON.parse(readFileSync(new URL('../../eval/sets/memledger-v1.json', import.meta.url), 'utf8'));
  const bodies: string[] = set.memories.map((m: { body: string }) => m.body);
  assert.ok(bodies.length > 1000);
  // The shape context counts: the item's line, its provenance line, the newline after it.
  const items = bodies.map(
    (b, i) =>
      `- ${b}\n  (mem_01jeyjd2p0000s8znn${i} · fact · confirmed · recorded 2024-12-12 · by human:operator via http · shared)\n`,
  );
  // Every kind of white space between letters, and symbols, digits and letters run together.
  const mixed = [
    '\u00a0a\u1680b\u2000c\u200ad\u2028e\u2029f\u202fg\u205fh\u3000i\ufeffj\u0085k\u180el',
    'x,y;z 1234567 ab12cd!? --- ...   \t\n\r\v\f end',
  ];
  for (const text of [...bodies, ...items, ...sample(4000), ...mixed]) {
    const floor = tokenFloor(text);
    const count = reference(text);
    assert.ok(floor <= count, `${floor} > ${count} for ${JSON.stringify(text)}`);
  }
  // Control: the floor is not trivially zero; for items it is most of the count.
  const share = sum(items.map(tokenFloor)) / sum(items.map(reference));
  assert.ok(share > 0.7 && share < 1, `floor / count ${share}`);
});

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

test('control: the floor counts letter runs, digits by threes and punctuation as the pre-tokenizer cuts them', () => {
  assert.equal(tokenFloor(''), 0);
  assert.equal(tokenFloor('  \n\t '), 0);
  assert.equal(tokenFloor('hello world'), 2);
  assert.equal(tokenFloor(' one\u00a0two\u3000three\u2028four '), 4);
  // 2024 is two pieces (202, 4), each dash one, 12 one: six.
  assert.equal(tokenFloor('2024-12-12'), 6);
  // A single character before letters may share their piece; two may not.
  assert.equal(tokenFloor('(mem'), 1);
  assert.equal(tokenFloor('((mem'), 2);
  assert.equal(tokenFloor("it's"), 2);
  for (const text of ['hello world', '2024-12-12', "it's", '((mem'])
    assert.ok(tokenFloor(text) <= reference(text));
});
