/**
 * I7 only humans judge, for moving a home: an admin's export restored elsewhere carries the home's behaviors
 * (every version, disabled or not, runs and what they consumed), its commitments' lifecycle with who moved each
 * one, and its summary chains; a plain import never brings them (each line is someone's decision), and a
 * hostile line fails by its number while the rest of the restore goes on.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger } from '../../../src/index.ts';
import { type ConformanceFactory, withHome } from '../harness.ts';
import { expectError, linesOf, manualClock, principal, storeCounts } from '../helpers.ts';
import { definition } from './i17-outstanding.ts';

const alice = principal('human', 'alice', { roles: ['reader', 'writer'], grants: ['*:rw'] });
const runner = principal('agent', 'runner', { roles: ['reader', 'writer'], grants: ['*:rw'] });
const ALL = ['open', 'doing', 'done', 'cancelled'] as const;
const PLANS = ['commitment', 'chain', 'summary', 'behavior', 'run', 'fire'];

/**
 * A home with two behaviors (one disabled; one with two versions, a finished run and a failed one), three
 * commitments (open; done and cancelled by a person) and a summary chain of two links.
 */
export async function furnish(
  ledger: Ledger,
  clock: ReturnType<typeof manualClock>,
): Promise<{ d3: string }> {
  const me = ledger.as(ledger.operator(), { surface: 'library' });
  const bot = ledger.as(runner, { surface: 'library' });
  const person = ledger.as(alice, { surface: 'library' });
  await me.behaviors.add(definition('digest'));
  await me.behaviors.add(
    definition('digest', {
      prompt: 'Summarise the new decisions, briefly.',
      triggers: [
        { type: 'event', kinds: ['decision'] },
        { type: 'schedule', cron: '0 * * * *' },
      ],
    }),
  );
  await me.behaviors.add(definition('weekly', { prompt: 'Weekly notes.' }));
  await me.behaviors.disable('weekly');
  await me.remember({ scope: 'shared', kind: 'decision', body: 'We ship on Fridays.' });
  await me.remember({ scope: 'shared', kind: 'decision', body: 'Reviews within a day.' });
  clock.advance(3_600_000);
  assert.equal((await me.behaviors.tick()).fired.length, 1, 'the hourly window fires once');
  const first = await bot.behaviors.next('digest');
  assert.equal(first!.fired.length, 1);
  await bot.behaviors.complete({
    run: first!.run,
    token: first!.token,
    outputs: [{ scope: 'agent:runner', kind: 'note', body: 'Digest: Fridays, reviews in a day.' }],
  });
  const d3 = await me.remember({ scope: 'shared', kind: 'decision', body: 'Standups are async.' });
  clock.advance(1000);
  const second = await bot.behaviors.next('digest');
  await bot.behaviors.fail({ run: second!.run, token: second!.token });

  await me.commitments.add({ body: 'Send Acme the renewal quote', scope: 'shared', due: '2030-06-01' });
  const done = await me.commitments.add({
    body: 'Book the offsite venue',
    scope: 'shared',
    owner: 'human:alice',
  });
  const dropped = await me.commitments.add({
    body: 'Draft the Q3 memo',
    scope: 'shared',
    owner: 'human:alice',
  });
  clock.advance(1000);
  await person.commitments.update({ id: done.id, status: 'doing' });
  clock.advance(1000);
  await person.commitments.update({ id: done.id, status: 'done' });
  await person.commitments.update({ id: dropped.id, status: 'cancelled' });

  await me.summaries.create({ name: 'notes', scope: 'project:notes' });
  await me.remember({ scope: 'project:notes', body: 'The wiki moved to the new host.' });
  clock.advance(1000);
  const w1 = await me.summaries.next({ chain: 'notes' });
  await me.summaries.add({ chain: 'notes', until: w1.until!, body: 'Summary: the wiki moved.' });
  clock.advance(1000);
  await me.remember({ scope: 'project:notes', body: 'Backups now run nightly.' });
  clock.advance(1000);
  const w2 = await me.summaries.next({ chain: 'notes' });
  await me.summaries.add({ chain: 'notes', until: w2.until!, body: 'Summary: nightly backups.' });
  return { d3: d3.id };
}

