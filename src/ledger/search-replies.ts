/**
 * The turn said just after a found turn, ranked with it: in a conversation the answer is often the reply to the
 * turn that holds the question's words ("the checkout test is flaky again" is found; "the coupon step's mock
 * expired" is what was asked), and shares none of them. When that reply is itself a question or chatter ("Where
 * instead?", "Brave of him."), it is weighed by its shape as any memory is, and the turn after it, which
 * answers it, is ranked too. Context assembly already places neighbours beside the first hits; this lets search
 * itself return the reply, with an embedder only (a home without one searches exactly as before).
 */
import type { Memory } from '../model/memory.ts';
import type { Deps } from './deps.ts';
import { neighboursOf } from './neighbours.ts';
import { SHAPE_WEIGHT, shapeOf } from './rank-shape.ts';
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
 * The ranking with the readable replies of its first REPLY_FROM hits that are turns merged in at REPLY_WEIGHT of
 * their hit's score, times the reply's own shape weight (a question 0.3, chatter 0.15: rank-shape.ts); after a
 * reply that is a question or chatter, the turn that follows it at REPLY_WEIGHT² of the hit's score, times its
 * shape weight. A reply already ranked keeps the better of its two scores. Tuning halves of v1 and v2 and the
 * chat set v4 (README "Retrieval evaluation"): v4 recall@5 0.708 → 0.740 (multi-scope 0.813 → 0.875,
 * paraphrase 0.556 → 0.611, temporal-reference 0.722 → 0.778), v1 and v2 as they were; the second turn at
 * REPLY_WEIGHT (0.740 → 0.733) or REPLY_WEIGHT × 0.5 (0.736) scored lower; shape weights alone gave 0.715.
 * The neighbours read applies what every read applies (current, in the caller's grants and named scopes, no
 * secret: neighbours.ts), and a reply must pass the search's own filters (kinds, subject, key), so no reply is
 * one the search could not have returned.
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
  const byId = new Map(ranked.map((h) => [h.memory.id, h]));
  // A reply that asks back or only acknowledges is answered by the turn after it: that turn is read next.
  const asked: { after: Memory; score: number }[] = [];
  const replies = await repliesOf(
    deps,
    head.map((h) => ({ turn: h.memory, score: h.score })),
    filters,
  );
  for (const { reply, after, score } of replies) {
    merge(byId, reply, score, after.id);
    if (shapeOf(reply.body) !== null) asked.push({ after: reply, score: score / weightOf(reply) });
  }
  for (const { reply, after, score } of await repliesOf(
    deps,
    asked.map((a) => ({ turn: a.after, score: a.score })),
    filters,
  )) {
    merge(byId, reply, score, after.id);
  }
  return [...byId.values()].sort(
    (a, b) => b.score - a.score || (a.memory.id < b.memory.id ? -1 : a.memory.id > b.memory.id ? 1 : 0),
  );
}

/** A reply's shape weight: 1 for a statement, SHAPE_WEIGHT for a question or chatter. */
function weightOf(memory: Pick<Memory, 'body'>): number {
  const shape = shapeOf(memory.body);
  return shape === null ? 1 : SHAPE_WEIGHT[shape];
}

/** The readable reply of each turn that passes the search's filters, scored REPLY_WEIGHT × its turn's score × its shape. */
async function repliesOf(
  deps: Deps,
  turns: { turn: Pick<Memory, 'id'>; score: number }[],
  filters: ReplyFilters,
): Promise<{ reply: Memory; after: Pick<Memory, 'id'>; score: number }[]> {
  if (turns.length === 0) return [];
  const around = await neighboursOf(
    deps,
    turns.map((t) => t.turn.id),
    filters.scopes,
  );
  const out: { reply: Memory; after: Pick<Memory, 'id'>; score: number }[] = [];
  for (const { turn, score } of turns) {
    const reply = around.get(turn.id)?.after ?? null;
    if (reply === null || reply.kind !== 'episode') continue;
    if (filters.kinds !== undefined && !filters.kinds.includes(reply.kind)) continue;
    if (filters.subject !== undefined && !reply.subjects.includes(filters.subject)) continue;
    if (filters.key !== undefined && reply.key !== filters.key) continue;
    out.push({ reply, after: turn, score: Math.round(score * REPLY_WEIGHT * weightOf(reply) * 1e6) / 1e6 });
  }
  return out;
}

/** Ranks a reply at `score` unless it already ranks as high. */
function merge(byId: Map<string, RankedHit>, reply: Memory, score: number, replyTo: string): void {
  const seen = byId.get(reply.id);
  if (seen !== undefined && seen.score >= score) return;
  const shape = shapeOf(reply.body);
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
      ...(shape === null ? {} : { shape, shapeWeight: SHAPE_WEIGHT[shape] }),
      replyTo,
    },
  });
}
