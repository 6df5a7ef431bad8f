/**
 * The TypeScript re-make of the index's tokenizer (src/store/text/fts-tokens.ts, porter.ts) against FTS5
 * itself: a probe table with memory.db's own `tokenize` option, read back through fts5vocab. Search scores
 * memories from these tokens (I4), so where they differ from the index is measured here.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, test } from 'node:test';
import { QueryTerms } from '../../src/store/text/bm25.ts';
import { tokenize } from '../../src/store/text/fts-tokens.ts';
import { stem } from '../../src/store/text/porter.ts';
import { indexTokenizer, raw, withHome } from './helpers.ts';

const STEMS = [
  'b',
  'tr',
  'hop',
  'conn',
  'gener',
  'rel',
  'cond',
  'valen',
  'hesit',
  'digit',
  'conform',
  'radic',
  'differ',
  'vile',
  'analog',
  'predic',
  'formal',
  'sensitiv',
  'sensibil',
  'electr',
  'hope',
  'good',
  'adjust',
  'depend',
  'bowdler',
  'commun',
  'activ',
  'homolog',
  'effect',
  'ski',
  'sky',
  'y',
  'ay',
  'eye',
  'fly',
  'happy',
  'cry',
  'rat',
  'oper',
  'nation',
  'agree',
  'feed',
  'fil',
  'fail',
  'siz',
  'tann',
  'fall',
  'hiss',
  'fizz',
];
/** Every suffix a Porter rule names, and some that chain several rules. */
const SUFFIXES = [
  '',
  's',
  'es',
  'ies',
  'sses',
  'ss',
  'ed',
  'eed',
  'ing',
  'ly',
  'ational',
  'tional',
  'enci',
  'anci',
  'izer',
  'logi',
  'bli',
  'alli',
  'entli',
  'eli',
  'ousli',
  'ization',
  'ation',
  'ator',
  'alism',
  'iveness',
  'fulness',
  'ousness',
  'aliti',
  'iviti',
  'biliti',
  'icate',
  'ative',
  'alize',
  'iciti',
  'ical',
  'ful',
  'ness',
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'sion',
  'tion',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'e',
  'll',
  'at',
  'bl',
  'iz',
  'y',
  'ying',
  'ied',
  'ationally',
  'izations',
  'fulnesses',
  'icalities',
];
const WORD_FORMS = STEMS.flatMap((s) => SUFFIXES.map((x) => s + x));
const EVAL_TEXTS = (() => {
  const set = JSON.parse(readFileSync(new URL('../../eval/sets/memledger-v1.json', import.meta.url), 'utf8'));
  return [
    ...set.memories.map((m: { body: string }) => m.body),
    ...set.queries.map((q: { text: string }) => q.text),
  ] as string[];
})();

/** FTS5's tokens for each text, in order, from a contentless probe table tokenized as memory.db's indexes are. */
class Fts5Probe {
  readonly #db = new DatabaseSync(':memory:');

