/** The context budget's token counter: exactly cl100k_base, as `gpt-tokenizer` counts it, on every kind of text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { cl100kFromTable, ranksFile, serializeTable } from '../../src/ledger/context/cl100k.ts';
import { tokenFloor } from '../../src/ledger/context/token-floor.ts';
import { tokenCounter } from '../../src/ledger/context/tokens.ts';

const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** Deterministic text from a mix of alphabets, whitespace, digits, symbols, emoji and lone surrogates. */
function randomTexts(count: number): string[] {
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
  let state = 2024;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = '';
    const length = Math.floor(next() * 120);
    for (let j = 0; j < length; j++) {
      const pool = pools[Math.floor(next() * pools.length)]!;
      text += pool[Math.floor(next() * pool.length)];
    }
    out.push(text);
  }
  return out;
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
  for (const text of randomTexts(3000)) assert.equal(count(text), reference(text), JSON.stringify(text));
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
  const texts: string[] = [...set.memories.map((m: { body: string }) => m.body), ...randomTexts(1000)];
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

test('the floor is never above the count: eval set, random text, item lines; it is not trivial', async () => {
  const count = await tokenCounter();
  const set = JSON.parse(readFileSync(new URL('../../eval/sets/memledger-v1.json', import.meta.url), 'utf8'));
  const item = (body: string) =>
    `- ${body}\n  (mem_01hnthz4q0000zt5a4tj6a · preference · confirmed · recorded 2024-02-04 · by human:operator via mcp · shared)\n`;
  const texts: string[] = [
    ...set.memories.map((m: { body: string }) => m.body),
    ...set.memories.map((m: { body: string }) => item(m.body)),
    ...randomTexts(3000),
    // Every kind of white space between words, and symbols, digits and letters run together.
    '\u00a0a\u1680b\u2000c\u200ad\u2028e\u2029f\u202fg\u205fh\u3000i\ufeffj\u0085k\u180el',
    'x,y;z 1234567 ab12cd!? --- ...   \t\n\r\v\f end',
  ];
  for (const text of texts) {
    const floor = tokenFloor(text);
    assert.ok(floor <= count(text), `${floor} > ${count(text)}: ${JSON.stringify(text)}`);
  }
  // Control: the floor is close enough to skip with (an item line's floor is a large part of its count).
  const line = item('And of pikur guda cohil hike do and the bucu vepi bifil can of cuga zataci in bifem.');
  assert.ok(tokenFloor(line) >= count(line) / 3, `${tokenFloor(line)} vs ${count(line)}`);
  assert.equal(tokenFloor(''), 0);
  assert.equal(tokenFloor('  one two\tthree\n'), 3);
});
