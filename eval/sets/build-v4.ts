/**
 * Writes eval/sets/memledger-v4.json: `node eval/sets/build-v4.ts`. A standalone TUNING set in the shape of
 * memledger-v3 but with its own people and life, written without reading v3's chats or queries: one man's chats
 * with an assistant over twelve months, three colleagues' group chat over six, and the assistant's own keyed
 * notes, with the same nine query categories. Tune on this one; v3 stays held out (docs/eval-format.md#memledger-v4).
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
  GROUP_SCOPE,
  GROUP_SESSIONS,
  LUKAS_SESSIONS,
  MEMORIES,
  NOTES_SCOPE,
  USER_SCOPE,
} from './v4/memories.ts';
import { NOTES } from './v4/notes.ts';
import { KEYWORD, KNOWLEDGE_UPDATE, PARAPHRASE, PARAPHRASE_NO_OVERLAP, type Q } from './v4/queries-a.ts';
import { FALSE_PREMISE, MULTI_HOP, MULTI_SCOPE, NEXT_TURN, TEMPORAL_REFERENCE } from './v4/queries-b.ts';

const OUT = new URL('./memledger-v4.json', import.meta.url);
/** After every memory: a Monday evening, six days after the last chat. */
const NOW = '2026-11-30T20:00:00Z';

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
const CHAT_SCOPES = [USER_SCOPE, GROUP_SCOPE];
const queries: EvalQueryInput[] = categories.flatMap(([category, prefix, list]) =>
  list.map((q, i) => ({
    id: `v4-${prefix}-${String(i + 1).padStart(3, '0')}`,
    category,
    ...(category === 'multi-scope' || q.scopes !== undefined ? {} : { scopes: CHAT_SCOPES }),
    ...q,
  })),
);

const set = {
  name: 'memledger-v4',
  description: `A tuning set in memledger-v3’s shape, written independently of v3’s content: one user’s chats with an assistant (${LUKAS_SESSIONS.length} sessions, December 2025 to November 2026, ${USER_SCOPE}), three colleagues’ group chat (${GROUP_SESSIONS.length} sessions, June to November 2026, ${GROUP_SCOPE}) and the assistant’s notes (keyed facts and preferences, some superseded, ${NOTES_SCOPE}), with nine query categories. Tune on this set; memledger-v3 stays held out.`,
  now: NOW,
  policy: POLICY,
  memories: MEMORIES,
  queries,
};
const parsed = parseEvalSet(JSON.stringify(set), 'memledger-v4.json');
parsePolicy(POLICY, 'memledger-v4 policy');

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
  if (n < 14) throw new Error(`${category} has ${n} queries; at least 14`);
}
if (parsed.memories.some((m) => Date.parse(m.recorded) >= Date.parse(NOW)))
  throw new Error('every memory is recorded before now');

const scratch = mkdtempSync(join(tmpdir(), 'memledger-v4-check-'));
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
