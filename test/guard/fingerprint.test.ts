/** I5: claim identity is what makes two writes the same claim, whoever wrote them and however they typed it. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { claimIdentity, fingerprint, valueFingerprint } from '../../src/guard/fingerprint.ts';

const base = { scope: 'shared', key: 'acme.plan', body: 'Acme is on the Pro plan.', value: null };

test('I5 claim identity: case, spacing, punctuation and accents do not make a new claim', () => {
  assert.equal(fingerprint(base), fingerprint({ ...base, body: '  acme IS on the pro plan ' }));
  assert.equal(fingerprint({ ...base, body: 'café' }), fingerprint({ ...base, body: 'Cafe' }));
});

test('I5 claim identity: invisible characters and look-alike letters do not make a new claim', () => {
  const fp = fingerprint(base);
  for (const body of [
    'Acme is on the Pro pl\u200Ban.', // zero-width space
    'Acme is on the Pro pl\u00ADan.', // soft hyphen
    'Ac\u2060me is on the Pro plan.', // word joiner
    'Acme is on the Pro plan.\uFEFF', // byte-order mark
    'Асme is on the Рrо plan.', // Cyrillic А, Р, о
    'Acme is οn the Pro plαn.', // Greek ο, α
    'Ａｃｍｅ is on the Pro plan.', // full-width forms (NFKC)
  ]) {
    assert.equal(fingerprint({ ...base, body }), fp, JSON.stringify(body));
  }
});

test('I5 claim identity: kind and key do not change what a claim says; scope and wording do', () => {
  const fp = fingerprint(base);
  assert.equal(fingerprint({ ...base, key: null } as never), fp);
  assert.notEqual(fingerprint({ ...base, scope: 'project:x' }), fp);
  assert.notEqual(fingerprint({ ...base, body: 'Acme is on the Free plan' }), fp);
  // Another script is not a look-alike of this one: real Russian text keeps its own identity.
  assert.notEqual(fingerprint({ ...base, body: 'Акме на тарифе Про' }), fp);
});

test('I5 claim identity: a keyed value is a second identity, by content, not key order or case', () => {
  const a = { scope: 'shared', key: 'acme.plan', value: { plan: 'Free', seats: [1, 2] } };
  const v = valueFingerprint(a);
  assert.ok(v !== null);
  assert.equal(valueFingerprint({ ...a, key: 'ACME.Plan', value: { seats: [1, 2], plan: 'free' } }), v);
  assert.notEqual(valueFingerprint({ ...a, value: { plan: 'Pro', seats: [1, 2] } }), v);
  assert.notEqual(valueFingerprint({ ...a, key: 'acme.tier' }), v);
  assert.equal(valueFingerprint({ ...a, key: null }), null, 'no key, no value identity');
  assert.equal(valueFingerprint({ ...a, value: null }), null, 'no value, no value identity');
  const both = claimIdentity({ ...a, body: 'Acme is on Free' });
  assert.notEqual(both.text, both.value, 'separate hash domains');
});
