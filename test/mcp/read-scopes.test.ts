/** `--project` as a name, a scope or a path, and the default read scopes a principal's grants allow. */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { isMemoryError } from '../../src/index.ts';
import type { Principal } from '../../src/model/principal.ts';
import { projectScope, readScopes } from '../../src/surfaces/mcp/read-scopes.ts';
import { tempHome } from './helpers.ts';

const agent = (grants: string[], roles: Principal['roles'] = ['reader', 'writer']): Principal =>
  ({
    id: 'x',
    kind: 'agent',
    roles,
    grants: grants.map((g) => {
      const at = g.lastIndexOf(':');
      const access = g.slice(at + 1);
      return { scope: g.slice(0, at), read: access.includes('r'), write: access.includes('w') };
    }),
  }) as Principal;

test('--project: a name and project:NAME name the project; a path names its directory project; blank is refused', () => {
  const home = tempHome('read-scopes');
  try {
    const dir = join(home.home, 'work', 'acme-api');
    mkdirSync(dir, { recursive: true });
    assert.equal(projectScope('acme-api', '/nowhere'), 'project:acme-api');
    assert.equal(projectScope('project:acme-api', '/nowhere'), 'project:acme-api');
    assert.equal(projectScope('Acme API', '/nowhere'), 'project:Acme-API');
    assert.equal(projectScope('.', dir), 'project:acme-api');
    assert.equal(projectScope('./acme-api', join(home.home, 'work')), 'project:acme-api');
    assert.equal(projectScope(undefined, dir), 'project:acme-api', 'default: the working directory');
    assert.throws(
      () => projectScope('  ', dir),
      (e) => isMemoryError(e, 'invalid_input'),
    );
  } finally {
    home.cleanup();
  }
});

test('default read scopes: the project, shared and own, each only if readable; named scopes as given', () => {
  const all = agent(['agent:{self}:rw', 'shared:rw', 'project:*:rw']);
  assert.deepEqual(readScopes(all, 'project:a', undefined), ['project:a', 'shared', 'agent:x']);
  assert.deepEqual(readScopes(all, 'project:a', []), ['project:a', 'shared', 'agent:x']);
  assert.deepEqual(readScopes(all, 'project:a', ['project:b']), ['project:b']);
  const noShared = agent(['agent:{self}:rw', 'project:a:r']);
  assert.deepEqual(readScopes(noShared, 'project:a', undefined), ['project:a', 'agent:x']);
  // None readable: all three go to the ledger, which refuses the read naming a scope (and audits it).
  const elsewhere = agent(['project:b:r']);
  assert.deepEqual(readScopes(elsewhere, 'project:a', undefined), ['project:a', 'shared', 'agent:x']);
});
