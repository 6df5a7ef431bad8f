/** I9 erasure is real: every version about a subject loses its content everywhere, leaving a tombstone and the audit. */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import type { LedgerSession } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../../src/guard/canonical.ts';
import { argsHash, keyedHash, previewArgs } from '../../../src/guard/redact.ts';
import { exportAll, expectError, filesContaining, uniqueWord } from '../helpers.ts';

export function erasureCases(factory: ConformanceFactory): void {
  describe('I9 erasure is real', () => {
    test('I9 erasure: every version about the subject, including a later one that did not name it, loses its content', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const subject = 'person:alice@example.com';
        const v1 = await me.remember({
          body: 'Alice’s phone is 555-0100 marmoset',
          scope: 'shared',
          key: 'alice.phone',
          value: { phone: '555-0100' },
          subjects: [subject],
        });
        const v2 = await me.remember({
          body: 'Alice’s phone is 555-0199 marmoset',
          scope: 'shared',
          key: 'alice.phone',
        });
        const other = await me.remember({
          body: 'Alice prefers marmoset tea',
          scope: 'user:alice',
          subjects: [subject],
        });
        const control = await me.remember({ body: 'The marmoset exhibit opens in May', scope: 'shared' });
        const between = new Date().toISOString();
        const remembers = (await me.audit({ operation: 'remember', limit: 1000 })).length;

        const result = await me.erase({ subject });
        assert.equal(result.erased, 3);

        for (const id of [v1.id, v2.id, other.id]) {
          const m = await me.get(id);
          assert.deepEqual([m.state, m.body, m.value, m.key, m.subjects], ['erased', '', null, null, []], id);
        }
        const kept = await me.get(control.id);
        assert.equal(kept.body, 'The marmoset exhibit opens in May', 'control: unrelated content stays');

        const current = (await me.search({ query: 'marmoset phone tea' })).hits.map((h) => h.memory.id);
        assert.deepEqual(current, [control.id]);
        const asOf = (await me.search({ query: 'marmoset phone tea', asOf: between })).hits.map(
          (h) => h.memory.id,
        );
        assert.deepEqual(asOf, [control.id], 'as-of reads do not bring erased versions back');
        assert.deepEqual(await me.list({ subject }), []);
        assert.deepEqual(await me.list({ asOf: between, key: 'alice.phone' }), []);

        const h = await me.history(v1.id);
        assert.deepEqual(
          h.versions.map((v) => [v.id, v.state]),
          [
            [v1.id, 'erased'],
            [v2.id, 'erased'],
          ],
        );
        assert.equal(h.events.filter((e) => e.type === 'erased').length, 2, 'tombstone events');
        assert.equal(h.current, null);

        const erasures = await me.audit({ operation: 'erase' });
        assert.equal(erasures.length, 1);
        assert.equal(erasures[0]!.outcome, 'ok');
        assert.equal(
          (await me.audit({ operation: 'remember', limit: 1000 })).length,
          remembers,
          'audit survives',
        );
        assert.equal((await me.stats()).erasures, 1);
        assert.equal((await me.erase({ subject })).erased, 0, 'a second erasure finds nothing left');
      }));

    test('I9 erasure: after erasing among 2,000 memories no file in the home holds the erased text; a control still does', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.files) {
          t.skip('the backend keeps its data outside home files; its own suite checks storage bytes');
          return;
        }
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:bot'));
        const subject = `person:${uniqueWord('subj')}@example.com`;
        const u = {
          first: uniqueWord('a'),
          second: uniqueWord('b'),
          proposal: uniqueWord('c'),
          rejection: uniqueWord('d'),
          other: uniqueWord('e'),
          retraction: uniqueWord('f'),
        };
        const control = uniqueWord('ctrl');

        // The erased versions are spread between thousands of other writes, so the index holds them in several segments.
        await me.remember({
          body: `Phone is ${u.first}`,
          scope: 'shared',
          key: 'subject.phone',
          subjects: [subject],
        });
        await fill(me, 700, 1);
        const second = await me.remember({
          body: `New phone is ${u.second}`,
          scope: 'shared',
          key: 'subject.phone',
        });
        const proposal = await agent.remember({
          body: `Phone may be ${u.proposal}`,
          scope: 'shared',
          key: 'subject.phone',
        });
        assert.equal(proposal.state, 'held');
        await me.reject({ id: proposal.id, reason: `${u.rejection} says otherwise` });
        const other = await me.remember({
          body: `${u.other} lives in Lisbon`,
          scope: 'user:subject',
          subjects: [subject],
        });
        await me.retract({ id: other.id, reason: `moved, per ${u.retraction}` });
        await fill(me, 700, 2);
        await me.remember({ body: `Unrelated control ${control}`, scope: 'shared' });
        await fill(me, 600, 3);

        // Positive controls: before erasure the text is found in the files and by search, so absence means erased.
        for (const needle of [...Object.values(u), subject]) {
          assert.ok(filesContaining(home, needle).length > 0, `setup: ${needle} is in the files`);
        }
        assert.deepEqual(
          (await me.search({ query: u.second })).hits.map((h) => h.memory.id),
          [second.id],
        );

        const result = await me.erase({ subject });
        assert.equal(result.erased, 4, 'two versions, the rejected proposal and the other-scope memory');
        assert.equal(result.checkpointed, true);

        for (const needle of [...Object.values(u), subject]) {
          assert.deepEqual(filesContaining(home, needle), [], `${needle} is gone from every file`);
          // The index stores terms prefix-compressed: the tail of a word must be gone too.
          assert.deepEqual(filesContaining(home, needle.slice(4)), [], `the tail of ${needle} is gone`);
          assert.deepEqual((await me.search({ query: needle })).hits, []);
        }
        assert.ok(
          filesContaining(home, control).includes(join(home, 'memory.db')),
          'control: unrelated text is still in memory.db',
        );
        assert.equal((await me.search({ query: control })).hits.length, 1);
      }));

    test('I9 erasure: hashes that outlive it cannot be tested against a guess: the key that made them is gone', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const subject = 'person:bob@example.com';
        await me.remember({ body: 'Bob’s phone is 555-0142', scope: 'shared', subjects: [subject] });
        await me.list({ subject });
        const tags = (await me.audit({ limit: 10 }))
          .map((r) => r.argsPreview as { subject?: string; subjects?: string[] })
          .flatMap((p) => [p.subject, ...(p.subjects ?? [])])
          .filter((t): t is string => typeof t === 'string');
        assert.equal(new Set(tags).size, 1, 'control: before erasure, calls about one subject share one tag');
        const keyBefore = await ledger.store.hashKey();

        await me.erase({ subject });
        const keyAfter = await ledger.store.hashKey();
        assert.notEqual(keyAfter.id, keyBefore.id, 'erasure replaced the key');
        const [record] = await me.audit({ operation: 'erase', limit: 1 });
        const guess = { subject };
        const plain = createHash('sha256').update(canonicalJson(guess)).digest('hex');
        assert.notEqual(record!.argsHash, plain, 'not a plain digest: a dictionary cannot reverse it');
        assert.notEqual(
          record!.argsHash,
          argsHash(guess, keyedHash(keyAfter.key)),
          'nor the key that remains',
        );
        assert.equal(
          record!.argsHash,
          argsHash(guess, keyedHash(keyBefore.key)),
          'it was the key erasure destroyed',
        );
        const now = (previewArgs(guess, keyedHash(keyAfter.key)) as { subject: string }).subject;
        assert.ok(!tags.includes(now), 'the old tags cannot be matched under the key that remains');
        const exported = await exportAll(me);
        const tombstones = exported.filter(
          (d) => d.type === 'memory' && (d.memory as { state?: string })?.state === 'erased',
        );
        assert.equal(tombstones.length, 1);
        assert.equal(
          (tombstones[0]!.memory as unknown as { fingerprint: string }).fingerprint,
          '',
          'a tombstone keeps no fingerprint',
        );
        const erasure = exported.find((d) => d.type === 'erasure') as
          | { erasure: Record<string, unknown> }
          | undefined;
        assert.deepEqual(Object.keys(erasure!.erasure).sort(), ['at', 'by', 'id', 'memoryIds', 'selector']);
      }));

    test('I9 erasure: an error message naming a key keeps it out of the audit', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const key = `${uniqueWord('key')}.phone`;
        await expectError(me.claim({ scope: 'shared', key }), 'not_found', 'claim of a key with no value');
        const [record] = await me.audit({ operation: 'claim', limit: 1 });
        assert.equal(record!.outcome, 'error');
        assert.ok(!JSON.stringify(record).includes(key), JSON.stringify(record));
        assert.match(
          record!.message ?? '',
          /has no current value to claim/,
          'control: the rest of the message stays',
        );
      }));

    test('I9 erasure by provenance: a principal’s, a session’s or a source’s writes go, and nothing else', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const scout = ledger.as(ledger.principal('agent:scout'), { surface: 'mcp', sessionId: 'sess-a' });
        const other = ledger.as(ledger.principal('agent:other'), { surface: 'mcp', sessionId: 'sess-b' });
        const a1 = await scout.remember({ body: 'Scout saw the llama', scope: 'agent:scout' });
        const a2 = await scout.remember({ body: 'Scout heard the llama', scope: 'shared' });
        const b1 = await other.remember({ body: 'Other saw the llama', scope: 'agent:other' });
        const b2 = await other.remember({
          body: 'Other read about the llama',
          scope: 'agent:other',
          source: { url: 'https://zoo.example/llamas/1' },
        });
        const mine = await me.remember({ body: 'The llama is called Lola', scope: 'shared' });
        const preview = await me.erasePreview({ principal: 'agent:scout' });
        assert.deepEqual([preview.selector, preview.total], ['principal', 2]);
        const byPrincipal = await me.erase({ principal: 'agent:scout' });
        assert.deepEqual([byPrincipal.selector, byPrincipal.erased], ['principal', 2]);
        const bySession = await me.erase({ sessionId: 'sess-b' });
        assert.equal(bySession.erased, 2);
        const state = async (id: string) => (await me.get(id)).state;
        assert.deepEqual(
          [await state(a1.id), await state(a2.id), await state(b1.id), await state(b2.id)],
          ['erased', 'erased', 'erased', 'erased'],
        );
        assert.equal(
          (await me.get(mine.id)).body,
          'The llama is called Lola',
          'control: a person’s memory stays',
        );
        const third = ledger.as(ledger.principal('agent:third'));
        const c1 = await third.remember({
          body: 'Third read about llamas',
          scope: 'agent:third',
          source: { url: 'https://zoo.example/llamas/2' },
        });
        const c2 = await third.remember({
          body: 'Third read about alpacas',
          scope: 'agent:third',
          source: { url: 'https://farm.example/alpacas' },
        });
        assert.equal((await me.erase({ sourcePrefix: 'https://zoo.example/' })).erased, 1);
        assert.deepEqual([await state(c1.id), await state(c2.id)], ['erased', 'active'], 'only the prefix');
        await expectError(
          me.erase({ principal: 'agent:third', subject: 'person:x@example.com' } as never),
          'invalid_input',
          'two selectors',
        );
        await expectError(third.erase({ principal: 'agent:third' }), 'permission', 'an agent purging itself');
      }));

    test('I9 erasure: a key’s new version keeps the subjects of the one it replaces, so erasure by subject reaches it', () =>
      withHome(factory, async ({ ledger }) => {
        const me = ledger.as(ledger.operator());
        const first = await me.remember({
          body: 'Acme is on the Pro plan',
          scope: 'shared',
          key: 'acme.plan',
          subjects: ['company:acme'],
        });
        const second = await me.remember({
          body: 'Acme moved to the Enterprise plan',
          scope: 'shared',
          key: 'acme.plan',
        });
        assert.deepEqual((await me.get(second.id)).subjects, ['company:acme']);
        const found = await me.search({ query: 'acme', subject: 'company:acme' });
        assert.deepEqual(
          found.hits.map((h) => h.memory.id),
          [second.id],
        );
        const own = await me.remember({
          body: 'Acme is on the Team plan',
          scope: 'shared',
          key: 'acme.plan',
          subjects: ['company:acme-eu'],
        });
        assert.deepEqual(
          (await me.get(own.id)).subjects,
          ['company:acme-eu'],
          'control: naming subjects replaces them',
        );
        assert.equal((await me.erase({ subject: 'company:acme' })).erased, 3, 'every version of the key');
        assert.equal((await me.get(first.id)).state, 'erased');
      }));

    test('I9 erasure by provenance leaves no byte of what the agent wrote in any file; a person’s control stays', (t) =>
      withHome(factory, async ({ ledger, home, capabilities }) => {
        if (!capabilities.files) {
          t.skip('the backend keeps its data outside home files; its own suite checks storage bytes');
          return;
        }
        const me = ledger.as(ledger.operator());
        const agent = ledger.as(ledger.principal('agent:leaky'), { surface: 'mcp', sessionId: 'leaky-1' });
        const words = [uniqueWord('p1'), uniqueWord('p2'), uniqueWord('p3')];
        const control = uniqueWord('human');
        await agent.remember({ body: `Leaky noted ${words[0]}`, scope: 'agent:leaky' });
        await agent.remember({ body: `Leaky thinks ${words[1]}`, scope: 'shared' });
        await agent.remember({ body: `Leaky keyed ${words[2]}`, scope: 'agent:leaky', key: 'leaky.note' });
        await me.remember({ body: `A person wrote ${control}`, scope: 'shared' });
        await fill(me, 300, 9);
        for (const w of words) assert.ok(filesContaining(home, w).length > 0, `setup: ${w} is in the files`);
        const result = await me.erase({ principal: 'agent:leaky' });
        assert.deepEqual([result.erased, result.checkpointed], [3, true]);
        for (const w of words) assert.deepEqual(filesContaining(home, w), [], `${w} is gone from every file`);
        assert.ok(filesContaining(home, control).length > 0, 'control: the person’s memory is still on disk');
      }));
  });
}

// A small vocabulary with a skewed (Zipf-like) distribution, as real notes have.
const VOCABULARY =
  'deploy release customer invoice meeting roadmap budget server incident review plan contract team sprint metric design launch support ticket feature bug migration schema backup alert'.split(
    ' ',
  );

async function fill(session: LedgerSession, count: number, seed: number): Promise<void> {
  let state = seed;
  const next = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  for (let i = 0; i < count; i++) {
    const words: string[] = [];
    for (let w = 0; w < 8; w++) words.push(VOCABULARY[Math.floor(VOCABULARY.length * next() ** 2)]!);
    await session.remember({ body: `${words.join(' ')} item ${seed}-${i}`, scope: 'shared' });
  }
}
