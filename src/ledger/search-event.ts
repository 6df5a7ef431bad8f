/**
 * Time named by an event ("before the move", "after my promotion", "since the reorg"): the event is looked up
 * as a search of its own words within the caller's readable scopes, and the time of the best memory that holds
 * every one of them (its valid time, else when it was recorded) opens the interval on one side. The interval is
 * used as every query time is, a preference (search-time.ts), so a wrong guess reorders and never hides; the
 * result shows the interval and the memory it came from (`time.anchor`). Only when the query names no
 * calendar time (query-time.ts), and never on an as-of or valid-time read (the event's time would be now's).
 */
import { buildFtsQuery } from '../guard/fts-query.ts';
import { MemoryError } from '../model/errors.ts';
import type { Deps } from './deps.ts';
import { OPEN_END, OPEN_START, type QueryTime } from './query-time.ts';
import type { RankedHit } from './search.ts';

/** The determiners an event phrase starts with: "the move", "my promotion", not "before merging" (a condition). */
const EVENT =
  /\b(before|after|since|prior to)\s+((?:the|my|our|your|his|her|their)\s+[\p{L}\p{N}][\p{L}\p{N}'’-]*(?:\s+[\p{L}\p{N}][\p{L}\p{N}'’-]*){0,3})/iu;
/** Words that end an event phrase: what follows them is the rest of the question, not the event. */
const ENDS = new Set([
  'and',
  'or',
  'but',
  'when',
  'while',
  'did',
  'do',
  'does',
  'was',
  'were',
  'is',
  'are',
  'i',
  'we',
]);
/** Verbs that make "after" part of the verb, not time: "who looks after the interns", "named after the founder". */
const PHRASAL =
  /\b(?:look|looks|looked|looking|take|takes|took|taking|named|go|goes|went|going|run|runs|ran|running|come|comes|came)\s+$/i;
/** How far down the event's own ranking its anchor may be: the best few, or none. */
const ANCHOR_FROM = 3;

export interface EventReference {
  /** The words as written, relation included ("before the move"). */
  expression: string;
  side: 'before' | 'after';
  /** The event's words ("the move"). */
  event: string;
  /** The query without the relation word: what is searched (the event's own words still are). */
  rest: string;
}

/** The first event reference in a query, or null. */
export function eventReference(query: string): EventReference | null {
  const m = EVENT.exec(query);
  if (m === null || PHRASAL.test(query.slice(0, m.index))) return null;
  const words = m[2]!.split(/\s+/);
  const cut = words.findIndex((w, i) => i > 0 && ENDS.has(w.toLowerCase()));
  const event = (cut < 0 ? words : words.slice(0, cut)).join(' ');
  const relation = m[1]!.toLowerCase();
  const rest = `${query.slice(0, m.index)} ${query.slice(m.index + m[1]!.length)}`
    .replace(/\s+/g, ' ')
    .trim();
  return {
    expression: `${m[1]} ${event}`,
    side: relation === 'after' || relation === 'since' ? 'after' : 'before',
    event,
    rest,
  };
}

/**
 * The interval an event reference names, from the best of the event's own ranking (text only, the search's
 * own scopes and filters) that holds all its words and is current; null when none does.
 */
export async function eventTime(
  deps: Deps,
  ref: EventReference,
  rankText: (text: ReturnType<typeof buildFtsQuery>) => Promise<RankedHit[]>,
): Promise<QueryTime | null> {
  let words: ReturnType<typeof buildFtsQuery>;
  try {
    words = buildFtsQuery(ref.event);
  } catch (error) {
    if (error instanceof MemoryError) return null; // only stopwords ("before the one"): no event to look up
    throw error;
  }
  const ranked = await rankText(words);
  const anchor = ranked.slice(0, ANCHOR_FROM).find((h) => h.why.matched.length === words.terms.length);
  if (anchor === undefined) return null;
  const [row] = await deps.store.getMemories([anchor.memory.id]);
  if (row === null || row === undefined || row.state !== 'active') return null;
  const at = row.validFrom ?? row.recordedAt;
  deps.trace.targets.add(row.id);
  // The event itself is on neither side: "before" ends at it (exclusive), "after" starts just past it.
  return ref.side === 'before'
    ? { expression: ref.expression, from: OPEN_START, to: at, anchor: row.id }
    : { expression: ref.expression, from: justAfter(at), to: OPEN_END, anchor: row.id };
}

const justAfter = (iso: string): string => new Date(Date.parse(iso) + 1).toISOString();
