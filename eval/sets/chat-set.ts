/**
 * What the builders of the conversational sets (build-v3.ts, build-v4.ts) share: the policy that lands an
 * assistant's chat turns in its user's scope, the query ids and default scopes, the checks each category's
 * promise gets, and the file's layout. The no-overlap check and the layout serve build-v2.ts too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openLedger, parsePolicy } from '../../src/index.ts';
import { type EvalMemoryInput, type EvalQueryInput, type EvalSet, parseEvalSet } from '../format.ts';
import { EvalClock, loadSet } from '../load.ts';

type Q = Omit<EvalQueryInput, 'id' | 'category'>;

export interface ChatSet {
  /** `memledger-v3`; its queries are `v3-kw-001`… */
  name: string;
  description: string;
  out: URL;
  now: string;
  /** The assistant whose turns land in `userScope`. */
  assistant: string;
  userScope: string;
  /** The second chat's scope, read by default beside `userScope`. */
  otherChatScope: string;
  notesScope: string;
  memories: EvalMemoryInput[];
  bodies: Map<string, string>;
  notes: { id: string; key: string }[];
  queries: Record<(typeof CATEGORIES)[number][0], Q[]>;
  minPerCategory: number;
}

/** The nine categories in file order, with their id prefixes. */
const CATEGORIES = [
  ['keyword', 'kw'],
  ['paraphrase', 'pa'],
  ['paraphrase-no-overlap', 'pn'],
  ['knowledge-update', 'ku'],
  ['temporal-reference', 'tr'],
  ['next-turn', 'nt'],
  ['multi-hop', 'mh'],
  ['multi-scope', 'ms'],
  ['false-premise', 'fp'],
] as const;

/**
 * The default policy, plus what an assistant that keeps a user's chat history needs: it writes its own turns
 * into that user's scope and they land (the chat is the user's record, not an agent's proposal).
 */
function chatPolicy(assistant: string, userScope: string) {
  return {
    version: 1,
    principals: {
      [assistant]: { roles: ['reader', 'writer'], grants: ['agent:{self}:rw', `${userScope}:rw`] },
      'agent:*': { roles: ['reader', 'writer'], grants: ['agent:{self}:rw', 'shared:rw', 'project:*:rw'] },
      'service:*': { roles: ['reader'], grants: ['shared:r'] },
    },
    rules: [
      { name: 'humans-land', when: { principal: 'human:*' }, action: 'allow' },
      { name: 'assistant-chat-turns', when: { principal: assistant, scope: userScope }, action: 'allow' },
      { name: 'agent-own-scope', when: { principal: 'agent:*', scope: 'agent:{self}' }, action: 'allow' },
      { name: 'agent-elsewhere-held', when: { principal: 'agent:*' }, action: 'hold' },
    ],
    ownership: 'hold',
    default: 'hold',
  };
}

