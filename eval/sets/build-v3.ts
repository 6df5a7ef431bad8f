/**
 * Writes eval/sets/memledger-v3.json: `node eval/sets/build-v3.ts`. A standalone set (not v1 plus more) in the
 * shape of the public conversational-memory benchmarks: one user's chats with an assistant over fourteen months,
 * two friends' chats over eight, and the assistant's own notes, with nine categories of hand-written queries.
 * It was written without looking at how search ranks, to be run once (docs/eval-format.md#memledger-v3).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger, parsePolicy } from '../../src/index.ts';
import { type EvalQueryInput, parseEvalSet } from '../format.ts';
import { EvalClock, loadSet } from '../load.ts';
import {
  ASSISTANT,
  BODIES,
  FRIEND_SESSIONS,
  FRIENDS_SCOPE,
  MAYA_SESSIONS,
  MEMORIES,
  NOTES_SCOPE,
  USER_SCOPE,
} from './v3/memories.ts';
import { NOTES } from './v3/notes.ts';
import { KEYWORD, KNOWLEDGE_UPDATE, PARAPHRASE, PARAPHRASE_NO_OVERLAP, type Q } from './v3/queries-a.ts';
import { FALSE_PREMISE, MULTI_HOP, MULTI_SCOPE, NEXT_TURN, TEMPORAL_REFERENCE } from './v3/queries-b.ts';

const OUT = new URL('./memledger-v3.json', import.meta.url);
/** After every memory: a Monday evening, a few days after the last chat. */
const NOW = '2026-09-28T19:00:00Z';

// The default policy, plus what an assistant that keeps a user's chat history needs: it writes its own turns
// into that user's scope and they land (the chat is the user's record, not an agent's proposal).
const POLICY = {
  version: 1,
  principals: {
    [ASSISTANT]: { roles: ['reader', 'writer'], grants: ['agent:{self}:rw', `${USER_SCOPE}:rw`] },
    'agent:*': { roles: ['reader', 'writer'], grants: ['agent:{self}:rw', 'shared:rw', 'project:*:rw'] },
    'service:*': { roles: ['reader'], grants: ['shared:r'] },
  },
  rules: [
    { name: 'humans-land', when: { principal: 'human:*' }, action: 'allow' },
    { name: 'assistant-chat-turns', when: { principal: ASSISTANT, scope: USER_SCOPE }, action: 'allow' },
    { name: 'agent-own-scope', when: { principal: 'agent:*', scope: 'agent:{self}' }, action: 'allow' },
    { name: 'agent-elsewhere-held', when: { principal: 'agent:*' }, action: 'hold' },
  ],
  ownership: 'hold',
  default: 'hold',
};

const categories: [string, string, Q[]][] = [
  ['keyword', 'kw', KEYWORD],
  ['paraphrase', 'pa', PARAPHRASE],
  ['paraphrase-no-overlap', 'pn', PARAPHRASE_NO_OVERLAP],
  ['knowledge-update', 'ku', KNOWLEDGE_UPDATE],
  ['temporal-reference', 'tr', TEMPORAL_REFERENCE],
  ['next-turn', 'nt', NEXT_TURN],
  ['multi-hop', 'mh', MULTI_HOP],
  ['multi-scope', 'ms', MULTI_SCOPE],
  ['false-premise', 'fp', FALSE_PREMISE],
];
/**
 * Where a query does not say: the two chats. The notes restate chat facts, so a question about what was said
 * reads the chats, and only multi-scope questions (and the knowledge-update ones on the notes, which say so) read
 * the notes too.
 */
const CHAT_SCOPES = [USER_SCOPE, FRIENDS_SCOPE];
const queries: EvalQueryInput[] = categories.flatMap(([category, prefix, list]) =>
  list.map((q, i) => ({
    id: `v3-${prefix}-${String(i + 1).padStart(3, '0')}`,
    category,
    ...(category === 'multi-scope' || q.scopes !== undefined ? {} : { scopes: CHAT_SCOPES }),
    ...q,
  })),
);

const set = {
  name: 'memledger-v3',
  description: `A standalone set in the shape of public conversational-memory benchmarks, written blind to the ranker: one user’s chats with an assistant (${MAYA_SESSIONS.length} sessions, July 2025 to September 2026, ${USER_SCOPE}), two friends’ chats (${FRIEND_SESSIONS.length} sessions, January to August 2026, ${FRIENDS_SCOPE}) and the assistant’s notes (keyed facts and preferences, some superseded, ${NOTES_SCOPE}), with nine query categories. Written and run once.`,
  now: NOW,
  policy: POLICY,
  memories: MEMORIES,
  queries,
};
const parsed = parseEvalSet(JSON.stringify(set), 'memledger-v3.json');
parsePolicy(POLICY, 'memledger-v3 policy');

