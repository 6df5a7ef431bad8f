/** The context budget's token counter: exactly cl100k_base, as `gpt-tokenizer` counts it, on every kind of text. */
import { test } from 'node:test';
import { randomTexts } from './random-text.ts';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { cl100kFromTable, ranksFile, serializeTable } from '../../src/ledger/context/cl100k.ts';
import { tokenCounter } from '../../src/ledger/context/tokens.ts';

const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** Deterministic text from a mix of alphabets, whitespace, digits, symbols, emoji and lone surrogates. */
function sample(count: number): string[] {
  const pools = [
    'abcdefghijklmnopqrstuvwxyz',
    'ABCDEFGHIJKLMNOPQRSTUVWXYZ',
    '0123456789',
    ' \t\n\r  ',
    '!@#$%^&*()_+-=[]{};:\'",.<>/?\\|`~',
    'éèüöñçåøßæÅÉ',
    '日本語中文字漢字한국어',
    'Привет мир',
    '🙂🚀👍🏽',
    '\ud800\udc00\ud83d\udfff',
    "'s 're 've 'll 'd 'm 't",
  ];
  return randomTexts(count, pools, 2024, 120);
}

test('counts match gpt-tokenizer on every memory and query of the eval set', async () => {
  const count = await tokenCounter();
  const set = JSON.parse(readFileSync(new URL('../../eval/sets/memledger-v1.json', import.meta.url), 'utf8'));
  const texts: string[] = [
    ...set.memories.map((m: { body: string }) => m.body),
    ...set.queries.map((q: Record<string, unknown>) => JSON.stringify(q)),
  ];
  assert.ok(texts.length > 2000);
  for (const text of texts) assert.equal(count(text), reference(text), text);
});

test('counts match gpt-tokenizer on random text: scripts, emoji, digits, symbols, whitespace, lone surrogates', async () => {
  const count = await tokenCounter();
  for (const text of sample(3000)) assert.equal(count(text), reference(text), JSON.stringify(text));
});

test('special tokens are counted as the text they are; long runs and code count as the reference does', async () => {
  const count = await tokenCounter();
  const texts = [
    '<|endoftext|> and <|fim_prefix|> in a memory',
    'a'.repeat(2000),
    'word '.repeat(400),
    '    indented\n\n\n\tcode();\r\n',
    readFileSync(new URL('../../src/ledger/context/cl100k.ts', import.meta.url), 'utf8'),
  ];
  for (const text of texts) assert.equal(count(text), reference(text));
});

test('control: the counter is not trivial (known counts, and different texts count differently)', async () => {
  const count = await tokenCounter();
  assert.equal(count(''), 0);
  assert.equal(count('hello world'), 2);
  assert.equal(count('hello world'), reference('hello world'));
  assert.ok(count('antidisestablishmentarianism') > 1, 'a rare word is several tokens');
  assert.notEqual(count('one two three'), count('one two three four five six'));
});

test('the prebuilt table (what dist/ ships) counts exactly as gpt-tokenizer; a table that is not one is refused', () => {
  const table = serializeTable(readFileSync(ranksFile()));
  const prebuilt = cl100kFromTable(table);
  assert.ok(prebuilt !== null);
  const set = JSON.parse(readFileSync(new URL('../../eval/sets/memledger-v1.json', import.meta.url), 'utf8'));
  const texts: string[] = [...set.memories.map((m: { body: string }) => m.body), ...sample(1000)];
  for (const text of texts) assert.equal(prebuilt.count(text), reference(text), JSON.stringify(text));
  // Read at an odd offset inside a larger buffer, as a pooled Buffer may be: the same counts.
  const shifted = new Uint8Array(table.length + 1);
  shifted.set(table, 1);
  assert.equal(cl100kFromTable(shifted.subarray(1))?.count(texts[0]!), reference(texts[0]!));
  assert.equal(cl100kFromTable(table.subarray(0, table.length - 1)), null, 'a truncated table');
  const otherFormat = table.slice();
  otherFormat[4] = 99;
  assert.equal(cl100kFromTable(otherFormat), null, 'another format');
});
