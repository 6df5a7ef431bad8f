/**
 * A small conversational home for the retrieval tests: two chat sessions about one flaky test at different
 * dates, a question and its answer, content-free turns, and ordinary statements. `observe` reduces what search
 * and context return to plain data, so SQLite and Postgres can be compared with one deepEqual.
 */
import type { Ledger } from '../../src/index.ts';

export const REFERENCE = '2025-09-30T17:00:00.000Z';

/** A clock the writes move: each memory is recorded at its own time. */
export function fixtureClock(): { now: () => string; set(t: string): void } {
  let t = '2025-01-01T00:00:00.000Z';
  return {
    now: () => t,
    set: (next) => {
      t = next;
    },
  };
}

/** Unrelated statements, so a test's words weigh as in a home rather than as in its two or three memories. */
export const UNRELATED = [
  'Invoices go out on the first of the month',
  'The design review is on Thursdays',
  'Priya owns the release checklist',
  'Backups run every night at two',
  'The staging database was resized in May',
  'Noah prefers squash merges',
  'Support answers within four hours',
  'The marketing site runs on a static host',
];

/** `at(time, body, scope?)`: `me` remembers an episode recorded at `time` (the clock is left there). */
export function recordAt(
  clock: ReturnType<typeof fixtureClock>,
  me: { remember(input: { body: string; scope: string; kind: 'episode' }): Promise<{ id: string }> },
) {
  return async (time: string, body: string, scope = 'shared') => {
    clock.set(time);
    return me.remember({ body, scope, kind: 'episode' });
  };
}

/** [label, session (or null), recorded, body] */
const TURNS: [string, string | null, string, string][] = [
  [
    'july',
    null,
    '2025-07-09T14:20:00.000Z',
    'The wombat checkout test failure in July came from a slow payment iframe.',
  ],
  ['ask', 'conv-aug', '2025-08-14T09:45:00.000Z', 'Priya: why does the wombat checkout test keep failing?'],
  [
    'answer',
    'conv-aug',
    '2025-08-14T09:48:00.000Z',
    'Noah: the coupon mock shared state between workers, so each worker gets its own port now.',
  ],
  ['thanks', 'conv-aug', '2025-08-14T09:51:00.000Z', 'Priya: thanks!'],
  [
    'sep',
    'conv-sep',
    '2025-09-18T16:30:00.000Z',
    'Priya: the wombat checkout test failed on main again today.',
  ],
  [
    'sep-fix',
    'conv-sep',
    '2025-09-18T16:33:00.000Z',
    'Amara: a rounding bug in the tax line, fixed in the price formatter.',
  ],
  [
    'pref-1',
    null,
    '2025-03-01T10:00:00.000Z',
    'Priya prefers squash merges and a short test plan on each pull request.',
  ],
  [
    'pref-2',
    null,
    '2025-03-02T10:00:00.000Z',
    'Priya reviews pull requests on Tuesday and Thursday mornings.',
  ],
  ['pref-3', null, '2025-03-03T10:00:00.000Z', 'Priya owns the release checklist for the web console.'],
  ...[
    'ok',
    'bye!',
    'yes',
    'sounds good',
    'great, thanks',
    'cool',
    'np',
    'lol',
    'perfect',
    'noted',
    'sure',
    'yep',
  ].map((said, i): [string, string | null, string, string] => [
    `chatter-${i}`,
    'conv-chatter',
    `2025-09-${String(10 + i).padStart(2, '0')}T12:00:00.000Z`,
    `Priya: ${said}`,
  ]),
];

/** Writes the fixture as a human with every grant, each turn in its session; returns label → id. */
export async function writeFixture(
  ledger: Ledger,
  clock: { set(t: string): void },
): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const [label, session, recorded, body] of TURNS) {
    clock.set(recorded);
    const writer = ledger.as(ledger.operator(), {
      surface: 'library',
      sessionId: session ?? `solo-${label}`,
    });
    ids.set(label, (await writer.remember({ body, scope: 'shared' })).id);
  }
  clock.set(REFERENCE);
  return ids;
}

export const QUERIES = [
  'why does the wombat checkout test keep failing',
  'what was wrong with the wombat checkout test last month',
  'wombat checkout test in July',
  'Priya',
];

/** What search (with neighbours) and context answer for each query, in labels, with why's shape and time. */
export async function observe(ledger: Ledger, ids: Map<string, string>) {
  const labels = new Map([...ids].map(([l, id]) => [id, l]));
  const label = (id: string | undefined) => (id === undefined ? null : (labels.get(id) ?? '?'));
  const me = ledger.as(ledger.operator(), { surface: 'library' });
  const out = [];
  for (const query of QUERIES) {
    const found = await me.search({ query, neighbours: true, limit: 10 });
    // A budget nothing reaches: ids are random and their token counts differ, so a tight budget would cut the
    // block at a different item on each side by chance, not by ranking.
    const context = await me.context({ task: query, budget: 4000 });
    out.push({
      query,
      terms: found.terms,
      time: found.time ?? null,
      hits: found.hits.map((h) => ({
        label: label(h.memory.id),
        shape: h.why.shape ?? null,
        time: h.why.time?.match ?? null,
        before: label(h.neighbours?.before?.id),
        after: label(h.neighbours?.after?.id),
      })),
      context: context.items.map((i) => [
        label(i.memory.id),
        i.why.replace(/mem_\w+/g, 'ID').replace(/score [\d.]+/, 'score'),
      ]),
      tokens: context.tokens <= 600,
    });
  }
  return out;
}
