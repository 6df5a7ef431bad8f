/**
 * The turn said just after a found turn, ranked with it: in a conversation the answer is often the reply to the
 * turn that holds the question's words ("the checkout test is flaky again" is found; "the coupon step's mock
 * expired" is what was asked), and shares none of them. Context assembly already places neighbours beside the
 * first hits; this lets search itself return the reply, with an embedder only (a home without one searches
 * exactly as before).
 */
import type { Deps } from './deps.ts';
import { neighboursOf } from './neighbours.ts';
import type { RankedHit } from './search.ts';

/** The first this many hits bring their replies (tuning halves: the first 3, 5 and 10 scored alike). */
const REPLY_FROM = 5;
/**
 * A reply's score is its hit's times this: below the hit it answers, above what matched the question weakly.
 * Tuning halves of v1 and v2 (simulated on the fused rankings, then run): 0.7, 0.8 and 0.85 alike (v2
 * next-turn recall@5 0.143 → 0.786, temporal-reference 0.429 → 0.714, every other category as it was); 0.6
 * lifted fewer replies (next-turn 0.643); 0.9 pushed a multi-hop query's second memory from fifth to sixth.
 */
export const REPLY_WEIGHT = 0.75;

export interface ReplyFilters {
  scopes: string[] | undefined;
  kinds: string[] | undefined;
  subject: string | undefined;
  key: string | undefined;
}

/**
 * The ranking with the readable replies of its first REPLY_FROM hits that are turns merged in at REPLY_WEIGHT of their hit's
 * score (a reply already ranked keeps the better of the two). The neighbours read applies what every read
 * applies (current, in the caller's grants and named scopes, no secret: neighbours.ts), and a reply must pass
 * the search's own filters (kinds, subject, key), so no reply is one the search could not have returned.
 */
export async function withReplies(
  deps: Deps,
  ranked: RankedHit[],
  filters: ReplyFilters,
): Promise<RankedHit[]> {
  // Turns only: an episode (what was said or happened) followed by an episode of the same session. Notes and
  // facts an agent writes one after another in a session are separate statements, not replies to each other.
  const rows = await deps.store.getMemories(ranked.slice(0, REPLY_FROM).map((h) => h.memory.id));
  const head = ranked.slice(0, REPLY_FROM).filter((_, i) => rows[i]?.kind === 'episode');
  if (head.length === 0) return ranked;
  const around = await neighboursOf(
    deps,
    head.map((h) => h.memory.id),
    filters.scopes,
  );
  const byId = new Map(ranked.map((h) => [h.memory.id, h]));
  for (const hit of head) {
    const reply = around.get(hit.memory.id)?.after ?? null;
    if (reply === null || reply.kind !== 'episode') continue;
    if (filters.kinds !== undefined && !filters.kinds.includes(reply.kind)) continue;
    if (filters.subject !== undefined && !reply.subjects.includes(filters.subject)) continue;
    if (filters.key !== undefined && reply.key !== filters.key) continue;
    const score = Math.round(hit.score * REPLY_WEIGHT * 1e6) / 1e6;
    const seen = byId.get(reply.id);
    if (seen !== undefined && seen.score >= score) continue;
    byId.set(reply.id, {
      memory: reply,
      score,
      why: {
        matched: seen?.why.matched ?? [],
        text: seen?.why.text ?? 0,
        trust: reply.trust,
        trustWeight: seen?.why.trustWeight ?? 1,
        confidenceWeight: seen?.why.confidenceWeight ?? 1,
        recencyWeight: seen?.why.recencyWeight ?? 1,
        replyTo: hit.memory.id,
      },
    });
  }
  return [...byId.values()].sort(
    (a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0),
  );
}
