/** I4 scope: isolation in both directions on every read path, with each principal's own memory present as control. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Ledger, LedgerSession } from '../../../src/index.ts';
import { newId } from '../../../src/model/ids.ts';
import { type ConformanceFactory, type ConformanceHome, withHome } from '../harness.ts';
import { buildPolicy, expectError, exportAll, manualClock, principal, storeCounts } from '../helpers.ts';
import { writeOnlyCases } from './i04-write-only.ts';

/** Agents a and b see only agent:<self> and user:<self>; their writes land in agent:<self> and are held in user:<self>. */
const ISOLATED = buildPolicy({
  principals: {
    'agent:a': { roles: ['reader', 'writer'], grants: ['agent:a:rw', 'user:a:rw'] },
    'agent:b': { roles: ['reader', 'writer'], grants: ['agent:b:rw', 'user:b:rw'] },
  },
  rules: [
    { name: 'own-scope', when: { principal: 'agent:*', scope: 'agent:{self}' }, action: 'allow' },
    { name: 'user-scope-held', when: { principal: 'agent:*', scope: 'user:*' }, action: 'hold' },
  ],
  default: 'allow',
});

interface Side {
  name: 'a' | 'b';
  agent: LedgerSession;
  /** A human reviewer whose grants cover only this side's scopes. */
  reviewer: LedgerSession;
  active: string;
  held: string;
}

async function twoSides(ledger: Ledger): Promise<[Side, Side]> {
  const make = async (name: 'a' | 'b'): Promise<Side> => {
    const agent = ledger.as(ledger.principal(`agent:${name}`), { surface: 'library', sessionId: name });
    const reviewer = ledger.as(
      principal('human', `reviewer-${name}`, {
        roles: ['reader', 'writer', 'reviewer'],
        grants: [`agent:${name}:rw`, `user:${name}:rw`],
      }),
    );
    const active = await agent.remember({
      body: `Wombat sighting logged by ${name}`,
      scope: `agent:${name}`,
    });
    const held = await agent.remember({ body: `Wombat habitat proposed by ${name}`, scope: `user:${name}` });
    assert.equal(active.state, 'active');
    assert.equal(held.state, 'held');
    return { name, agent, reviewer, active: active.id, held: held.id };
  };
  return [await make('a'), await make('b')];
}

const bothWays = (a: Side, b: Side): [Side, Side][] => [
  [a, b],
  [b, a],
];

/** Registers one test per read path; each runs both directions on one home. */
function isolationTest(
  factory: ConformanceFactory,
  name: string,
  check: (me: Side, other: Side, h: ConformanceHome) => Promise<void>,
): void {
  test(`I4 scope: ${name}`, () =>
    withHome(
      factory,
      async (h) => {
        const [a, b] = await twoSides(h.ledger);
        for (const [me, other] of bothWays(a, b)) await check(me, other, h);
      },
      { policy: ISOLATED },
    ));
}

/**
 * The oracle: agent:solo reads its own scope alone (a search inside one scope), agent:crew reads `project:*`
 * over twelve projects, most of the home's scopes (a search over many); neither reads shared, agent:other or
 * user:zed. Operators write everywhere.
 */
const ORACLE = buildPolicy({
  principals: {
    'agent:solo': { roles: ['reader', 'writer'], grants: ['agent:solo:rw'] },
    'agent:crew': { roles: ['reader'], grants: ['project:*:r'] },
  },
  default: 'allow',
});
const PROJECTS = Array.from({ length: 12 }, (_, i) => `project:p${i}`);
const QUERY = 'wombat burrow grass depth';
const HOUR = 3_600_000;

