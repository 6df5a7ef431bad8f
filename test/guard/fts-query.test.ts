/** I11: user query text reaches FTS only as quoted words; stopwords drop; anything unsearchable is invalid_input. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildFtsQuery } from '../../src/guard/fts-query.ts';
import { isMemoryError } from '../../src/model/errors.ts';

test('I11 user text is data: every term is quoted and OR-joined', () => {
  assert.deepEqual(buildFtsQuery('What is the Acme plan?'), {
    match: '"acme" OR "plan"',
    terms: ['acme', 'plan'],
  });
});

test('I11 user text is data: FTS operators become plain words inside quotes', () => {
  const q = buildFtsQuery('NEAR(alpha beta) OR body:gamma* -delta "eps');
  for (const part of q.match.split(' OR ')) assert.match(part, /^"[\p{L}\p{N}]+"$/u);
  assert.deepEqual(q.terms, ['near', 'alpha', 'beta', 'body', 'gamma', 'delta', 'eps']);
});

test('I11 user text is data: a query of only stopwords keeps them rather than failing', () => {
  assert.deepEqual(buildFtsQuery('who are you').terms, ['who', 'are', 'you']);
});

test('I11 user text is data: punctuation-only and empty queries are invalid_input', () => {
  for (const text of ['', '   ', '!!!', '"*"', '\u0000', '()']) {
    assert.throws(
      () => buildFtsQuery(text),
      (e) => isMemoryError(e, 'invalid_input'),
    );
  }
});

test('I11 user text is data: unicode words survive, over-long queries are refused', () => {
  assert.deepEqual(buildFtsQuery('café 東京 naïve').terms, ['café', '東京', 'naïve']);
  assert.throws(
    () => buildFtsQuery('a'.repeat(1001)),
    (e) => isMemoryError(e, 'invalid_input'),
  );
});

test('I11 user text is data: words too long to search leave no stopword query behind', () => {
  const long = 'x'.repeat(300);
  for (const text of [`the ${long}`, long, `the ${long} of`]) {
    assert.throws(
      () => buildFtsQuery(text),
      (e) => isMemoryError(e, 'invalid_input') && /longer than 64 characters/.test((e as Error).message),
      text.slice(0, 20),
    );
  }
  // Control: beside a searchable word, the long one is only left out, and stopwords still drop.
  assert.deepEqual(buildFtsQuery(`the ${long} deploy`).terms, ['deploy']);
  assert.deepEqual(buildFtsQuery(`the ${'y'.repeat(64)}`).terms, ['y'.repeat(64)]);
});
