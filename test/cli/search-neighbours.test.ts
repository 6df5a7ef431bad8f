/**
 * `memledger search --neighbours`: a chat history imported one conversation per MEMLEDGER_SESSION_ID keeps each
 * conversation's turns together, so a hit's neighbours are the turns of its own conversation and never the
 * first turn of the next one imported.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { cli, ok, withTempHome } from './helpers.ts';

const turns = (...bodies: string[]) =>
  `${bodies.map((body) => JSON.stringify({ body, kind: 'episode' })).join('\n')}\n`;

test('search --neighbours returns each hit’s turns before and after within its own imported conversation', () =>
  withTempHome(async (home) => {
    const off = { MEMLEDGER_EMBEDDER: 'off' };
    ok(await cli(home, ['init'], { env: off }));
    const one = join(home, 'chat-1.jsonl');
    const two = join(home, 'chat-2.jsonl');
    writeFileSync(one, turns('Where should we hold the wombat offsite?', 'Lisbon, in the old tram depot.'));
    writeFileSync(
      two,
      turns('Reminder: book the train tickets', 'Should the wombat offsite be in spring?', 'Yes, April.'),
    );
    ok(await cli(home, ['import', one], { env: { ...off, MEMLEDGER_SESSION_ID: 'chat-1' } }));
    ok(await cli(home, ['import', two], { env: { ...off, MEMLEDGER_SESSION_ID: 'chat-2' } }));
    const hits = ok(
      await cli(home, ['search', 'wombat offsite', '--neighbours', '--json'], { env: off }),
    ).json().hits;
    const of = (start: string) =>
      hits.find((h: { memory: { body: string } }) => h.memory.body.startsWith(start));
    const where = of('Where should');
    assert.equal(where.neighbours.before, null, 'the first turn of its conversation');
    assert.equal(where.neighbours.after.body, 'Lisbon, in the old tram depot.');
    const spring = of('Should the wombat');
    assert.equal(spring.neighbours.before.body, 'Reminder: book the train tickets');
    assert.equal(spring.neighbours.after.body, 'Yes, April.');
    // The table lists them under each hit; without the flag, none are read.
    const table = ok(await cli(home, ['search', 'wombat offsite', '--neighbours'], { env: off })).stdout;
    assert.match(table, /neighbours in their conversations:\n/);
    assert.match(table, / {2}after: {2}Lisbon, in the old tram depot\.\n/);
    const plain = ok(await cli(home, ['search', 'wombat offsite', '--json'], { env: off })).json().hits;
    assert.ok(plain.every((h: { neighbours?: unknown }) => h.neighbours === undefined));
  }));
