/**
 * The evaluation: loads a labelled set into a temporary home, runs search and context assembly for every
 * query as its asker, and reduces the outcomes to recall@k, MRR, context recall, tokens and latency.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  type Ledger,
  type LedgerSession,
  openLedger,
  type Policy,
  parseGrant,
  type SemanticOptions,
  parsePolicy,
} from '../src/index.ts';
import type { EvalQuery, EvalSet } from './format.ts';
import { EvalClock, loadSet } from './load.ts';
import { HALVES, type Half, halfOf } from './split.ts';
import {
  completeAt,
  coverage,
  isConfident,
  type Judged,
  leaked,
  mean,
  percentile,
  reciprocalRank,
  recallAt,
  round,
} from './metrics.ts';

export interface EvalOptions {
  /** Cut-offs for recall; search asks for the largest. */
  k: number[];
  /** Token budget handed to context assembly. */
  budget: number;
  /** Include every query that missed (recall below 1 at the largest k, or a leak). */
  misses?: boolean;
  /** Only queries of these categories. */
  categories?: string[];
  /** Only the queries of one half of the set (eval/split.ts). */
  half?: Half;
  /**
   * Ask every query that reads every scope as a principal granted `shared`, `user:*`, `agent:*` and
   * `project:*` instead of `*`: the same memories, read through the per-scope statistics path of search
   * rather than the index-wide one, so the two can be compared on one set.
   */
  scoped?: boolean;
  /**
   * Opens the ledger the set is loaded into, instead of a temporary home: how another backend is evaluated
   * (bench/eval-postgres.ts) while openLedger takes only a home.
   */
  open?: (options: { dir: string; now: () => string; policy?: Policy }) => Promise<Ledger>;
  /** Semantic search for the temporary home (eval/modes.ts); absent, search is BM25's alone. */
  semantic?: SemanticOptions;
  /** Skip context assembly (faster, for tuning loops that read search alone). */
  skipContext?: boolean;
  /** Include every query's ranked labels (the first k of the largest cut-off): how two modes are compared query by query. */
  ranks?: boolean;
}

export interface Latency {
  p50: number;
  p95: number;
}

/** `recall@5`, `recall@10`, ...: the mean share of expected ids in the top k. */
export type RecallAt = { [cutoff: `recall@${number}`]: number };

/** `complete@5`, ...: the share of queries with every expected id in the top k (eval/metrics.ts completeAt). */
export type CompleteAt = { [cutoff: `complete@${number}`]: number };

export type GroupReport = RecallAt &
  CompleteAt & {
    queries: number;
    mrr: number;
    /**
     * Queries with nothing to find (a wrong premise): how many, and the share whose top hit was confident
     * (eval/metrics.ts isConfident; lower is better). Answerable queries: the share whose top hit was expected
     * and confident (higher is better). Recall, completeness and MRR average the answerable queries only.
     */
    unanswerable: number;
    confidentWrong: number | null;
    confidentRight: number | null;
    /** Queries whose search results held a must-not-find id (scored 0). */
    leaks: number;
    errors: number;
    searchMs: Latency;
    context: ContextGroup | null;
  };

export interface ContextGroup {
  queries: number;
  /** Mean share of expected ids that appear in the context block. */
  recall: number;
  meanTokens: number;
  leaks: number;
  errors: number;
  /** Queries with asOf or validAt: context assembly reads the present only. */
  skipped: number;
  ms: Latency;
}

export interface Miss {
  id: string;
  category: string;
  text: string;
  expect: string[];
  got: string[];
  leaked: string[];
  error?: string;
}

export interface EvalReport {
  set: string;
  memories: number;
  queries: number;
  options: { k: number[]; budget: number; half?: Half; scoped?: boolean };
  load: { ms: number; states: Record<string, number> };
  /** `assembled`, or why the context part was skipped. */
  context: string;
  overall: GroupReport;
  categories: Record<string, GroupReport>;
  /** The same figures for each half of the split (eval/split.ts): tune on one, report both. */
  halves: Record<Half, { overall: GroupReport; categories: Record<string, GroupReport> }>;
  /** Vectors the load left to embed, and how long embedding them took; null without an embedder. */
  vectors: { model: string; embedded: number; ms: number } | null;
  misses?: Miss[];
  /** With `ranks`: each query's id, category, expected labels and ranked labels (the largest cut-off). */
  ranks?: { id: string; category: string; expect: string[]; got: string[] }[];
}

/** The structural slice of `session.context` the harness reads, so it keeps working while that API settles. */
interface ContextResultLike {
  items: { memory: { id: string } }[];
  tokens: number;
}
type ContextFn = (input: {
  task?: string;
  scopes?: string[];
  budget?: number;
  sessionId?: string;
  referenceTime?: string;
}) => Promise<ContextResultLike>;

