/**
 * The candidates of each context pool, best first, each with why it is there. Every pool reads through the
 * ledger's own read paths (corrections, list, search), so grants (I4), current-only reads (I3) and the secret
 * filter (I10) apply as everywhere; context.ts checks them again at the egress.
 *
 * - corrections: the latest correction per key (or kind) of the calling agent's writes, in these scopes.
 * - rules: pinned rules, i.e. current `preference` and `decision` memories with trust `confirmed` (a human
 *   wrote, approved or confirmed them): the newest 200, those holding more of the task's words first.
 * - commitments: live commitments, due and triggered ones first (plans/context-pool.ts).
 * - relevant: the search ranking for the task (text match blended with trust, confidence and recency); with
 *   no task, the newest confirmed or accepted memories. A chain's newest summary stands in for the memories
 *   it covers (plans/context-summaries.ts).
 */
import { normaliseText } from '../../guard/canonical.ts';
import { buildFtsQuery } from '../../guard/fts-query.ts';
import { LIMITS, type Kind, type Memory } from '../../model/memory.ts';
import { principalLabel } from '../../model/principal.ts';
import { type Correction, corrections } from '../corrections.ts';
import type { Pool } from './render.ts';
import type { Deps } from '../deps.ts';
import { list } from '../read.ts';
import type { SearchHit } from '../search.ts';
import { commitmentPool } from '../plans/context-pool.ts';
import { preferSummaries } from '../plans/context-summaries.ts';
import { lazy } from '../lazy-module.ts';

/** Search and neighbours load on a task's first search: a session start has no task, so its hook never does. */
const searching = lazy(() => import('../search.ts'));
const neighbouring = lazy(() => import('../neighbours.ts'));

export interface Candidate {
  memory: Memory;
  pool: Pool;
  why: string;
}

export const RULE_KINDS: readonly Kind[] = ['preference', 'decision'];
const SEARCHED = 30;
const LISTED = 100;

export interface PoolInput {
  /** The task's searchable text, or null when it has no letters or digits. */
  query: string | null;
  scopes: string[] | undefined;
  now: string;
  referenceTime?: string | undefined;
  /** Place each of the best hits' session neighbours beside it (context.ts `neighbours`). */
  neighbours?: boolean;
}

export async function gatherCandidates(deps: Deps, input: PoolInput): Promise<Record<Pool, Candidate[]>> {
  // Candidates are read quietly: the audit record names what the block showed, not everything considered.
  const quiet: Deps = { ...deps, trace: { targets: new Set(), changes: [] } };
  const [fromCorrections, rules, commitments, relevant] = await Promise.all([
    correctionPool(quiet, input),
    rulePool(quiet, input),
    commitmentPool(quiet, input),
    relevantPool(quiet, input),
  ]);
  return {
    corrections: fromCorrections,
    rules,
    commitments,
    relevant: await preferSummaries(quiet, relevant),
  };
}

async function correctionPool(deps: Deps, input: PoolInput): Promise<Candidate[]> {
  // Corrections are feedback to a writer that is not a person: a human caller has none of its own.
  if (deps.principal.kind === 'human') return [];
  const found = await corrections(deps, {
    scopes: input.scopes,
    agent: principalLabel(deps.principal),
    limit: 20,
  });
  const out: Candidate[] = [];
  for (const c of found) {
    const memory = correctionMemory(c);
    if (memory !== null) out.push({ memory, pool: 'corrections', why: correctionWhy(c) });
  }
  return out;
}

/**
 * What the block shows for a correction. An edit shows the reviewer's version while it is current. A
 * rejection shows a record of the verdict and its reason, never the rejected claim itself (I5): an item of
 * kind `correction` whose id is the `corrected` event's.
 */
export function correctionMemory(c: Correction): Memory | null {
  if (c.action === 'edited') return c.corrected;
  const what = c.key === null ? `a ${c.kind} you proposed` : `your proposal for key ${c.key}`;
  return {
    id: c.id,
    scope: c.scope,
    kind: 'correction',
    key: c.key,
    body: `A reviewer rejected ${what}: ${c.reason ?? 'no reason recorded'}`,
    value: null,
    subjects: [],
    validFrom: null,
    validTo: null,
    validStart: null,
    validEnd: null,
    confidence: 1,
    supersedes: null,
    editOf: null,
    fingerprint: '',
    provenance: { principal: c.by, principalKind: 'human', surface: 'review' },
    recordedAt: c.at,
    state: 'active',
    trust: 'confirmed',
    supersededBy: null,
    activeFrom: c.at,
    activeUntil: null,
    confirmedBy: c.by,
    rule: 'review',
  };
}

/**
 * The reviewer and the date are on the item's provenance line already. The proposal's id is not named: it is
 * a rejected or superseded memory, which a block never shows, not even by id.
 */
const correctionWhy = (c: Correction): string =>
  `a reviewer ${c.action} your proposal${c.key === null ? '' : ` for key ${c.key}`}`;

/**
 * Rules are few next to everything else, so the newest confirmed ones are read whole and ordered by how many
 * of the task's words they hold (newest first among equals), with no second full-text query per call.
 */
