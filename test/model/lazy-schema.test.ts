/**
 * Schemas built on first use (src/model/lazy-schema.ts): built once and only when touched, and then the same
 * schema in every way a caller sees: parse results and issues, composition, shape, JSON Schema; and a write whose
 * input schema is first built by that very call, in a fresh process, is still refused as `invalid_input`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { z } from 'zod';
import { lazySchema } from '../../src/model/lazy-schema.ts';
import { rememberInputSchema } from '../../src/model/memory.ts';

const build = () =>
  z
    .object({
      body: z.string().min(1, 'body must not be empty').max(20),
      kind: z.enum(['fact', 'note']).default('fact'),
      tags: z
        .array(z.string().regex(/^[a-z]+$/, 'lowercase only'))
        .max(3)
        .optional(),
    })
    .strict()
    .refine((v) => v.body !== 'forbidden', { message: 'not that body', path: ['body'] });

test('a lazy schema is built on first use, once, and not at all when nothing touches it', () => {
  let built = 0;
  const schema = lazySchema(() => {
    built++;
    return build();
  });
  const untouched = lazySchema(() => {
    throw new Error('built without being used');
  });
  assert.equal(built, 0, 'not built when declared');
  assert.equal(schema.safeParse({ body: 'a' }).success, true);
  assert.equal(schema.safeParse({ body: '' }).success, false);
  const first = schema.parse;
  assert.equal(schema.parse, first, 'a method is the same function each time it is read');
  assert.equal(built, 1, 'built once, on the first parse');
  assert.ok(untouched !== undefined, 'control: declaring one builds nothing');
});

test('a lazy schema validates, composes and documents exactly as the schema it builds', () => {
  const eager = build();
  const lazy = lazySchema(build);
  const inputs: unknown[] = [
    { body: 'ok' },
    { body: 'ok', kind: 'note', tags: ['a', 'b'] },
    { body: '' },
    { body: 'x'.repeat(21) },
    { body: 'forbidden' },
    { body: 'ok', tags: ['A'] },
    { body: 'ok', extra: 1 },
    { kind: 'other' },
    'not an object',
    null,
  ];
  for (const input of inputs) {
    assert.deepEqual(lazy.safeParse(input), eager.safeParse(input), JSON.stringify(input));
  }
  assert.deepEqual(
    z.toJSONSchema(lazy, { io: 'input', unrepresentable: 'any' }),
    z.toJSONSchema(eager, { io: 'input', unrepresentable: 'any' }),
  );
  // Composed into another schema, as a field and through its own methods.
  const fieldsEager = z.object({ item: eager, maybe: eager.optional() });
  const fieldsLazy = z.object({ item: lazy, maybe: lazy.optional() });
  for (const input of [
    { item: { body: 'ok' } },
    { item: { body: '' } },
    { item: { body: 'ok' }, maybe: 3 },
  ]) {
    assert.deepEqual(fieldsLazy.safeParse(input), fieldsEager.safeParse(input), JSON.stringify(input));
  }
  assert.deepEqual(z.toJSONSchema(fieldsLazy), z.toJSONSchema(fieldsEager));
  const objectLazy = lazySchema(() => z.object({ a: z.string(), b: z.number() }).strict());
  assert.deepEqual(Object.keys(objectLazy.shape), ['a', 'b']);
  assert.equal(objectLazy.omit({ b: true }).safeParse({ a: 'x' }).success, true);
  assert.ok(objectLazy instanceof z.ZodObject, 'it is what zod checks it is');
});

test('the remember schema, built lazily, is the one every surface documents: its JSON Schema names every field', () => {
  const json = z.toJSONSchema(rememberInputSchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, unknown>;
  };
  assert.deepEqual(Object.keys(json.properties).sort(), [
    'body',
    'confidence',
    'key',
    'kind',
    'scope',
    'source',
    'subjects',
    'supersedes',
    'validFrom',
    'validTo',
    'value',
  ]);
});

test('a write first validated in a fresh process (its schema built by that call) is invalid_input, audited, and writes nothing; a valid one lands', () => {
  // A child process, so nothing in this one has built the schemas before the call.
  const script = `
    import { mkdtempSync, rmSync } from 'node:fs';
    import { tmpdir } from 'node:os';
    import { join } from 'node:path';
    import { openLedger } from ${JSON.stringify(new URL('../../src/index.ts', import.meta.url).href)};
    const home = mkdtempSync(join(tmpdir(), 'memledger-lazy-'));
    const ledger = openLedger({ home });
    const me = ledger.as(ledger.operator(), { surface: 'library' });
    const out = {};
    try {
      await me.remember({ body: '', scope: 'shared' });
      out.empty = 'written';
    } catch (e) { out.empty = e.class ?? String(e); }
    try {
      await me.remember({ body: 'lazy schema control', scope: 'shared', confidence: 2 });
      out.confidence = 'written';
    } catch (e) { out.confidence = e.class ?? String(e); }
    out.before = (await me.list({ scopes: ['shared'] })).length;
    out.valid = (await me.remember({ body: 'lazy schema control', scope: 'shared' })).state;
    out.after = (await me.list({ scopes: ['shared'] })).length;
    out.refusals = (await me.audit({ limit: 50 })).filter((r) => r.outcome !== 'ok' && r.failureClass === 'invalid_input').length;
    ledger.close();
    rmSync(home, { recursive: true, force: true });
    process.stdout.write(JSON.stringify(out));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const out = JSON.parse(run.stdout);
  assert.deepEqual(
    { empty: out.empty, confidence: out.confidence, before: out.before },
    { empty: 'invalid_input', confidence: 'invalid_input', before: 0 },
  );
  assert.equal(out.refusals, 2, 'both refusals are audited');
  assert.deepEqual(
    { valid: out.valid, after: out.after },
    { valid: 'active', after: 1 },
    'control: a valid write lands',
  );
});
