/** The README's worked behavior file is a valid definition, parsed by the same code `behaviors add` uses. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { behaviorDefinitionSchema, parseDefinitionText } from '../../src/behaviors/definition.ts';
import { latestAtOrBefore, parseCron } from '../../src/model/cron.ts';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test("the README's behavior file parses and validates; its schedule fires on weekday mornings in Berlin", () => {
  const section = README.slice(README.indexOf('### Behaviors'));
  const toml = /```toml\n([\s\S]*?)```/.exec(section)?.[1];
  assert.ok(toml !== undefined, 'control: the section has a TOML example');
  const def = behaviorDefinitionSchema.parse(parseDefinitionText(toml, 'decision-digest.toml'));
  assert.equal(def.name, 'decision-digest');
  assert.deepEqual(
    def.sources.map((x) => [x.name, x.limit]),
    [['open_commitments', 20]],
  );
  assert.deepEqual(
    def.triggers.map((t) => t.type),
    ['event', 'schedule'],
  );
  const schedule = def.triggers[1] as { cron: string; timezone: string };
  // Saturday noon in Berlin: the latest weekday 09:00 is Friday's, 08:00 UTC in winter.
  const at = latestAtOrBefore(parseCron(schedule.cron), schedule.timezone, new Date('2030-01-05T11:00:00Z'));
  assert.equal(at?.toISOString(), '2030-01-04T08:00:00.000Z');
});

test('a definition with an unknown field (a misspelt sources) is refused, not ignored', () => {
  const parsed = behaviorDefinitionSchema.safeParse({
    name: 'x',
    prompt: 'p',
    triggers: [{ type: 'event' }],
    reads: { scopes: ['shared'] },
    writes: { kinds: ['note'], scopes: ['shared'] },
    source: [{ name: 'q', sql: 'select 1' }],
  });
  assert.equal(parsed.success, false);
});