/** Own memories of varied length and word counts, one version of each keyed one superseded (history). */
async function oracleHome(ledger: Ledger, clock: ReturnType<typeof manualClock>): Promise<string> {
  const op = ledger.as(ledger.operator());
  const solo = ledger.as(ledger.principal('agent:solo'));
  const bodies = [
    'Wombat burrow found near the creek',
    'The wombat ate grass at dusk, then more grass',
    'Burrow depth was two metres, the deepest burrow this year',
    'A wombat, a burrow, some grass and a depth gauge left by the survey team after a long and windy day',
    'Fence repaired on the north side',
  ];
  for (const [i, body] of bodies.entries()) {
    await solo.remember({ body, scope: 'agent:solo', ...(i === 0 ? { key: 'burrow.site' } : {}) });
    await op.remember({ body: `${body} (${PROJECTS[i]})`, scope: PROJECTS[i]! });
  }
  for (const p of PROJECTS.slice(bodies.length)) await op.remember({ body: 'Wombat seen once', scope: p });
  clock.advance(HOUR);
  const believed = clock.now();
  clock.advance(HOUR);
  // A new version: the first one is history now, which an as-of read before this moment still finds.
  await solo.remember({ body: 'Wombat burrow moved uphill', scope: 'agent:solo', key: 'burrow.site' });
  await op.remember({ body: 'Burrow depth revised to three metres', scope: 'project:p1', key: 'burrow.p1' });
  await op.remember({ body: 'Burrow depth revised to four metres', scope: 'project:p1', key: 'burrow.p1' });
  clock.advance(HOUR);
  return believed;
}

/** Everything a caller sees of its searches: hits in order, each with its memory, score and why. */
async function oracleView(ledger: Ledger, believed: string) {
  const solo = ledger.as(ledger.principal('agent:solo'));
  const crew = ledger.as(ledger.principal('agent:crew'));
  return {
    solo: (await solo.search({ query: QUERY })).hits,
    soloAsOf: (await solo.search({ query: QUERY, asOf: believed })).hits,
    soloOneWord: (await solo.search({ query: 'wombat', limit: 3 })).hits,
    crew: (await crew.search({ query: QUERY })).hits,
    crewAsOf: (await crew.search({ query: QUERY, asOf: believed })).hits,
  };
}

/** What an oracle writes where the agents cannot read: the query's words, often and rarely, long and short. */
async function writeElsewhere(ledger: Ledger): Promise<void> {
  const op = ledger.as(ledger.operator());
  const long = Array.from({ length: 40 }, (_, i) => `filler${i} word`).join(' ');
  for (const scope of ['shared', 'agent:other', 'user:zed']) {
    for (let i = 0; i < 8; i++) {
      await op.remember({ body: `wombat wombat wombat burrow note ${i}`, scope });
      await op.remember({ body: `grass ${long}`, scope });
      await op.remember({ body: `Depth ${i} of a wombat burrow in grass`, scope, key: `depth.${i}` });
      await op.remember({ body: `Depth ${i} revised for the wombat`, scope, key: `depth.${i}` });
      await op.remember({ body: `Nothing about those animals, entry ${i}`, scope });
    }
    const gone = await op.remember({ body: 'wombat burrow retracted here', scope });
    await op.retract({ id: gone.id, reason: 'oracle' });
    await op.remember({ body: 'wombat about a person', scope, subjects: ['person:oracle@example.com'] });
  }
  await op.erase({ subject: 'person:oracle@example.com' });
}

