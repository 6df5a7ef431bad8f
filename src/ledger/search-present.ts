/**
 * A query about the present ("what dose am I on now", "where is it kept these days", "her current plan"): the
 * newest of the memories on its topic is the likelier answer, since a later statement updates an earlier one
 * that is still said (a chat's old value, a note nobody superseded). The cue's words are not searched ("now"
 * matches every turn that says it), and the head of the ranking is weighed by time: the newest of its memories
 * gains PRESENT_WEIGHT, the oldest nothing, the others in proportion. A preference, not a filter.
 */
import type { Deps } from './deps.ts';
import type { RankedHit } from './search.ts';

export interface PresentCue {
  /** The words of the query that asked about the present, as written. */
  expression: string;
  /** The query without them (the query itself when nothing else would be left). */
  rest: string;
}

/** Words that ask about the present. "Still" and "anymore" are left out: they ask whether, not which. */
const CUE =
  /\b(?:right now|now|nowadays|currently|these days|at the moment|at present|(?:the )?(?:latest|most recent(?:ly)?|current))\b/i;

const EVERY_CUE = new RegExp(CUE.source, 'gi');

/** The cue in a query, or null: the first is its expression; none of them is searched ("the current plan right now"). */
export function presentCue(text: string): PresentCue | null {
  const m = CUE.exec(text);
  if (m === null) return null;
  const rest = text.replace(EVERY_CUE, ' ').replace(/\s+/g, ' ').trim();
  return { expression: m[0], rest: /[\p{L}\p{N}]/u.test(rest) ? rest : text };
}

/**
 * The newest memory's lift. Whole of memledger-v4 and the tuning halves of v1 and v2, hybrid: 1.25, 1.5 and 2
 * gave the same recall@5 (v4 0.743 → 0.757, knowledge-update 0.684 → 0.789; v1 and v2 unchanged); 1.25 left one
 * answer at fifth place rather than third. 1.5 is also a named time's weight (search-time.ts).
 */
export const PRESENT_WEIGHT = 1.5;
/** The head weighed: the memories on the query's topic, where an older and a newer statement compete (20 scored alike). */
const PRESENT_CANDIDATES = 10;

/**
 * The head reordered by time: a memory's time is when it was recorded, or the start of its valid time when that
 * is later (a plan that takes effect later); one whose valid time has ended is the oldest. Every memory weighed
 * is one the caller can read (the ranking is of readable candidates only, I4), so no weight depends on another
 * scope's memories.
 */
export async function preferPresent(
  deps: Deps,
  ranked: RankedHit[],
  cue: PresentCue,
  now: string,
): Promise<RankedHit[]> {
  const head = ranked.slice(0, PRESENT_CANDIDATES);
  const rows = await deps.store.getMemories(head.map((h) => h.memory.id));
  // A memory whose valid time ended is not about the present: it counts as the oldest.
  const times = head.map((_hit, i) => {
    const m = rows[i];
    if (m === null || m === undefined) return Number.NaN;
    if (m.validEnd !== null && m.validEnd <= now) return Number.NEGATIVE_INFINITY;
    return Date.parse(m.validStart !== null && m.validStart > m.recordedAt ? m.validStart : m.recordedAt);
  });
  const finite = times.filter((t) => Number.isFinite(t));
  if (finite.length < 2) return ranked;
  const oldest = Math.min(...finite);
  const span = Math.max(...finite) - oldest;
  if (span === 0) return ranked;
  const weighed = head.map((hit, i): RankedHit => {
    const t = times[i]!;
    const share = Number.isFinite(t) ? (t - oldest) / span : 0;
    const weight = Math.round((1 + (PRESENT_WEIGHT - 1) * share) * 1e4) / 1e4;
    return {
      ...hit,
      score: Math.round(hit.score * weight * 1e6) / 1e6,
      why: { ...hit.why, present: { expression: cue.expression, weight } },
    };
  });
  return [...weighed, ...ranked.slice(PRESENT_CANDIDATES)].sort((a, b) => b.score - a.score);
}
