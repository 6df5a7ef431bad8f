/** The context budget's token counter: exactly cl100k_base, as `gpt-tokenizer` counts it, on every kind of text. */
import { test } from 'node:test';
import { randomTexts } from './random-text.ts';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/cl100k_base';
import { cachedTable, cl100kFromTable, ranksFile, serializeTable } from '../../src/ledger/context/cl100k.ts';
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

test('a checkout caches the table it builds: the next load reads it, a file that is not a table is built over', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-cl100k-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const url = pathToFileURL(`${dir}/`);
  const texts = [...sample(200), 'hello world', 'antidisestablishmentarianism'];
  const first = cachedTable(url);
  for (const text of texts) assert.equal(first.count(text), reference(text), JSON.stringify(text));
  const files = readdirSync(dir);
  assert.equal(files.length, 1, 'one table written, no partial file left');
  assert.match(files[0]!, /^cl100k-1-[\w.-]+-\d+-\d+\.bin$/);
  const cache = join(dir, files[0]!);
  assert.deepEqual(readFileSync(cache), Buffer.from(serializeTable(readFileSync(ranksFile()))));

  // A valid table of only the first 1,000 ranks in its place: what the next load counts with is what is cached.
  const ranks = readFileSync(ranksFile(), 'utf8');
  const few = `${ranks.split('\n').slice(0, 1_000).join('\n')}\n`;
  writeFileSync(cache, serializeTable(Buffer.from(few)));
  const word = 'antidisestablishmentarianism';
  const read = cachedTable(url).count(word);
  assert.ok(read > reference(word), 'counted with the cached (smaller) table');

  // Control: bytes that are not a table are refused, the table is built again, and counts are exact.
  writeFileSync(cache, 'not a table');
  const rebuilt = cachedTable(url);
  for (const text of texts) assert.equal(rebuilt.count(text), reference(text), JSON.stringify(text));
  assert.deepEqual(readFileSync(cache), Buffer.from(serializeTable(readFileSync(ranksFile()))));
});