async function rulePool(deps: Deps, input: PoolInput): Promise<Candidate[]> {
  const rules = (
    await list(deps, { scopes: input.scopes, kinds: [...RULE_KINDS], limit: LIMITS.limit })
  ).filter((m) => m.trust === 'confirmed');
  const terms = input.query === null ? [] : buildFtsQuery(input.query).terms;
  return rules
    .map((memory) => ({ memory, matched: wordsMatched(memory, terms) }))
    .sort((a, b) => b.matched.length - a.matched.length)
    .map(({ memory, matched }) => ({
      memory,
      pool: 'rules' as const,
      why: `pinned: a confirmed ${memory.kind}${matched.length > 0 ? `; matched ${matched.join(', ')}` : ''}`,
    }));
}

/** The task words a memory holds, allowing inflections of their stem, as search reports them. */
function wordsMatched(memory: Memory, terms: string[]): string[] {
  if (terms.length === 0) return [];
  const text = `${memory.body} ${memory.key ?? ''}`;
  const stems = terms.map((t) => (t.length > 4 ? t.slice(0, Math.max(4, t.length - 3)) : t));
  // Printable ASCII normalises to its lower case with the rest made spaces, so a word can start with a stem
  // only where the lower-cased text holds it: most of the 200 rules hold none, and skip normalising.
  if (PRINTABLE_ASCII.test(text)) {
    const lower = text.toLowerCase();
    if (!stems.some((s) => lower.includes(s))) return [];
  }
  const words = normaliseText(text).split(' ');
  return terms.filter((_, i) => words.some((w) => w.startsWith(stems[i]!)));
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

async function relevantPool(deps: Deps, input: PoolInput): Promise<Candidate[]> {
  if (input.query === null) {
    const recent = await list(deps, { scopes: input.scopes, limit: LISTED });
    return recent
      .filter((m) => m.trust !== 'unverified')
      .map((memory) => ({ memory, pool: 'relevant' as const, why: `recent, ${memory.trust}` }));
  }
  const { search } = await searching();
  const found = await search(deps, {
    query: input.query,
    scopes: input.scopes,
    limit: SEARCHED,
    ...(input.referenceTime === undefined ? {} : { referenceTime: input.referenceTime }),
  });
  const hits = found.hits.map((h) => ({
    memory: h.memory,
    pool: 'relevant' as const,
    why: `matched ${h.why.matched.join(', ') || 'by stem'}; score ${h.score}${timeWhy(h.why.time)}`,
  }));
  return input.neighbours === true ? withNeighbours(deps, hits, input.scopes) : hits;
}

/**
 * Hits whose neighbours are placed beside them: the head of the ranking, where an answer's question lands.
 * Tuning half of memledger-v2, context recall: 5 hits, next-turn 0.143 → 0.929 but paraphrase 0.779 → 0.764
 * (neighbours crowd out later hits); 3 hits, next-turn the same and paraphrase unchanged.
 */
const NEIGHBOUR_HITS = 3;

/**
 * Each of the best hits followed by the turn after it (the reply, where an answer to a found question sits) and
 * the turn before it, each marked as a neighbour in `why`. They compete for the pool's budget like any item:
 * one that does not fit is skipped, and one already shown (as a hit or a neighbour) is not repeated.
 */
async function withNeighbours(
  deps: Deps,
  hits: Candidate[],
  scopes: string[] | undefined,
): Promise<Candidate[]> {
  const head = hits.slice(0, NEIGHBOUR_HITS);
  const { neighboursOf } = await neighbouring();
  const around = await neighboursOf(
    deps,
    head.map((h) => h.memory.id),
    scopes,
  );
  const out: Candidate[] = [];
  for (const hit of head) {
    out.push(hit);
    const n = around.get(hit.memory.id);
    if (n?.after)
      out.push({ memory: n.after, pool: 'relevant', why: `neighbour: the turn after ${hit.memory.id}` });
    if (n?.before)
      out.push({ memory: n.before, pool: 'relevant', why: `neighbour: the turn before ${hit.memory.id}` });
  }
  return [...out, ...hits.slice(NEIGHBOUR_HITS)];
}

/** "; in last month (2025-08-01..2025-09-01)" for a hit whose time falls in the interval the task named. */
function timeWhy(time: SearchHit['why']['time']): string {
  if (time === undefined || time.match === 'outside') return '';
  const day = (t: string) => t.slice(0, 10);
  return `; ${time.match} in ${time.expression} (${day(time.from)}..${day(time.to)})`;
}

/** The part of a task a search can take: whole words up to the query limit, or null when none are searchable. */
export function searchableTask(task: string): string | null {
  let query = task;
  if (query.length > LIMITS.query) {
    const cut = query.slice(0, LIMITS.query);
    const space = cut.search(/\s\S*$/);
    query = space > 0 ? cut.slice(0, space) : cut;
  }
  try {
    buildFtsQuery(query);
    return query;
  } catch {
    // No letters or digits, or only words too long to index: the task gives the search nothing to go on.
    return null;
  }
}
