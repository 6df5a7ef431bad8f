/**
 * The time a query named ("last month", "in April 2022"), as a preference in ranking: a candidate whose time
 * falls in the interval gains TIME_WEIGHT, the others keep their score. A preference, not a filter: a question
 * that misdates its answer ("in May", when it was June) still finds it, only without the lift.
 */
import type { Deps } from './deps.ts';
import { overlaps, type QueryTime } from './query-time.ts';
import type { RankedHit } from './search.ts';

/** What `why.time` says: the resolved interval, and whether and how much this memory gained from it. */
export interface TimePreference extends QueryTime {
  /** `valid` (its valid time overlaps the interval), `recorded` (no valid time; recorded inside it), or `outside`. */
  match: 'valid' | 'recorded' | 'outside';
  weight: number;
}

/**
 * Tuning half of memledger-v2: 1.5, 2 and 3 score the same (temporal-reference recall@5 0.429, v1 temporal 1.000,
 * from 0.938 unweighted); the smallest is kept, so a misdated question loses least.
 */
export const TIME_WEIGHT = 1.5;
/** Candidates whose times are read: the preference reorders the head of the ranking, where it matters. */
const TIME_CANDIDATES = 200;

/**
 * A memory's time is its valid time when it has one (what was true then), else the instant it was recorded
 * (what was said then): a conversation turn or a note is about the day it was written.
 */
export async function preferTime(deps: Deps, ranked: RankedHit[], time: QueryTime): Promise<RankedHit[]> {
  const head = ranked.slice(0, TIME_CANDIDATES);
  // Search candidates carry only the fields ranking needs; valid time is read for the head alone.
  const rows = await deps.store.getMemories(head.map((h) => h.memory.id));
  const weighed = head.map((hit, i): RankedHit => {
    const m = rows[i];
    let match: TimePreference['match'] = 'outside';
    if (m !== null && m !== undefined) {
      if (m.validStart !== null || m.validEnd !== null) {
        if (overlaps(time, m.validStart, m.validEnd)) match = 'valid';
      } else if (m.recordedAt >= time.from && m.recordedAt < time.to) match = 'recorded';
    }
    const weight = match === 'outside' ? 1 : TIME_WEIGHT;
    return {
      ...hit,
      score: Math.round(hit.score * weight * 1e6) / 1e6,
      why: { ...hit.why, time: { ...time, match, weight } },
    };
  });
  return [...weighed, ...ranked.slice(TIME_CANDIDATES)].sort((a, b) => b.score - a.score);
}
