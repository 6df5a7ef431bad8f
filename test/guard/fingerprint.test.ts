/** I5: the fingerprint is what makes two writes the same claim, whoever wrote them and however they typed it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fingerprint } from '../../src/guard/fingerprint.ts';

const base = {
  scope: 'shared',
  key: 'acme.plan',
  kind: 'fact',
  body: 'Acme is on the Pro plan.',
  value: null,
};

test('I5 fingerprint: case, spacing, punctuation and accents do not make a new claim', () => {
  assert.equal(fingerprint(base), fingerprint({ ...base, body: '  acme IS on the pro plan ' }));
  assert.equal(fingerprint({ ...base, body: 'café' }), fingerprint({ ...base, body: 'Cafe' }));
  assert.equal(fingerprint({ ...base, key: 'ACME.plan' }), fingerprint(base));
});

test('I5 fingerprint: scope, key, kind, wording and value each make a different claim', () => {
  const fp = fingerprint(base);
  assert.notEqual(fingerprint({ ...base, scope: 'project:x' }), fp);
  assert.notEqual(fingerprint({ ...base, key: 'acme.tier' }), fp);
  assert.notEqual(fingerprint({ ...base, body: 'Acme is on the Free plan' }), fp);
  assert.notEqual(fingerprint({ ...base, value: { plan: 'pro' } }), fp);
  // Without a key, the kind is the slot.
  assert.notEqual(fingerprint({ ...base, key: null }), fingerprint({ ...base, key: null, kind: 'note' }));
});

test('I5 fingerprint: structured values compare by content, not key order', () => {
  assert.equal(
    fingerprint({ ...base, value: { a: 1, b: [1, 2] } }),
    fingerprint({ ...base, value: { b: [1, 2], a: 1 } }),
  );
});