interface Outcome {
  query: EvalQuery;
  judged: Judged;
  /** The top hit was confident (eval/metrics.ts isConfident). */
  confident: boolean;
  searchMs: number;
  error?: string;
  context?: { ids: string[]; tokens: number; ms: number } | { error: string } | 'skipped';
}

/** Runs the whole evaluation in a temporary home that is removed afterwards. */
export async function runEval(set: EvalSet, options: EvalOptions): Promise<EvalReport> {
  const dir = mkdtempSync(join(tmpdir(), 'memledger-eval-'));
  const clock = new EvalClock(set.memories[0]!.recorded);
  const policy = set.policy === undefined ? {} : { policy: parsePolicy(set.policy, `${set.name} policy`) };
  const ledger =
    options.open === undefined
      ? openLedger({
          home: join(dir, 'home'),
          now: clock.now,
          ...policy,
          ...(options.semantic === undefined ? {} : { semantic: options.semantic }),
        })
      : await options.open({ dir, now: clock.now, ...policy });
  try {
    const started = performance.now();
    const loaded = await loadSet(ledger, clock, set);
    const loadMs = performance.now() - started;
    const embedding = performance.now();
    const vectors =
      ledger.semantic === undefined
        ? null
        : {
            model: ledger.semantic.embedder.model,
            embedded: (await ledger.embedPending()).embedded,
            ms: Math.round(performance.now() - embedding),
          };
    clock.set(set.now);
    const queries = set.queries.filter(
      (q) =>
        (options.categories === undefined || options.categories.includes(q.category)) &&
        (options.half === undefined || halfOf(q.id) === options.half),
    );
    const maxK = Math.max(...options.k);
    let contextAvailable = false;
    const outcomes: Outcome[] = [];
    for (const query of queries) {
      const session = ledger.as(asker(ledger, query.as ?? 'human:eval', options.scoped === true), {
        surface: 'library',
        sessionId: `eval-${query.id}`,
        client: 'memledger-eval',
      });
      const outcome = await runSearch(session, query, maxK, loaded.labels);
      const contextFn = options.skipContext === true ? null : contextOf(session);
      if (contextFn !== null) {
        contextAvailable = true;
        outcome.context = await runContext(contextFn, query, options.budget, loaded.labels);
      }
      outcomes.push(outcome);
    }
    const categories = byCategory(outcomes, options.k);
    const halves = Object.fromEntries(
      HALVES.map((h) => {
        const mine = outcomes.filter((o) => halfOf(o.query.id) === h);
        return [h, { overall: summarise(mine, options.k), categories: byCategory(mine, options.k) }];
      }),
    ) as EvalReport['halves'];
    return {
      set: set.name,
      memories: set.memories.length,
      queries: queries.length,
      options: {
        k: options.k,
        budget: options.budget,
        ...(options.half === undefined ? {} : { half: options.half }),
        ...(options.scoped === true ? { scoped: true } : {}),
      },
      load: { ms: Math.round(loadMs), states: loaded.states },
      context: contextAvailable ? 'assembled' : 'skipped: session.context is not available in this build',
      overall: summarise(outcomes, options.k),
      categories,
      halves,
      vectors,
      ...(options.misses === true ? { misses: missesOf(outcomes, maxK) } : {}),
      ...(options.ranks === true ? { ranks: ranksOf(outcomes, maxK) } : {}),
    };
  } finally {
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function runSearch(
  session: LedgerSession,
  query: EvalQuery,
  limit: number,
  labels: Map<string, string>,
): Promise<Outcome> {
  const started = performance.now();
  const judged = { ranked: [] as string[], expect: query.expect, mustNot: query.mustNot };
  try {
    const result = await session.search({
      query: query.text,
      limit,
      ...(query.at === undefined ? {} : { referenceTime: query.at }),
      ...(query.scopes === undefined ? {} : { scopes: query.scopes }),
      ...(query.asOf === undefined ? {} : { asOf: query.asOf }),
      ...(query.validAt === undefined ? {} : { validAt: query.validAt }),
    });
    judged.ranked = result.hits.map((h) => labelOf(labels, h.memory.id));
    return { query, judged, confident: isConfident(result), searchMs: performance.now() - started };
  } catch (error) {
    const searchMs = performance.now() - started;
    return { query, judged, confident: false, searchMs, error: (error as Error).message };
  }
}

/** Every scope kind by name: reads what `*` reads, without being `*`. */
const EVERY_KIND = ['shared:r', 'user:*:r', 'agent:*:r', 'project:*:r'].map(parseGrant);

function asker(ledger: Ledger, ref: string, scoped: boolean) {
  const principal = ledger.principal(ref);
  if (!scoped || !principal.grants.some((g) => g.read && g.scope === '*')) return principal;
  return { ...principal, grants: [...EVERY_KIND, ...principal.grants.filter((g) => g.scope !== '*')] };
}

/** `session.context` once context assembly has landed; null before, so the harness runs on either build. */
function contextOf(session: LedgerSession): ContextFn | null {
  const candidate = (session as unknown as { context?: unknown }).context;
  return typeof candidate === 'function' ? (candidate as ContextFn).bind(session) : null;
}

async function runContext(
  context: ContextFn,
  query: EvalQuery,
  budget: number,
  labels: Map<string, string>,
): Promise<Outcome['context']> {
  if (query.asOf !== undefined || query.validAt !== undefined) return 'skipped';
  const started = performance.now();
  try {
    const result = await context({
      task: query.task ?? query.text,
      budget,
      sessionId: `eval-${query.id}`,
      ...(query.scopes === undefined ? {} : { scopes: query.scopes }),
      ...(query.at === undefined ? {} : { referenceTime: query.at }),
    });
    const ids = result.items.map((i) => labelOf(labels, i.memory.id));
    return { ids, tokens: result.tokens, ms: performance.now() - started };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Unlabelled ids (say, a proposal that an edited approval replaced) stay visible in misses with a marker. */
const labelOf = (labels: Map<string, string>, id: string): string => labels.get(id) ?? `?${id}`;

function byCategory(outcomes: Outcome[], ks: number[]): Record<string, GroupReport> {
  const categories: Record<string, GroupReport> = {};
  for (const name of [...new Set(outcomes.map((o) => o.query.category))].sort()) {
    categories[name] = summarise(
      outcomes.filter((o) => o.query.category === name),
      ks,
    );
  }
  return categories;
}

function summarise(all: Outcome[], ks: number[]): GroupReport {
  const ok = all.filter((o) => o.error === undefined);
  const outcomes = all.filter((o) => o.query.expect.length > 0);
  const unanswerable = all.filter((o) => o.query.expect.length === 0);
  const recall: RecallAt = {};
  const complete: CompleteAt = {};
  for (const k of ks) recall[`recall@${k}`] = round(mean(outcomes.map((o) => recallAt(o.judged, k))));
  for (const k of ks) complete[`complete@${k}`] = round(mean(outcomes.map((o) => completeAt(o.judged, k))));
  const searchMs = all.map((o) => o.searchMs);
  const rate = (os: Outcome[], hit: (o: Outcome) => boolean) =>
    os.length === 0 ? null : round(os.filter(hit).length / os.length);
  return {
    queries: all.length,
    ...recall,
    ...complete,
    mrr: round(mean(outcomes.map((o) => reciprocalRank(o.judged)))),
    unanswerable: unanswerable.length,
    confidentWrong: rate(unanswerable, (o) => o.confident),
    confidentRight: rate(outcomes, (o) => o.confident && o.query.expect.includes(o.judged.ranked[0] ?? '')),
    leaks: ok.filter((o) => leaked(o.judged).length > 0).length,
    errors: all.length - ok.length,
    searchMs: latency(searchMs),
    context: summariseContext(all),
  };
}

function summariseContext(outcomes: Outcome[]): ContextGroup | null {
  if (outcomes.every((o) => o.context === undefined)) return null;
  const ran = outcomes.flatMap((o) =>
    typeof o.context === 'object' && 'ids' in o.context ? [{ o, c: o.context }] : [],
  );
  // Context recall averages the answerable queries; a wrong premise has nothing to recall.
  const answerable = ran.filter(({ o }) => o.query.expect.length > 0);
  return {
    queries: ran.length,
    recall: round(mean(answerable.map(({ o, c }) => coverage(c.ids, o.query.expect, o.query.mustNot)))),
    meanTokens: round(mean(ran.map(({ c }) => c.tokens)), 1),
    leaks: ran.filter(({ o, c }) => c.ids.some((id) => o.query.mustNot.includes(id))).length,
    errors: outcomes.filter((o) => typeof o.context === 'object' && 'error' in o.context).length,
    skipped: outcomes.filter((o) => o.context === 'skipped').length,
    ms: latency(ran.map(({ c }) => c.ms)),
  };
}

const latency = (values: number[]): Latency => ({
  p50: round(percentile(values, 50), 3),
  p95: round(percentile(values, 95), 3),
});

function ranksOf(outcomes: Outcome[], maxK: number): NonNullable<EvalReport['ranks']> {
  return outcomes.map((o) => ({
    id: o.query.id,
    category: o.query.category,
    expect: [...o.query.expect],
    got: o.judged.ranked.slice(0, maxK),
  }));
}

function missesOf(outcomes: Outcome[], maxK: number): Miss[] {
  return outcomes
    .filter(
      (o) =>
        o.error !== undefined || (o.query.expect.length > 0 ? recallAt(o.judged, maxK) < 1 : o.confident),
    )
    .map((o) => ({
      id: o.query.id,
      category: o.query.category,
      text: o.query.text,
      expect: [...o.query.expect],
      got: o.judged.ranked.slice(0, 5),
      leaked: leaked(o.judged),
      ...(o.error === undefined ? {} : { error: o.error }),
    }));
}
