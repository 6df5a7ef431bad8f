/**
 * Writes eval/sets/memledger-v1.json deterministically: `node eval/sets/build-v1.ts`. Entity tables and
 * phrasing are hand-written in ./v1; the random source is seeded, so the output only changes with them.
 */
import { writeFileSync } from 'node:fs';
import { parseEvalSet } from '../format.ts';
import { buildAgents } from './v1/agents.ts';
import { NOW, SetBuilder } from './v1/builder.ts';
import { buildCore } from './v1/core.ts';
import { buildCustomers } from './v1/customers.ts';
import { buildHistory } from './v1/history.ts';
import { paraphraseQueries } from './v1/paraphrase.ts';
import { buildProjects } from './v1/projects.ts';
import { generatedQueries } from './v1/queries.ts';
import { buildTeam } from './v1/team.ts';
import { buildWork } from './v1/work.ts';

const OUT = new URL('./memledger-v1.json', import.meta.url);

const b = new SetBuilder(20250930);
buildTeam(b);
buildProjects(b);
const customers = buildCustomers(b);
const work = buildWork(b);
const agents = buildAgents(b);
buildHistory(b);
buildCore(b);
generatedQueries(b, { customers, work, agents });
paraphraseQueries(b);

// Time order: a file reads as the ledger's history, and every `supersedes` names an earlier line.
const memories = [...b.memories].sort(
  (x, y) => x.recorded.localeCompare(y.recorded) || x.id.localeCompare(y.id),
);
const set = {
  name: 'memledger-v1',
  description:
    'A year of agent memory for Fernhill, a 16-person software team with 72 customers: preferences, project conventions, decisions with reasons, customer facts, incidents, promises, rotations and agent notes.',
  now: NOW,
  memories,
  queries: b.queries,
};
parseEvalSet(JSON.stringify(set), 'memledger-v1.json');

// One memory or query per line: reviewable diffs, still a plain JSON document.
const lines = (items: unknown[]): string => items.map((i) => `    ${JSON.stringify(i)}`).join(',\n');
const text = `{
  "name": ${JSON.stringify(set.name)},
  "description": ${JSON.stringify(set.description)},
  "now": ${JSON.stringify(set.now)},
  "memories": [
${lines(set.memories)}
  ],
  "queries": [
${lines(set.queries)}
  ]
}
`;
writeFileSync(OUT, text);
const byCategory: Record<string, number> = {};
for (const q of set.queries) byCategory[q.category] = (byCategory[q.category] ?? 0) + 1;
process.stdout.write(
  `${set.memories.length} memories, ${set.queries.length} queries ${JSON.stringify(byCategory)}\n`,
);
