/**
 * context: what an agent should know at the start of a task, inside a token budget. Four pools in order,
 * each with its own share of the budget (what a pool leaves unused flows to the next): corrections of this
 * agent's writes, pinned rules, open commitments, then what is relevant to the task (context-pools.ts says
 * what each holds). An item that does not fit is skipped, never cut; near-duplicates collapse to the first;
 * what this session was already shown is suppressed. The block never holds a held, rejected, retracted,
 * erased or superseded memory, another scope's memory, or a secret (I3, I4, I5, I10).
 */
import { z } from 'zod';
import { assertNoSecrets } from '../../guard/limits.ts';
import type { Memory } from '../../model/memory.ts';
import { principalLabel } from '../../model/principal.ts';
import { scopeSchema } from '../../model/scope.ts';
import { isoTime } from '../../model/time.ts';
import { inFilter, readFilter, type ScopeFilter } from '../../policy/access.ts';
import { type Candidate, gatherCandidates, searchableTask } from './pools.ts';
import { emptyNote, FOOTER, HEADER, itemText, POOLS, type Pool, sectionTitle } from './render.ts';
import type { Deps } from '../deps.ts';
import { NearDuplicates, wordSet } from './near-duplicate.ts';
import { parseInput } from '../parse.ts';
import { tokenFloor } from './token-floor.ts';
import { type CountTokens, tokenCounter } from './tokens.ts';
import { hasSecret } from '../visibility.ts';

export const DEFAULT_BUDGET = 1500;
export const MAX_BUDGET = 20_000;
/** Below this the frame that marks the block as data would not fit. */
export const MIN_BUDGET = 100;

/** No item costs less: its provenance line alone (id, kind, trust, date, source, scope) takes more. */
const MIN_ITEM_TOKENS = 24;

/** Each pool's share of the budget left after the frame. */
export const POOL_SHARE: Readonly<Record<Pool, number>> = {
  corrections: 0.15,
  rules: 0.25,
  commitments: 0.15,
  relevant: 0.45,
};

export const contextInputSchema = z
  .object({
    task: z.string().max(8_000, 'task is longer than 8000 characters').optional(),
    scopes: z.array(scopeSchema).max(50).optional(),
    budget: z.number().int().min(MIN_BUDGET).max(MAX_BUDGET).default(DEFAULT_BUDGET),
    sessionId: z.string().min(1).max(200).optional(),
    /** What "yesterday" or "last month" in the task is relative to (search's `referenceTime`); default now. */
    referenceTime: isoTime('referenceTime').optional(),
    /** Place the best hits' session neighbours (the turn before and after) beside them, within the budget. */
    neighbours: z.boolean().default(true),
  })
  .strict();
export type ContextInput = z.input<typeof contextInputSchema>;

export interface ContextItem {
  /**
   * The memory shown. For a rejection in the corrections pool it is a record of the verdict (kind
   * `correction`, id `evt_…`, body the reviewer's reason), never the rejected claim.
   */
  memory: Memory;
  pool: Pool;
  /** Tokens of its lines in the block. */
  tokens: number;
  why: string;
}

export interface ContextResult {
  markdown: string;
  items: ContextItem[];
  /** Tokens of the whole markdown block (cl100k_base); never more than `budget`. */
  tokens: number;
  budget: number;
  /** Candidates left out because they did not fit their pool's share or nearly repeated an item shown. */
  skipped: number;
  /** Candidates left out because this session was already shown them. */
  suppressed: number;
}

/**
 * @example
 * const { markdown } = await session.context({ task: 'fix the deploy script', scopes: ['project:web'], budget: 1500 });
 */
export async function context(deps: Deps, input: ContextInput = {}): Promise<ContextResult> {
  const f = parseInput(contextInputSchema, input, 'context');
  assertNoSecrets({ sessionId: f.sessionId }); // it is stored, with what the session was shown (I10)
  const filter = readFilter(deps.principal, f.scopes);
  const now = deps.now();
  const label = principalLabel(deps.principal);
  // The session that asks: the caller's own id for it, else the call's (an MCP session, a hook's session).
  const sessionId = f.sessionId ?? deps.ctx.sessionId;
  const query = searchableTask(f.task ?? '');
  const [count, candidates, shown] = await Promise.all([
    tokenCounter(),
    gatherCandidates(deps, {
      query,
      scopes: f.scopes,
      now,
      referenceTime: f.referenceTime,
      neighbours: f.neighbours,
    }),
    sessionId === undefined ? new Set<string>() : deps.store.shownIn(label, sessionId),
  ]);

  const picked = pick(candidates, { count, filter, shown, budget: f.budget, hasTask: query !== null });
  // The pools' token sums are an estimate of the joined text's; the real count has the last word.
  const draw = () => render(picked, query !== null, count, f.budget);
  let markdown = draw();
  let tokens = count(markdown);
  while (tokens > f.budget && picked.items.length > 0) {
    picked.skipped.add(picked.items.pop()!.memory.id);
    markdown = draw();
    tokens = count(markdown);
  }

  const ids = picked.items.map((i) => i.memory.id);
  if (sessionId !== undefined && ids.length > 0) {
    await deps.store.transaction((tx) => tx.recordShown(label, sessionId, ids, now));
  }
  for (const id of ids) deps.trace.targets.add(id);
  return {
    markdown,
    items: picked.items,
    tokens,
    budget: f.budget,
    skipped: picked.skipped.size,
    suppressed: picked.suppressed.size,
  };
}

