/** I6: the write gate: ownership first, then the first matching rule, then the default. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Memory } from '../../src/model/memory.ts';
import type { Principal } from '../../src/model/principal.ts';
import { decide, globMatches } from '../../src/policy/gate.ts';
import { DEFAULT_POLICY_DOCUMENT, parsePolicy } from '../../src/policy/policy-file.ts';
import { isMemoryError } from '../../src/model/errors.ts';
import { memoryFixture } from '../support/memory-fixture.ts';

const policy = parsePolicy(DEFAULT_POLICY_DOCUMENT);
const agent: Principal = { kind: 'agent', id: 'bot', roles: ['reader', 'writer'], grants: [] };
const human: Principal = { kind: 'human', id: 'ann', roles: ['reader', 'writer', 'reviewer'], grants: [] };

function holder(principalKind: 'human' | 'agent', trust: Memory['trust']): Memory {
  return memoryFixture({
    scope: 'agent:bot',
    key: 'k',
    provenance: { principal: `${principalKind}:someone`, principalKind, surface: 'library' },
    trust,
    confirmedBy: trust === 'confirmed' ? 'human:ann' : null,
  });
}

const input = (principal: Principal, scope: string, replaces: Memory | null = null) => ({
  principal,
  scope,
  kind: 'fact' as const,
  key: 'k',
  replaces,
});

test('I6 gate before write: the default policy lands humans and agents in their own scope', () => {
  assert.equal(decide(policy, input(human, 'shared')).action, 'allow');
  assert.equal(decide(policy, input(agent, 'agent:bot')).action, 'allow');
});

test('I6 gate before write: the default policy holds agents in shared, project and other agents\u2019 scopes', () => {
  for (const scope of ['shared', 'project:x', 'agent:other']) {
    const d = decide(policy, input(agent, scope));
    assert.equal(d.action, 'hold', scope);
    assert.equal(d.rule, 'agent-elsewhere-held');
  }
});

test('I6 gate before write: an agent write to a key a human wrote or confirmed is held by ownership, even in its own scope', () => {
  const byHuman = decide(policy, input(agent, 'agent:bot', holder('human', 'confirmed')));
  assert.equal(byHuman.action, 'hold');
  assert.equal(byHuman.rule, 'ownership');
  const confirmed = decide(policy, input(agent, 'agent:bot', holder('agent', 'confirmed')));
  assert.equal(confirmed.rule, 'ownership');
  assert.equal(confirmed.owner, 'human:ann');
  // Control: an agent-written, unconfirmed holder is nobody's.
  assert.equal(decide(policy, input(agent, 'agent:bot', holder('agent', 'accepted'))).action, 'allow');
  // Humans may always overwrite.
  assert.equal(decide(policy, input(human, 'agent:bot', holder('human', 'confirmed'))).action, 'allow');
});

test('I6 gate before write: ownership can be set to deny; rules match by key pattern and kind', () => {
  const strict = parsePolicy({
    version: 1,
    ownership: 'deny',
    rules: [
      { name: 'no-secrets-keys', when: { key: 'secret.*' }, action: 'deny' },
      { name: 'agents-notes', when: { principal: 'agent:*', kind: ['note', 'episode'] }, action: 'allow' },
    ],
    default: 'hold',
  });
  assert.equal(decide(strict, input(agent, 'shared', holder('human', 'confirmed'))).action, 'deny');
  assert.equal(decide(strict, { ...input(human, 'shared'), key: 'secret.pin' }).rule, 'no-secrets-keys');
  assert.equal(decide(strict, { ...input(agent, 'shared'), key: null, kind: 'note' }).action, 'allow');
  assert.equal(decide(strict, { ...input(agent, 'shared'), key: null, kind: 'fact' }).rule, 'default');
});

test('I6 policy file: invalid policies are refused with the path of each problem', () => {
  assert.throws(
    () => parsePolicy({ version: 1, rules: [{ name: 'x', when: { scope: 'nope' }, action: 'maybe' }] }),
    (e) =>
      isMemoryError(e, 'invalid_input') &&
      /rules\.0\.when\.scope/.test(e.message) &&
      /rules\.0\.action/.test(e.message),
  );
  assert.throws(
    () => parsePolicy({ version: 2 }),
    (e) => isMemoryError(e, 'invalid_input'),
  );
  assert.throws(
    () => parsePolicy({ version: 1, extra: true }),
    (e) => isMemoryError(e, 'invalid_input'),
  );
});

test('glob patterns match whole keys only', () => {
  assert.ok(globMatches('acme.*', 'acme.plan'));
  assert.ok(!globMatches('acme.*', 'xacme.plan'));
  assert.ok(globMatches('a.b', 'a.b'));
  assert.ok(!globMatches('a.b', 'axb'));
});