// What each category promises, checked rather than trusted.
const sessionOf = new Map(parsed.memories.map((m) => [m.id, m.session ?? m.id]));
const scopeOf = new Map(parsed.memories.map((m) => [m.id, m.scope]));
for (const q of parsed.queries) {
  if (q.category === 'false-premise' ? q.expect.length > 0 : q.expect.length === 0)
    throw new Error(`${q.id}: a false premise expects nothing, every other query something`);
  if (q.category === 'multi-hop' && new Set(q.expect.map((l) => sessionOf.get(l))).size < 2)
    throw new Error(`${q.id}: a multi-hop question needs memories from two sessions`);
  if (q.category === 'multi-scope' && !q.expect.some((l) => scopeOf.get(l) !== USER_SCOPE))
    throw new Error(`${q.id}: a multi-scope answer lives outside ${USER_SCOPE}`);
  if (q.category === 'next-turn' && q.expect.some((l) => l.endsWith('-t0')))
    throw new Error(`${q.id}: a next-turn answer is a reply, never a session's first turn`);
}
for (const [category] of categories) {
  const n = parsed.queries.filter((q) => q.category === category).length;
  if (n < 12) throw new Error(`${category} has ${n} queries; at least 12`);
}
if (parsed.memories.some((m) => Date.parse(m.recorded) >= Date.parse(NOW)))
  throw new Error('every memory is recorded before now');

const scratch = mkdtempSync(join(tmpdir(), 'memledger-v3-check-'));
try {
  // paraphrase-no-overlap: the index itself (stopwords dropped, stems) finds no word of the question in its
  // answer. Each answer is written alone into a scratch home and searched for.
  for (const q of parsed.queries.filter((q) => q.category === 'paraphrase-no-overlap')) {
    for (const label of q.expect) {
      const ledger = openLedger({ home: join(scratch, q.id) });
      const session = ledger.as(ledger.principal('human:eval'), { surface: 'library' });
      await session.remember({ body: BODIES.get(label)!, scope: 'shared' });
      const found = await session.search({ query: q.text });
      ledger.close();
      if (found.hits.length > 0)
        throw new Error(`${q.id} shares ${found.hits[0]!.why.matched} with ${label}`);
    }
  }
  // Every memory lands as the set means it: each turn and the newest note of each key active, the notes a later
  // one under the same key replaced superseded (so a knowledge-update query's must-not-find is a real old value).
  const clock = new EvalClock(parsed.memories[0]!.recorded);
  const ledger = openLedger({ home: join(scratch, 'load'), now: clock.now, policy: parsePolicy(POLICY) });
  const loaded = await loadSet(ledger, clock, parsed);
  const reader = ledger.as(ledger.principal('human:eval'), { surface: 'library' });
  const newest = new Map(NOTES.map((n) => [n.key, n.id]));
  for (const m of parsed.memories) {
    const { state } = await reader.get(loaded.ids.get(m.id)!);
    const want = m.scope === NOTES_SCOPE && newest.get(m.key!) !== m.id ? 'superseded' : 'active';
    if (state !== want) throw new Error(`${m.id} is ${state} after loading, not ${want}`);
  }
  ledger.close();
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const lines = (items: unknown[]): string => items.map((i) => `    ${JSON.stringify(i)}`).join(',\n');
writeFileSync(
  OUT,
  `{
  "name": ${JSON.stringify(set.name)},
  "description": ${JSON.stringify(set.description)},
  "now": ${JSON.stringify(set.now)},
  "policy": ${JSON.stringify(set.policy)},
  "memories": [
${lines(set.memories)}
  ],
  "queries": [
${lines(set.queries)}
  ]
}
`,
);
const byCategory: Record<string, number> = {};
for (const q of set.queries) byCategory[q.category] = (byCategory[q.category] ?? 0) + 1;
const byScope: Record<string, number> = {};
for (const m of set.memories) byScope[m.scope] = (byScope[m.scope] ?? 0) + 1;
process.stdout.write(
  `${set.memories.length} memories ${JSON.stringify(byScope)}, ${set.queries.length} queries ${JSON.stringify(byCategory)}\n`,
);
