/**
 * A memory's search document on Postgres made in one tokenizing (rows.ts `indexedDocument`, what both restore
 * paths write) is the same as its two separate makings: the tsvector literal of `documentVector` and the length
 * of `documentLength`, which the scope statistics subtract again when the document leaves the index.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { documentVector, indexedDocument } from '../../src/store/postgres/rows.ts';
import { documentLength, type IndexedText } from '../../src/store/text/document.ts';

const doc = (body: string, more: Partial<IndexedText> = {}): IndexedText => ({
  scope: 'project:a',
  body,
  key: null,
  subjects: [],
  value: null,
  ...more,
});

test('one tokenizing gives the vector and the length the separate functions give', () => {
  const docs = [
    doc(''),
    doc('The launch moved to April; the launch team agrees.'),
    doc("it's a back\\slash and a quote's edge", { key: 'team.owner', subjects: ['payments', 'q3'] }),
    doc('Crème brûlée, naïve café, Ελληνικά και кириллица', { value: { note: 'ü and ß', n: 3 } }),
    doc('\u0301\u0301 marks alone, 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 and 😀 emoji', { subjects: ['ǡ ǣ', ''] }),
    doc(`${'long '.repeat(20)}${'x'.repeat(3000)}`, { key: 'k'.repeat(700) }),
    doc(Array.from({ length: 17_000 }, (_, i) => (i % 3 === 0 ? 'echo' : `w${i % 50}`)).join(' ')),
  ];
  for (const d of docs) {
    const one = indexedDocument(d);
    assert.equal(one.vector, documentVector(d));
    assert.equal(one.length, documentLength(d), d.body.slice(0, 40));
  }
  // Control: the documents differ, so the comparison is not of empty strings.
  assert.notEqual(indexedDocument(docs[1]!).vector, indexedDocument(docs[2]!).vector);
  assert.match(indexedDocument(docs[2]!).vector, /'it'/);
});
