/** I8: audit previews keep the shape of a call and never its content. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { argsHash, keyedHash, previewArgs } from '../../src/guard/redact.ts';

const hash = keyedHash(Buffer.alloc(32, 7));

test('I8 audit preview: free text and subjects are reduced, vocabulary and ids pass', () => {
  const preview = previewArgs(
    {
      body: 'Alice lives at 12 Elm Street',
      scope: 'user:alice',
      kind: 'fact',
      subjects: ['person:alice@example.com'],
      supersedes: 'mem_01m8mbz807000ft8dk9paf',
      limit: 5,
      value: { street: '12 Elm Street' },
    },
    hash,
  ) as Record<string, unknown>;
  const text = JSON.stringify(preview);
  assert.ok(!text.includes('Elm'), 'body and value text must not appear');
  assert.ok(!text.includes('alice@example.com'), 'subject must not appear');
  assert.equal(preview.scope, 'user:alice');
  assert.equal(preview.kind, 'fact');
  assert.equal(preview.supersedes, 'mem_01m8mbz807000ft8dk9paf');
  assert.equal(preview.limit, 5);
  assert.equal(preview.body, '[text:28]');
});

test('I8 audit preview: a pass field holding something not vocabulary-shaped is masked', () => {
  const preview = previewArgs({ kind: 'fact; DROP TABLE x', scope: 'shared' }, hash) as Record<
    string,
    unknown
  >;
  assert.equal(preview.kind, '[text:18]');
  assert.equal(preview.scope, 'shared');
});

test('I10 audit preview: an allow-listed field holding a secret-shaped value is reduced like free text', () => {
  const token = `ghp${'_'}${'Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4'}`;
  const args = { scope: token, scopes: ['shared', `project:${token}`], kind: 'fact' };
  const preview = previewArgs(args, hash) as Record<string, unknown>;
  assert.ok(!JSON.stringify(preview).includes(token));
  assert.equal(preview.scope, `[text:${token.length}]`);
  assert.deepEqual(preview.scopes, ['shared', `[text:${token.length + 8}]`], 'control: shared passes');
  assert.equal(preview.kind, 'fact');
  assert.match(argsHash(args, hash), /^[0-9a-f]{64}$/, 'the hash of the whole call stays');
});

test('I8 audit hash: equal arguments in any key order hash the same, different ones differ', () => {
  assert.equal(argsHash({ a: 1, b: 'x' }, hash), argsHash({ b: 'x', a: 1 }, hash));
  assert.notEqual(argsHash({ a: 1 }, hash), argsHash({ a: 2 }, hash));
  assert.match(argsHash(undefined, hash), /^[0-9a-f]{64}$/);
});

test('I9 audit hash: keyed, so a guess cannot be tested without the key (control: the same key agrees)', () => {
  const args = { subject: 'person:alice@example.com' };
  const plain = createHash('sha256').update(JSON.stringify(args)).digest('hex');
  assert.notEqual(argsHash(args, hash), plain, 'not a plain digest of the arguments');
  assert.notEqual(
    argsHash(args, hash),
    argsHash(args, keyedHash(Buffer.alloc(32, 8))),
    'another key differs',
  );
  assert.equal(
    argsHash(args, hash),
    argsHash(args, keyedHash(Buffer.alloc(32, 7))),
    'control: the same key agrees',
  );
  const tag = (previewArgs(args, hash) as { subject: string }).subject;
  const other = (previewArgs(args, keyedHash(Buffer.alloc(32, 8))) as { subject: string }).subject;
  assert.match(tag, /^\[subject:[0-9a-f]{12}\]$/);
  assert.notEqual(tag, other, 'the subject tag depends on the key');
});