  constructor(tokenizer: string) {
    this.#db.exec(`CREATE VIRTUAL TABLE probe USING fts5(body, content='', tokenize='${tokenizer}');
      CREATE VIRTUAL TABLE temp.probe_terms USING fts5vocab(main, probe, instance);`);
  }

  tokens(texts: readonly string[]): string[][] {
    const db = this.#db;
    db.exec(`INSERT INTO probe (probe) VALUES ('delete-all')`);
    const insert = db.prepare('INSERT INTO probe (rowid, body) VALUES (?, ?)');
    db.exec('BEGIN');
    for (const [i, t] of texts.entries()) insert.run(i + 1, t);
    db.exec('COMMIT');
    const out = texts.map((): string[] => []);
    for (const r of db.prepare('SELECT doc, term FROM probe_terms ORDER BY doc, offset').all() as {
      doc: number;
      term: string;
    }[]) {
      out[r.doc - 1]!.push(r.term);
    }
    return out;
  }

  close(): void {
    this.#db.close();
  }
}

/** Texts whose tokens differ between FTS5 and `tokenize`. */
function differing(probe: Fts5Probe, texts: readonly string[]): string[] {
  const expected = probe.tokens(texts);
  return texts.filter((t, i) => JSON.stringify(tokenize(t)) !== JSON.stringify(expected[i]));
}

const codePoints = (from: number, to: number): string[] =>
  Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));

describe('the index tokenizer, re-done', () => {
  let probe: Fts5Probe;
  before(async () => {
    probe = await withHome(async ({ db }) => new Fts5Probe(raw(db, indexTokenizer)));
  });
  after(() => probe.close());

  test('the probe is tokenized as memory.db is: porter over unicode61, diacritics removed', () => {
    assert.deepEqual(probe.tokens(['Running cafés ARE fine']), [['run', 'cafe', 'ar', 'fine']]);
  });

  test('gives FTS5’s tokens for the whole eval set and every word form the Porter rules name', () => {
    assert.deepEqual(differing(probe, [...EVAL_TEXTS, ...WORD_FORMS]), []);
  });

  test('gives FTS5’s tokens for Latin, Greek and Cyrillic letters, alone and inside words', () => {
    // U+037F and U+0528–U+052F are letters newer than FTS5's Unicode 6.1 tables: measured below.
    const letters = [
      ...codePoints(0x80, 0x24f),
      ...codePoints(0x370, 0x37e),
      ...codePoints(0x380, 0x527),
      ...codePoints(0x1e00, 0x1fff),
    ];
    const texts = letters.flatMap((c) => [c, `x${c}y`, `${c}ab`, `ab${c}`]);
    // Combining marks inside a word: some continue it (and go), the rest split it.
    const marks = codePoints(0x300, 0x36f).flatMap((m) => [`e${m}te`, `${m}ab`]);
    assert.deepEqual(differing(probe, [...texts, ...marks]), []);
  });

  test('across the Basic Multilingual Plane, about one code point in a hundred differs (newer than Unicode 6.1)', () => {
    const all = codePoints(0x80, 0xffff).filter((c) => !/\p{Cs}/u.test(c));
    const texts = all.map((c) => `x${c}y`);
    const off = differing(probe, texts);
    // Measured with Node 24.21 (SQLite 3.53.4): 668 of 63,360 (1.1%); each only shifts a score, never a match.
    assert.ok(off.length < all.length / 50, `${off.length} of ${all.length} differ`);
  });

  test('a stem keeps its token’s first letter and all but its last four letters (what StemMatcher skips on)', () => {
    const words = new Set([
      ...WORD_FORMS,
      ...EVAL_TEXTS.flatMap((t) => t.toLowerCase().match(/[a-z0-9]+/g) ?? []),
    ]);
    for (const w of words) {
      const s = stem(w);
      assert.equal(s[0], w[0], w);
      assert.ok(w.startsWith(s.slice(0, Math.max(1, s.length - 4))), `${w} → ${s}`);
    }
  });

  test('query words are counted as counting tokenize’s stems would count them, and documents’ lengths too', () => {
    const queries = ['running runner runs', 'cafés naïve', 'the plan planning', 'deploys deploy deployed'];
    const docs = [
      ...EVAL_TEXTS.slice(0, 300),
      'Running, runs and a runner ran',
      'Les cafés naïfs: café, CAFE, naïve',
      'Deploys happen; deploying deployed things',
    ];
    for (const q of queries) {
      const words = q.split(' ');
      const terms = new QueryTerms(words);
      const stems = words.map((w) => tokenize(w)[0]);
      for (const body of docs) {
        const tokens = tokenize(body);
        const counts = terms.counts({ scope: 'shared', body, key: 'deploy.plan', subjects: [], value: null });
        // The meta column holds the key, at half weight; the scope token adds one to the length.
        const meta = tokenize('deploy.plan');
        const expected = stems.map(
          (s) => tokens.filter((t) => t === s).length + 0.5 * meta.filter((t) => t === s).length,
        );
        assert.deepEqual(counts, { tf: expected, length: tokens.length + meta.length + 1 }, `${q} / ${body}`);
      }
    }
  });
});