/** Checks, builds and writes a conversational set; prints its counts. */
export async function writeChatSet(spec: ChatSet): Promise<void> {
  const policy = chatPolicy(spec.assistant, spec.userScope);
  const tag = spec.name.replace(/^memledger-/, '');
  // Where a query does not say: the two chats. The notes restate chat facts, so a question about what was said
  // reads the chats, and only multi-scope questions (and the knowledge-update ones on the notes, which say so)
  // read the notes too.
  const chatScopes = [spec.userScope, spec.otherChatScope];
  const queries: EvalQueryInput[] = CATEGORIES.flatMap(([category, prefix]) =>
    spec.queries[category].map((q, i) => ({
      id: `${tag}-${prefix}-${String(i + 1).padStart(3, '0')}`,
      category,
      ...(category === 'multi-scope' || q.scopes !== undefined ? {} : { scopes: chatScopes }),
      ...q,
    })),
  );
  const set = {
    name: spec.name,
    description: spec.description,
    now: spec.now,
    policy,
    memories: spec.memories,
    queries,
  };
  const parsed = parseEvalSet(JSON.stringify(set), `${spec.name}.json`);
  parsePolicy(policy, `${spec.name} policy`);
  checkPromises(parsed, spec);
  const scratch = mkdtempSync(join(tmpdir(), `${spec.name}-check-`));
  try {
    await checkNoOverlap(parsed.queries, spec.bodies, scratch);
    await checkStates(parsed, spec, policy, scratch);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  writeSetFile(spec.out, set);
  const byCategory: Record<string, number> = {};
  for (const q of set.queries) byCategory[q.category] = (byCategory[q.category] ?? 0) + 1;
  const byScope: Record<string, number> = {};
  for (const m of set.memories) byScope[m.scope] = (byScope[m.scope] ?? 0) + 1;
  process.stdout.write(
    `${set.memories.length} memories ${JSON.stringify(byScope)}, ${set.queries.length} queries ${JSON.stringify(byCategory)}\n`,
  );
}

/** What each category promises, checked rather than trusted. */
function checkPromises(parsed: EvalSet, spec: ChatSet): void {
  const sessionOf = new Map(parsed.memories.map((m) => [m.id, m.session ?? m.id]));
  const scopeOf = new Map(parsed.memories.map((m) => [m.id, m.scope]));
  for (const q of parsed.queries) {
    if (q.category === 'false-premise' ? q.expect.length > 0 : q.expect.length === 0)
      throw new Error(`${q.id}: a false premise expects nothing, every other query something`);
    if (q.category === 'multi-hop' && new Set(q.expect.map((l) => sessionOf.get(l))).size < 2)
      throw new Error(`${q.id}: a multi-hop question needs memories from two sessions`);
    if (q.category === 'multi-scope' && !q.expect.some((l) => scopeOf.get(l) !== spec.userScope))
      throw new Error(`${q.id}: a multi-scope answer lives outside ${spec.userScope}`);
    if (q.category === 'next-turn' && q.expect.some((l) => l.endsWith('-t0')))
      throw new Error(`${q.id}: a next-turn answer is a reply, never a session's first turn`);
  }
  for (const [category] of CATEGORIES) {
    const n = parsed.queries.filter((q) => q.category === category).length;
    if (n < spec.minPerCategory)
      throw new Error(`${category} has ${n} queries; at least ${spec.minPerCategory}`);
  }
  if (parsed.memories.some((m) => Date.parse(m.recorded) >= Date.parse(spec.now)))
    throw new Error('every memory is recorded before now');
}

/**
 * paraphrase-no-overlap's promise: the index itself (stopwords dropped, porter stems) finds no word of the
 * question in its answer. Each answer is written alone into a scratch home under `scratch` and searched for.
 */
export async function checkNoOverlap(
  queries: readonly EvalQueryInput[],
  bodies: ReadonlyMap<string, string>,
  scratch: string,
): Promise<void> {
  for (const q of queries.filter((q) => q.category === 'paraphrase-no-overlap')) {
    for (const label of q.expect) {
      const ledger = openLedger({ home: join(scratch, q.id) });
      const session = ledger.as(ledger.principal('human:eval'), { surface: 'library' });
      await session.remember({ body: bodies.get(label)!, scope: 'shared' });
      const found = await session.search({ query: q.text });
      ledger.close();
      if (found.hits.length > 0)
        throw new Error(`${q.id} shares ${found.hits[0]!.why.matched} with ${label}`);
    }
  }
}

/**
 * Every memory lands as the set means it: each turn and the newest note of each key active, the notes a later
 * one under the same key replaced superseded (so a knowledge-update query's must-not-find is a real old value).
 */
async function checkStates(parsed: EvalSet, spec: ChatSet, policy: unknown, scratch: string): Promise<void> {
  const clock = new EvalClock(parsed.memories[0]!.recorded);
  const ledger = openLedger({ home: join(scratch, 'load'), now: clock.now, policy: parsePolicy(policy) });
  try {
    const loaded = await loadSet(ledger, clock, parsed);
    const reader = ledger.as(ledger.principal('human:eval'), { surface: 'library' });
    const newest = new Map(spec.notes.map((n) => [n.key, n.id]));
    for (const m of parsed.memories) {
      const { state } = await reader.get(loaded.ids.get(m.id)!);
      const want = m.scope === spec.notesScope && newest.get(m.key!) !== m.id ? 'superseded' : 'active';
      if (state !== want) throw new Error(`${m.id} is ${state} after loading, not ${want}`);
    }
  } finally {
    ledger.close();
  }
}

/** The set as a file: one memory or query per line, so a change to one shows as one line in a diff. */
export function writeSetFile(
  out: URL,
  set: {
    name: string;
    description: string;
    now: string;
    policy?: unknown;
    memories: unknown[];
    queries: unknown[];
  },
): void {
  const lines = (items: unknown[]): string => items.map((i) => `    ${JSON.stringify(i)}`).join(',\n');
  const policy = set.policy === undefined ? '' : `\n  "policy": ${JSON.stringify(set.policy)},`;
  writeFileSync(
    out,
    `{
  "name": ${JSON.stringify(set.name)},
  "description": ${JSON.stringify(set.description)},
  "now": ${JSON.stringify(set.now)},${policy}
  "memories": [
${lines(set.memories)}
  ],
  "queries": [
${lines(set.queries)}
  ]
}
`,
  );
}