export function scopeCases(factory: ConformanceFactory): void {
  describe('I4 scope', () => {
    test('I4 scope: an agent’s search scores and order do not change when a word appears in a scope it cannot read', () => {
      const clock = manualClock('2033-03-01T09:00:00.000Z');
      return withHome(
        factory,
        async ({ ledger }) => {
          const believed = await oracleHome(ledger, clock);
          const before = await oracleView(ledger, believed);
          // The searches find something in each shape: one scope, many scopes, as of before the new version.
          for (const [name, hits] of Object.entries(before)) assert.ok(hits.length >= 2, name);
          assert.ok(
            before.soloAsOf.some((h) => h.memory.state === 'superseded'),
            'as-of reads history',
          );

          await writeElsewhere(ledger);
          assert.deepEqual(await oracleView(ledger, believed), before);

          // Control: the same kind of write into a scope the agents read does move their scores, so the
          // comparison above would have caught a dependence.
          const op = ledger.as(ledger.operator());
          await op.remember({ body: 'wombat wombat grass note', scope: 'agent:solo' });
          await op.remember({ body: 'wombat wombat grass note', scope: 'project:p3' });
          const after = await oracleView(ledger, believed);
          const scores = (hits: { memory: { id: string }; score: number }[]) =>
            hits.map((h) => [h.memory.id, h.score]);
          for (const name of Object.keys(before) as (keyof typeof before)[]) {
            assert.notDeepEqual(scores(after[name]), scores(before[name]), name);
          }
        },
        { policy: ORACLE, now: clock.now },
      );
    });

    isolationTest(
      factory,
      'search finds only the caller’s memories, in both directions',
      async (me, other) => {
        const ids = (await me.agent.search({ query: 'wombat sighting habitat' })).hits.map(
          (h) => h.memory.id,
        );
        assert.ok(ids.includes(me.active), `${me.name} finds its own memory`);
        assert.ok(!ids.includes(other.active), `${me.name} does not find ${other.name}'s`);
        await expectError(
          me.agent.search({ query: 'wombat', scopes: [`agent:${other.name}`] }),
          'permission',
        );
      },
    );

    isolationTest(
      factory,
      'get of another scope’s id is not_found, exactly like an id that never existed',
      async (me, other) => {
        assert.equal((await me.agent.get(me.active)).id, me.active);
        const foreign = await expectError(me.agent.get(other.active), 'not_found');
        const missingId = newId('mem');
        const missing = await expectError(me.agent.get(missingId), 'not_found');
        assert.equal(foreign.message.replace(other.active, 'ID'), missing.message.replace(missingId, 'ID'));
        assert.ok(!foreign.message.includes('Wombat'));
      },
    );

    isolationTest(factory, 'history of another scope’s id is not_found', async (me, other) => {
      assert.ok((await me.agent.history(me.active)).versions.some((v) => v.id === me.active));
      await expectError(me.agent.history(other.active), 'not_found');
      await expectError(me.agent.history(other.held), 'not_found');
    });

    isolationTest(factory, 'list returns only the caller’s scopes, in every state', async (me, other) => {
      const active = (await me.agent.list()).map((m) => m.id);
      assert.ok(active.includes(me.active));
      assert.ok(!active.includes(other.active));
      const all = (await me.agent.list({ states: ['held', 'active'] })).map((m) => m.id);
      assert.ok(all.includes(me.held));
      assert.ok(!all.includes(other.held));
      await expectError(me.agent.list({ scopes: [`user:${other.name}`] }), 'permission');
    });

    isolationTest(
      factory,
      'list before another scope’s id is not_found, exactly like an id that never existed',
      async (me, other) => {
        const newer = await me.agent.remember({
          body: `Wombat later by ${me.name}`,
          scope: `agent:${me.name}`,
        });
        // Control: a cursor the caller may read pages on to what is older than it.
        const page = (await me.agent.list({ before: newer.id })).map((m) => m.id);
        assert.ok(page.includes(me.active) && !page.includes(newer.id), 'own cursor pages on');
        const missingId = newId('mem');
        const missing = await expectError(me.agent.list({ before: missingId }), 'not_found', 'unknown');
        for (const foreignId of [other.active, other.held]) {
          const foreign = await expectError(me.agent.list({ before: foreignId }), 'not_found', foreignId);
          assert.equal(foreign.message.replace(foreignId, 'ID'), missing.message.replace(missingId, 'ID'));
          assert.deepEqual(foreign.details, missing.details);
          await expectError(
            me.agent.list({ before: foreignId, states: ['active', 'held'] }),
            'not_found',
            'with states',
          );
        }
        await expectError(me.agent.list({ before: 'mem_../../etc' }), 'invalid_input');
      },
    );

    test('I4 scope: an agent sees only corrections of its own writes; naming another agent answers like naming none', () =>
      withHome(
        factory,
        async ({ ledger }) => {
          const op = ledger.as(ledger.operator());
          const agents = {
            a: ledger.as(ledger.principal('agent:a')),
            b: ledger.as(ledger.principal('agent:b')),
          };
          for (const name of ['a', 'b'] as const) {
            const held = await agents[name].remember({
              body: `Wombats of ${name} sleep at noon`,
              scope: 'shared',
            });
            assert.equal(held.state, 'held');
            await op.reject({ id: held.id, reason: `wrong for ${name}` });
          }
          for (const [me, other] of [
            ['a', 'b'],
            ['b', 'a'],
          ] as const) {
            const own = await agents[me].corrections();
            assert.deepEqual(
              own.map((c) => [c.agent, c.reason]),
              [[`agent:${me}`, `wrong for ${me}`]],
              `control: ${me} sees its own correction`,
            );
            assert.deepEqual(await agents[me].corrections({ agent: `agent:${me}` }), own);
            const foreign = await agents[me].corrections({ agent: `agent:${other}` });
            const nobody = await agents[me].corrections({ agent: 'agent:nobody' });
            assert.deepEqual(foreign, [], `${me} gets nothing of ${other}'s`);
            assert.deepEqual(foreign, nobody, 'another agent answers like one that never wrote');
          }
          // A person with the reviewer role, reading shared, sees every agent's, and one agent's on request.
          const rita = ledger.as(
            principal('human', 'rita', { roles: ['reader', 'reviewer'], grants: ['shared:r'] }),
          );
          assert.deepEqual((await rita.corrections()).map((c) => c.agent).sort(), ['agent:a', 'agent:b']);
          assert.deepEqual(
            (await rita.corrections({ agent: 'agent:b' })).map((c) => c.agent),
            ['agent:b'],
          );
        },
        {
          policy: buildPolicy({
            principals: {
              'agent:a': { roles: ['reader', 'writer'], grants: ['agent:a:rw', 'shared:rw'] },
              'agent:b': { roles: ['reader', 'writer'], grants: ['agent:b:rw', 'shared:rw'] },
            },
            rules: [{ name: 'agents-held', when: { principal: 'agent:*' }, action: 'hold' }],
            default: 'allow',
          }),
        },
      ));

    isolationTest(factory, 'export yields only the caller’s memories', async (me, other) => {
      const ids = (await exportAll(me.agent)).flatMap((l) => (l.memory === undefined ? [] : [l.memory.id]));
      assert.ok(ids.includes(me.active) && ids.includes(me.held), `${me.name} exports its own`);
      assert.ok(!ids.includes(other.active) && !ids.includes(other.held), `nothing of ${other.name}`);
    });

    isolationTest(
      factory,
      'the review queue shows a reviewer only held writes in their scopes',
      async (me, other) => {
        const queue = (await me.reviewer.reviewList()).map((m) => m.id);
        assert.ok(queue.includes(me.held));
        assert.ok(!queue.includes(other.held));
        await expectError(me.reviewer.approve({ id: other.held }), 'not_found');
        await expectError(me.reviewer.reject({ id: other.held, reason: 'not yours' }), 'not_found');
      },
    );

    isolationTest(
      factory,
      'retract and supersede cannot reach another scope’s memory',
      async (me, other, h) => {
        const counts = await storeCounts(h.ledger);
        await expectError(me.agent.retract({ id: other.active, reason: 'reach across' }), 'not_found');
        await expectError(
          me.agent.remember({
            body: 'Overwrite across scopes',
            scope: `agent:${me.name}`,
            supersedes: other.active,
          }),
          'not_found',
        );
        await expectError(
          me.agent.remember({
            body: 'Overwrite across scopes',
            scope: `agent:${other.name}`,
            supersedes: other.active,
          }),
          'permission',
        );
        assert.deepEqual(await storeCounts(h.ledger), counts);
        const target = await h.ledger.as(h.ledger.operator()).get(other.active);
        assert.equal(target.state, 'active');
      },
    );

    isolationTest(
      factory,
      'a write to an ungranted scope is permission and writes nothing',
      async (me, other, h) => {
        const counts = await storeCounts(h.ledger);
        for (const scope of [`agent:${other.name}`, `user:${other.name}`, 'shared', 'project:x']) {
          await expectError(me.agent.remember({ body: 'Wombat trespass', scope }), 'permission', scope);
        }
        assert.deepEqual(await storeCounts(h.ledger), counts);
        // Control: the same write in the caller's own scope lands.
        const own = await me.agent.remember({ body: 'Wombat at home', scope: `agent:${me.name}` });
        assert.equal(own.state, 'active');
      },
    );

    writeOnlyCases(factory);
  });
}
