/** The time resolver on a table of expressions, against a fixed reference time (a Tuesday evening, UTC). */
import assert from 'node:assert/strict';
import { describe, it, test } from 'node:test';
import { OPEN_END, OPEN_START, overlaps, resolveQueryTime } from '../../src/ledger/query-time.ts';
import { eventReference } from '../../src/ledger/search-event.ts';

const REF = '2025-09-30T17:00:00Z'; // Tuesday
const day = (d: string) => `${d}T00:00:00.000Z`;

/** [query, expression, from, to, text left to search: relative words dropped, calendar names kept] */
const TABLE: [string, string, string, string, string][] = [
  ['what broke yesterday', 'yesterday', day('2025-09-29'), day('2025-09-30'), 'what broke'],
  ['deploys today', 'today', day('2025-09-30'), day('2025-10-01'), 'deploys'],
  [
    'notes from the day before yesterday',
    'the day before yesterday',
    day('2025-09-28'),
    day('2025-09-29'),
    'notes from',
  ],
  ['retro action items last week', 'last week', day('2025-09-22'), day('2025-09-29'), 'retro action items'],
  ['what changed this week', 'this week', day('2025-09-29'), day('2025-10-06'), 'what changed'],
  ['checkout test last month', 'last month', day('2025-08-01'), day('2025-09-01'), 'checkout test'],
  ['hires last year', 'last year', day('2024-01-01'), day('2025-01-01'), 'hires'],
  ['the plan this month', 'this month', day('2025-09-01'), day('2025-10-01'), 'the plan'],
  [
    'database choice in April 2022',
    'in April 2022',
    day('2022-04-01'),
    day('2022-05-01'),
    'database choice in April 2022',
  ],
  ['Postgres in April', 'in April', day('2025-04-01'), day('2025-05-01'), 'Postgres in April'],
  ['budget in October', 'in October', day('2024-10-01'), day('2024-11-01'), 'budget in October'],
  ['retro in September', 'in September', day('2025-09-01'), day('2025-10-01'), 'retro in September'],
  ['queue decision in 2022', 'in 2022', day('2022-01-01'), day('2023-01-01'), 'queue decision in 2022'],
  ['Sep 2024 incident', 'Sep 2024', day('2024-09-01'), day('2024-10-01'), 'Sep 2024 incident'],
  [
    'call on March 4, 2025',
    'on March 4, 2025',
    day('2025-03-04'),
    day('2025-03-05'),
    'call on March 4, 2025',
  ],
  ['release on 2025-02-11', 'on 2025-02-11', day('2025-02-11'), day('2025-02-12'), 'release on 2025-02-11'],
  ['what Priya said on Thursday', 'on Thursday', day('2025-09-25'), day('2025-09-26'), 'what Priya said'],
  ['standup on Tuesday', 'on Tuesday', day('2025-09-23'), day('2025-09-24'), 'standup'],
  ['pager last Monday', 'last Monday', day('2025-09-29'), day('2025-09-30'), 'pager'],
  ['escalation three months ago', 'three months ago', day('2025-06-01'), day('2025-07-01'), 'escalation'],
  ['fix two weeks ago', 'two weeks ago', day('2025-09-15'), day('2025-09-22'), 'fix'],
  ['outage 10 days ago', '10 days ago', day('2025-09-20'), day('2025-09-21'), 'outage'],
  [
    'errors in the last 3 days',
    'in the last 3 days',
    '2025-09-27T17:00:00.000Z',
    '2025-09-30T17:00:00.000Z',
    'errors',
  ],
  [
    'tickets over the past week',
    'over the past week',
    '2025-09-23T17:00:00.000Z',
    '2025-09-30T17:00:00.000Z',
    'tickets',
  ],
  ['plan before April 2022', 'before April 2022', OPEN_START, day('2022-04-01'), 'plan before April 2022'],
  ['contacts after March 2025', 'after March 2025', day('2025-04-01'), OPEN_END, 'contacts after March 2025'],
];

describe('query time resolver', () => {
  for (const [query, expression, from, to, text] of TABLE) {
    it(`resolves "${query}"`, () => {
      assert.deepEqual(resolveQueryTime(query, REF), { text, time: { expression, from, to } });
    });
  }

  it('leaves a query without a time expression alone', () => {
    for (const q of [
      'which plan is Acme on',
      'may I mention a client',
      'release 2.4 notes',
      'last two retros',
    ]) {
      assert.deepEqual(resolveQueryTime(q, REF), { text: q, time: null });
    }
  });

  it('does not resolve an event named by another memory ("before the move")', () => {
    assert.equal(resolveQueryTime('device lab before the move', REF).time, null);
  });

  it('keeps the whole query as text when the expression is all there is', () => {
    const r = resolveQueryTime('yesterday', REF);
    assert.equal(r.text, 'yesterday');
    assert.equal(r.time?.from, day('2025-09-29'));
  });

  it('refuses an impossible date rather than rolling it over', () => {
    assert.equal(resolveQueryTime('on February 30, 2025', REF).time, null);
  });

  it('names no time for zero units or a month with a number no year pattern took', () => {
    for (const q of ['deploys in the last 0 days', 'deploys 0 weeks ago', 'deploys in April 99999']) {
      assert.deepEqual(resolveQueryTime(q, REF), { text: q, time: null }, q);
    }
    // Controls: one unit, and the month alone or with its year.
    assert.equal(resolveQueryTime('deploys in the last 1 days', REF).time?.from, '2025-09-29T17:00:00.000Z');
    assert.equal(resolveQueryTime('deploys in April, then', REF).time?.expression, 'in April');
    assert.equal(resolveQueryTime('deploys in April 2022', REF).time?.from, day('2022-04-01'));
  });

  it('overlaps reads missing ends as open', () => {
    const t = { expression: 'x', from: day('2025-08-01'), to: day('2025-09-01') };
    assert.equal(overlaps(t, day('2025-08-10'), day('2025-08-11')), true);
    assert.equal(overlaps(t, day('2025-09-01'), null), false);
    assert.equal(overlaps(t, null, day('2025-08-02')), true);
    assert.equal(overlaps(t, null, null), true);
  });
});

test('an event reference: "before/after/since" and a determiner, cut where the question goes on; a phrasal verb is none', () => {
  assert.deepEqual(eventReference('what broke the phones after the move'), {
    expression: 'after the move',
    side: 'after',
    event: 'the move',
    rest: 'what broke the phones the move',
  });
  assert.equal(
    eventReference('how many weeks before the marathon did I hurt my calf')?.event,
    'the marathon',
  );
  assert.equal(eventReference('what changed since my promotion')?.side, 'after');
  assert.equal(eventReference('is it ok to ship right before the weekend?')?.event, 'the weekend');
  // Not events: no determiner (a condition or a duration), or "after" inside a verb.
  assert.equal(eventReference('what do I need before merging'), null);
  assert.equal(eventReference('how long before an inactive session expires'), null);
  assert.equal(eventReference('who looks after the frontend interns'), null);
  assert.equal(eventReference('the team was named after the founder'), null);
});
