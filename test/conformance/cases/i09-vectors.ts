/**
 * I9 erasure on the vector path: an erased memory's vector and queue row are gone (a vector can be inverted
 * into text close to its body), beside a control memory whose vector stays; where the store is files, no file
 * holds the erased vector's bytes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { quantise } from '../../../src/embed/int8.ts';
import { wordVector, WordEmbedder } from '../../support/word-embedder.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { filesHolding } from '../../support/files-holding.ts';

export function vectorErasureCases(factory: ConformanceFactory): void {
  describe('I9 erasure on the vector path', () => {
    test('I9 erasure: an erased memory’s vector and queue row are gone; a control memory keeps its vector', () =>
      withHome(
        factory,
        async ({ ledger, home, capabilities }) => {
          const embedder = new WordEmbedder();
          const me = ledger.as(ledger.operator());
          const subject = 'person:zelda@example.com';
          const erasedBody = 'Zelda keeps quokka lanterns aboard the ferry';
          const controlBody = 'The ferry timetable changes in winter';
          const gone = await me.remember({ body: erasedBody, scope: 'shared', subjects: [subject] });
          const kept = await me.remember({ body: controlBody, scope: 'shared' });
          // A third one stays queued: erasure must take its queue row too.
          const queued = await me.remember({
            body: 'Zelda lost a quokka lantern',
            scope: 'shared',
            subjects: [subject],
          });
          assert.equal(await ledger.embedPending({ limit: 2 }).then((r) => r.embedded), 2);
          const before = await ledger.store.vectors.counts(embedder.model);
          assert.deepEqual(before, { vectors: 2, pending: 1 });
          const erasedBytes = Buffer.from(quantise(wordVector(erasedBody)).bytes.buffer);
          const keptBytes = Buffer.from(quantise(wordVector(controlBody)).bytes.buffer);
          if (capabilities.files) {
            assert.ok(filesHolding(home, erasedBytes).length > 0, 'setup: the vector is in the files');
          }

          const result = await me.erase({ subject });
          assert.equal(result.erased, 2);
          assert.deepEqual(await ledger.store.vectors.counts(embedder.model), { vectors: 1, pending: 0 });
          const found = await me.search({ query: 'quokka lanterns ferry' });
          assert.deepEqual(
            found.hits.map((h) => h.memory.id),
            [kept.id],
            'control found; the erased memories are not, by text or vector',
          );
          assert.ok(!found.hits.some((h) => h.memory.id === gone.id || h.memory.id === queued.id));
          if (capabilities.files) {
            assert.deepEqual(filesHolding(home, erasedBytes), [], 'no file holds the erased vector');
            assert.ok(filesHolding(home, keptBytes).length > 0, 'control: the kept vector is in the files');
          }
        },
        { semantic: { embedder: new WordEmbedder() } },
      ));
  });
}