/** What the console and the CLI read of a home's plans, through the same verbs. */
export async function listings(ledger: Ledger) {
  const me = ledger.as(ledger.operator(), { surface: 'library' });
  const behaviors = await me.behaviors.list();
  const runs = await Promise.all(behaviors.map((b) => me.behaviors.runs(b.name)));
  const commitments = await me.commitments.list({ statuses: [...ALL] });
  const moves = await Promise.all(commitments.map(async (c) => (await me.commitments.get(c.id)).changes));
  const chains = await me.summaries.list();
  const shown = await Promise.all(chains.map((c) => me.summaries.show(c.name)));
  return { behaviors, runs, commitments, moves, chains, shown };
}

export async function exported(ledger: Ledger): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of ledger.as(ledger.operator()).export()) lines.push(line);
  return lines;
}

const typeOf = (line: string): string => (JSON.parse(line) as { type: string }).type;

export function restorePlanCases(factory: ConformanceFactory): void {
  describe('I7 a restore carries a home’s plans', () => {
    test('I7 only humans judge: a restore carries behaviors, commitments (with who moved them) and summary chains; the target lists what the source lists, acts the same, and a second restore lands nothing twice', async () => {
      const clock = manualClock('2030-05-01T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger: source }) => {
          const { d3 } = await furnish(source, clock);
          const before = await listings(source);
          assert.deepEqual(
            before.behaviors.map((b) => [b.name, b.version, b.disabledAt !== null]),
            [
              ['digest', 2, false],
              ['weekly', 1, true],
            ],
          );
          assert.deepEqual(before.commitments.map((c) => c.status).sort(), ['cancelled', 'done', 'open']);
          assert.deepEqual(before.runs[0]!.map((r) => r.state).sort(), ['failed', 'finished']);
          assert.equal(before.shown[0]!.links.length, 2);
          const file = await exported(source);
          const counts = new Map<string, number>();
          for (const l of file) counts.set(typeOf(l), (counts.get(typeOf(l)) ?? 0) + 1);
          assert.deepEqual(
            ['commitment', 'chain', 'summary', 'behavior', 'fire', 'run'].map((t) => counts.get(t)),
            [3, 1, 2, 2, 1, 2],
          );
          // The secret half of a run's token never leaves its home.
          for (const l of file.filter((x) => typeOf(x) === 'run'))
            assert.equal('nonce' in JSON.parse(l).run, false);

          await withHome(
            factory,
            async ({ ledger: target }) => {
              const admin = target.as(target.operator());
              const result = await admin.import(linesOf(file), { mode: 'restore', file: 'home.jsonl' });
              assert.deepEqual(result.failed, []);
              assert.deepEqual(await listings(target), before, 'the target lists what the source lists');
              const plans = (lines: string[]) => lines.filter((l) => PLANS.includes(typeOf(l)));
              assert.deepEqual(
                plans(await exported(target)),
                plans(file),
                'exported again, the plans are the same',
              );
              const person = (await admin.commitments.list({ statuses: ['done'] }))[0]!;
              assert.equal(person.statusBy, 'human:alice', 'who moved it is kept');
              const moved = await admin.commitments.get(person.id);
              assert.deepEqual(
                moved.changes.map((c) => [c.from, c.to, c.by]),
                [
                  ['open', 'doing', 'human:alice'],
                  ['doing', 'done', 'human:alice'],
                ],
              );

              const counted = await storeCounts(target);
              const again = await admin.import(linesOf(file), { mode: 'restore', file: 'home.jsonl' });
              assert.deepEqual(again.failed, []);
              assert.equal(again.imported, 0, 'a second restore lands nothing');
              assert.deepEqual(await storeCounts(target), counted);
              assert.deepEqual(await listings(target), before, 'no duplicates after restoring twice');

              // Acts the same: the fired window does not fire again, what the finished run consumed stays
              // consumed, the failed run's window is outstanding on both, the disabled behavior stays disabled.
              const bot = (l: Ledger) => l.as(runner, { surface: 'library' });
              assert.deepEqual(
                (await admin.behaviors.tick()).fired,
                [],
                'a restored window is fired already',
              );
              const there = await bot(source).behaviors.next('digest');
              const here = await bot(target).behaviors.next('digest');
              assert.deepEqual(
                here!.events.map((e) => e.memory.id),
                [d3],
              );
              assert.deepEqual(
                here!.events.map((e) => e.memory.id),
                there!.events.map((e) => e.memory.id),
              );
              await expectError(bot(target).behaviors.next('weekly'), 'conflict', 'a disabled behavior');
            },
            { now: clock.now },
          );
        },
        { now: clock.now },
      );
    });

    test('I7 only humans judge: a plain import refuses every plan line by its number and a non-admin cannot restore them; the control memory line lands', async () => {
      const clock = manualClock('2030-05-02T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger: source }) => {
          await furnish(source, clock);
          const plans = (await exported(source)).filter((l) => PLANS.includes(typeOf(l)));
          const control = JSON.stringify({ body: 'Control: the plain line lands', scope: 'shared' });
          const file = [control, ...plans];
          await withHome(factory, async ({ ledger: target }) => {
            const importer = target.as(target.operator());
            const result = await importer.import(linesOf(file));
            assert.equal(result.imported, 1, 'the control line lands');
            assert.deepEqual(
              result.failed.map((f) => [f.line, f.class]),
              plans.map((_, i) => [i + 2, 'permission']),
            );
            for (const f of result.failed) assert.match(f.message, /only a human admin's restore/);
            const reviewer = target.as(
              principal('human', 'rev', { roles: ['reader', 'writer', 'reviewer'] }),
            );
            await expectError(reviewer.import(linesOf(file), { mode: 'restore' }), 'permission');
            const after = await listings(target);
            assert.deepEqual(
              [after.behaviors, after.commitments, after.chains],
              [[], [], []],
              'no behavior, commitment row or chain came in',
            );
            assert.deepEqual(
              (await importer.list({ scopes: ['shared'] })).map((m) => m.body),
              ['Control: the plain line lands'],
            );
          });
        },
        { now: clock.now },
      );
    });

    test('I7 only humans judge: hostile plan lines in a restore (an unknown field; a memory, chain or behavior neither in the file nor the home; a definition that fails validation or carries a credential) fail with invalid_input by line number, and the rest of the restore lands', async () => {
      const clock = manualClock('2030-05-03T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger: source }) => {
          await furnish(source, clock);
          const file = await exported(source);
          const first = (type: string) => JSON.parse(file.find((l) => typeOf(l) === type)!);
          const extra = first('commitment');
          extra.commitment.note = 'an unknown field';
          const stranger = first('commitment');
          stranger.commitment.memoryId = 'mem_0000000000000000000000';
          const broken = first('behavior');
          broken.behavior.name = 'broken';
          for (const v of broken.behavior.versions) {
            v.definition = { ...v.definition, name: 'broken', triggers: [{ type: 'sometimes' }] };
          }
          const orphan = first('summary');
          orphan.summary.chain = 'no-such-chain';
          const stray = first('run');
          stray.run.id = 'run_0000000000000000000000';
          stray.run.behavior = 'no-such-behavior';
          // I10: a credential planted in a definition's prompt is refused like one in a memory.
          const planted = first('behavior');
          planted.behavior.name = 'planted';
          for (const v of planted.behavior.versions) {
            const prompt = `Use ghp${'_'}Tq7vW2xY9zA4bC6dE8fG1hJ3kL5mN0pR2sT4`;
            v.definition = { ...v.definition, name: 'planted', prompt };
          }
          const hostile = [extra, stranger, broken, orphan, stray, planted].map((d) => JSON.stringify(d));
          await withHome(
            factory,
            async ({ ledger: target }) => {
              const admin = target.as(target.operator());
              const result = await admin.import(linesOf([...file, ...hostile]), { mode: 'restore' });
              assert.deepEqual(
                result.failed.map((f) => [f.line, f.class]),
                hostile.map((_, i) => [file.length + i + 1, 'invalid_input']),
              );
              for (const f of result.failed) assert.doesNotMatch(f.message, /Acme|offsite|wiki|Fridays/);
              const after = await listings(target);
              assert.deepEqual(after, await listings(source), 'the good lines all landed');
              assert.deepEqual(
                after.behaviors.map((b) => b.name),
                ['digest', 'weekly'],
                'neither the broken nor the planted behavior came in',
              );
              assert.match(result.failed.at(-1)!.message, /credential/);
              assert.doesNotMatch(JSON.stringify(result.failed), /Tq7vW2xY9z/);
            },
            { now: clock.now },
          );
        },
        { now: clock.now },
      );
    });

    test('I7 only humans judge: a behavior or chain line right after memory lines of its batch lands (a store that holds a batch back writes it first)', async () => {
      const clock = manualClock('2030-05-04T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger: source }) => {
          await furnish(source, clock);
          const file = await exported(source);
          const of = (type: string) => file.filter((l) => typeOf(l) === type);
          const memories = of('memory');
          const rest = file.filter((l) => !['header', 'memory', 'behavior', 'chain'].includes(typeOf(l)));
          const reordered = [
            file[0]!,
            ...memories.slice(0, -1),
            ...of('behavior'),
            memories.at(-1)!,
            ...of('chain'),
            ...rest,
          ];
          await withHome(
            factory,
            async ({ ledger: target }) => {
              const result = await target
                .as(target.operator())
                .import(linesOf(reordered), { mode: 'restore' });
              assert.deepEqual(result.failed, []);
              assert.deepEqual(await listings(target), await listings(source));
            },
            { now: clock.now },
          );
        },
        { now: clock.now },
      );
    });

    test('I7 only humans judge: a run leased when its home was exported is restored with a token nobody holds; the source’s token completes nothing here, and the lease expires like any unfinished one', async () => {
      const clock = manualClock('2030-05-05T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger: source }) => {
          const me = source.as(source.operator(), { surface: 'library' });
          await me.behaviors.add(definition('digest'));
          const d = await me.remember({ scope: 'shared', kind: 'decision', body: 'Releases are tagged.' });
          clock.advance(1000);
          const bot = (l: Ledger) => l.as(runner, { surface: 'library' });
          const w = await bot(source).behaviors.next('digest');
          const file = await exported(source);
          await withHome(
            factory,
            async ({ ledger: target }) => {
              const restored = await target.as(target.operator()).import(linesOf(file), { mode: 'restore' });
              assert.deepEqual(restored.failed, []);
              await expectError(
                bot(target).behaviors.complete({ run: w!.run, token: w!.token }),
                'permission',
                'the other home’s token',
              );
              assert.equal(await bot(target).behaviors.next('digest'), null, 'the lease holds its window');
              const there = await bot(source).behaviors.complete({ run: w!.run, token: w!.token });
              assert.equal(there.consumed, 1, 'control: the token completes the run in its own home');
              clock.advance(61_000);
              const here = await bot(target).behaviors.next('digest');
              assert.deepEqual(
                here!.events.map((e) => e.memory.id),
                [d.id],
                'the expired lease linked nothing',
              );
            },
            { now: clock.now },
          );
        },
        { now: clock.now },
      );
    });

    test('I7 only humans judge: a memledger/v2 export (no plan lines) still restores whole', async () => {
      const clock = manualClock('2030-05-06T09:00:00.000Z');
      await withHome(
        factory,
        async ({ ledger: source }) => {
          await furnish(source, clock);
          const [header, ...rest] = await exported(source);
          const v2 = [
            JSON.stringify({ ...JSON.parse(header!), format: 'memledger/v2' }),
            ...rest.filter((l) => ['memory', 'rejection', 'claim', 'erasure'].includes(typeOf(l))),
          ];
          await withHome(
            factory,
            async ({ ledger: target }) => {
              const result = await target.as(target.operator()).import(linesOf(v2), { mode: 'restore' });
              assert.deepEqual(result.failed, []);
              assert.deepEqual(await storeCounts(target), await storeCounts(source));
              const after = await listings(target);
              assert.deepEqual([after.behaviors, after.commitments, after.chains], [[], [], []]);
            },
            { now: clock.now },
          );
        },
        { now: clock.now },
      );
    });
  });
}
