/**
 * Writes eval/sets/memledger-v2.json: `node eval/sets/build-v2.ts`. It is memledger-v1.json (every memory and
 * query, unchanged, so v1's categories keep their meaning) plus the conversations of ./v2 and five categories
 * over them: next-turn, multi-hop, temporal-reference, paraphrase-no-overlap and false-premise.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type EvalMemoryInput, type EvalQueryInput, parseEvalSet } from '../format.ts';
import { checkNoOverlap, writeSetFile } from './chat-set.ts';
import { CONVERSATIONS, turn } from './v2/conversations.ts';
import {
  FALSE_PREMISE,
  MULTI_HOP,
  NEXT_TURN,
  PARAPHRASE_NO_OVERLAP,
  TEMPORAL_REFERENCE,
} from './v2/queries.ts';

const V1 = new URL('./memledger-v1.json', import.meta.url);
const OUT = new URL('./memledger-v2.json', import.meta.url);
/** Minutes between two turns of a conversation: a chat, not a log replay. */
const TURN_GAP_MINUTES = 3;

const v1 = JSON.parse(readFileSync(V1, 'utf8')) as {
  now: string;
  memories: EvalMemoryInput[];
  queries: EvalQueryInput[];
};

const turns: EvalMemoryInput[] = CONVERSATIONS.flatMap((c) =>
  c.turns.map((body, i) => ({
    id: turn(c.id, i),
    body,
    kind: 'episode',
    scope: c.scope,
    recorded: new Date(Date.parse(c.start) + i * TURN_GAP_MINUTES * 60_000).toISOString(),
    by: `human:${body.slice(0, body.indexOf(':')).toLowerCase()}`,
    session: c.id,
  })),
);
const bodies = new Map(turns.map((m) => [m.id, m.body]));

const categories: [string, string, typeof NEXT_TURN][] = [
  ['next-turn', 'nt', NEXT_TURN],
  ['multi-hop', 'mh', MULTI_HOP],
  ['temporal-reference', 'tr', TEMPORAL_REFERENCE],
  ['paraphrase-no-overlap', 'pn', PARAPHRASE_NO_OVERLAP],
  ['false-premise', 'fp', FALSE_PREMISE],
];
const queries: EvalQueryInput[] = categories.flatMap(([category, prefix, list]) =>
  list.map((q, i) => ({ id: `${prefix}-${String(i + 1).padStart(3, '0')}`, category, ...q })),
);

// The category's promise, checked rather than trusted (chat-set.ts).
const scratch = mkdtempSync(join(tmpdir(), 'memledger-v2-check-'));
try {
  await checkNoOverlap(queries, bodies, scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

const memories = [...v1.memories, ...turns].sort(
  (x, y) => x.recorded.localeCompare(y.recorded) || x.id.localeCompare(y.id),
);
const set = {
  name: 'memledger-v2',
  description:
    'memledger-v1 plus 26 hand-written conversations of the same team (one memory per turn, one session per conversation, 2022–2025) and five categories over them: next-turn, multi-hop, temporal-reference, paraphrase-no-overlap, false-premise.',
  now: v1.now,
  memories,
  queries: [...v1.queries, ...queries],
};
parseEvalSet(JSON.stringify(set), 'memledger-v2.json');

writeSetFile(OUT, set);
const byCategory: Record<string, number> = {};
for (const q of set.queries) byCategory[q.category] = (byCategory[q.category] ?? 0) + 1;
process.stdout.write(
  `${set.memories.length} memories, ${set.queries.length} queries ${JSON.stringify(byCategory)}\n`,
);
