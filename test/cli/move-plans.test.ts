/**
 * Moving a home with the CLI: `export --out` then `import --restore` brings the home's behaviors, commitments
 * and summary chains, so `behaviors list|runs`, `commitments list` and `summaries list` (what the console reads
 * too) print the same in the second home; a plain `import` of the same file refuses every plan line by number.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { openLedger } from '../../src/index.ts';
import { furnish } from '../conformance/cases/i07-restore-plans.ts';
import { manualClock } from '../conformance/helpers.ts';
import { cli, ok, withTempHome } from './helpers.ts';

const READS = [
  ['behaviors', 'list', '--json'],
  ['behaviors', 'runs', 'digest', '--json'],
  ['behaviors', 'runs', 'weekly', '--json'],
  [
    'commitments',
    'list',
    '--status',
    'open',
    '--status',
    'doing',
    '--status',
    'done',
    '--status',
    'cancelled',
  ],
  ['summaries', 'show', 'notes', '--json'],
];
const PLANS = new Set(['commitment', 'chain', 'summary', 'behavior', 'run', 'fire']);

test('I7 only humans judge: export and import --restore move behaviors, commitments and summary chains, which the CLI lists the same in the second home; a plain import refuses each plan line by number', () =>
  withTempHome(async (home) =>
    withTempHome(async (second) =>
      withTempHome(async (third) => {
        const clock = manualClock('2030-08-01T09:00:00.000Z');
        const source = openLedger({ home, now: clock.now });
        try {
          await furnish(source, clock);
        } finally {
          source.close();
        }
        const out = join(home, 'home.jsonl');
        ok(await cli(home, ['export', '--out', out, '--json']));
        const restored = ok(await cli(second, ['import', out, '--restore', '--json'])).json();
        assert.deepEqual(restored.failed, []);
        for (const args of READS) {
          const json = args.includes('--json') ? args : [...args, '--json'];
          const there = ok(await cli(home, json)).json();
          const here = ok(await cli(second, json)).json();
          assert.deepEqual(here, there, `${args.slice(0, 2).join(' ')} reads the same`);
        }

        const lines = readFileSync(out, 'utf8').trim().split('\n');
        const planned = lines.flatMap((l, i) => (PLANS.has(JSON.parse(l).type) ? [i + 1] : []));
        assert.ok(planned.length >= 10, 'the file carries the plans');
        const plain = await cli(third, ['import', out, '--json']);
        const refused = (
          JSON.parse(plain.stdout || plain.stderr) as { failed?: { line: number; class: string }[] }
        ).failed;
        assert.deepEqual(
          (refused ?? []).filter((f) => planned.includes(f.line)).map((f) => [f.line, f.class]),
          planned.map((n) => [n, 'permission']),
        );
        assert.deepEqual(ok(await cli(third, ['behaviors', 'list', '--json'])).json().behaviors, []);
        assert.deepEqual(
          ok(await cli(third, ['commitments', 'list', '--status', 'done', '--json'])).json(),
          [],
          'no lifecycle came with the plain lines',
        );
        const control = ok(await cli(third, ['list', '--scope', 'shared', '--json'])).json();
        assert.ok(JSON.stringify(control).includes('Send Acme the renewal quote'), 'the memory lines land');
      }),
    ),
  ));