interface PickOptions {
  count: CountTokens;
  filter: ScopeFilter;
  shown: ReadonlySet<string>;
  budget: number;
  hasTask: boolean;
}

/** Fills the pools in order, each within its share plus what the pools before it left unused. */
function pick(
  candidates: Record<Pool, Candidate[]>,
  o: PickOptions,
): { items: ContextItem[]; skipped: Set<string>; suppressed: Set<string> } {
  const items: ContextItem[] = [];
  const taken = new Set<string>();
  const skipped = new Set<string>();
  const suppressed = new Set<string>();
  const duplicates = new NearDuplicates();
  const available = Math.max(0, o.budget - o.count(`${HEADER}\n${FOOTER}`));
  let carry = 0;
  for (const pool of POOLS) {
    let allowance = Math.floor(available * POOL_SHARE[pool]) + carry;
    const titleCost = o.count(`\n${sectionTitle(pool, o.hasTask)}\n`);
    let titled = false;
    for (const c of candidates[pool]) {
      const id = c.memory.id;
      if (taken.has(id) || !emittable(c.memory, o.filter)) continue;
      if (o.shown.has(id)) {
        suppressed.add(id);
        continue;
      }
      // Once no item could fit, the rest are skipped without tokenizing each one.
      if (allowance < MIN_ITEM_TOKENS) {
        skipped.add(id);
        continue;
      }
      const text = itemText(c.memory, pool, c.why);
      const title = titled ? 0 : titleCost;
      // Skipped, not cut: a shorter candidate after it may still fit. The floor (never above the count)
      // skips most candidates of a full pool without counting them: the same ones the count would skip.
      if (tokenFloor(text) + title > allowance) {
        skipped.add(id);
        continue;
      }
      const tokens = o.count(`${text}\n`);
      const cost = tokens + title;
      if (cost > allowance) {
        skipped.add(id);
        continue;
      }
      // After the fit check: both only skip, so the order changes nothing shown, and most candidates of a
      // full pool fail the fit, which then costs no word sets and no comparisons with every kept item.
      const words = wordSet(
        `${c.memory.body} ${c.memory.value === null ? '' : JSON.stringify(c.memory.value)}`,
      );
      if (duplicates.isDuplicate(words)) {
        skipped.add(id);
        continue;
      }
      allowance -= cost;
      titled = true;
      taken.add(id);
      skipped.delete(id);
      duplicates.keep(words);
      items.push({ memory: c.memory, pool, tokens, why: c.why });
    }
    carry = allowance;
  }
  return { items, skipped, suppressed };
}

/** The egress check, whatever a pool returned: current, inside the caller's grants, no secret (I3, I4, I10). */
function emittable(m: Memory, filter: ScopeFilter): boolean {
  return m.state === 'active' && inFilter(filter, m.scope) && !hasSecret(m);
}

function render(
  picked: { items: ContextItem[]; skipped: Set<string>; suppressed: Set<string> },
  hasTask: boolean,
  count: CountTokens,
  budget: number,
): string {
  const { items } = picked;
  const lines = [HEADER];
  for (const pool of POOLS) {
    const mine = items.filter((i) => i.pool === pool);
    if (mine.length === 0) continue;
    lines.push('', sectionTitle(pool, hasTask));
    for (const i of mine) lines.push(itemText(i.memory, pool, i.why));
  }
  if (items.length === 0) {
    const note = emptyNote({ skipped: picked.skipped.size, suppressed: picked.suppressed.size });
    const empty = [...lines, '', note, FOOTER].join('\n');
    if (count(empty) <= budget) return empty;
  }
  lines.push(FOOTER);
  return lines.join('\n');
}
