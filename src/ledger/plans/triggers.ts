/**
 * Semantic triggers: a commitment surfaces when its words all appear (allowing inflections, as context's rule
 * matching does), one of its subjects is named, or one of its keys is written, in a new memory or a task.
 */
import { normaliseText } from '../../guard/canonical.ts';
import { foldKey } from '../../guard/fingerprint.ts';
import type { Triggers } from '../../model/commitment.ts';

/** What a trigger is tested against: a memory's text, key and subjects, or a context task's text alone. */
export interface TriggerProbe {
  text: string;
  key?: string | null;
  subjects?: readonly string[];
}

/** What matched, in words a `why` line can carry, or null when nothing did. */
export function triggerMatch(triggers: Triggers, probe: TriggerProbe): string | null {
  const words = normaliseText(`${probe.text} ${probe.key ?? ''}`)
    .split(' ')
    .filter(Boolean);
  for (const phrase of triggers.words ?? []) {
    const terms = normaliseText(phrase).split(' ').filter(Boolean);
    if (terms.length > 0 && terms.every((t) => words.some((w) => sameStem(w, t)))) return `words "${phrase}"`;
  }
  for (const subject of triggers.subjects ?? []) {
    if (probe.subjects?.includes(subject)) return `subject ${subject}`;
  }
  const key = probe.key === undefined || probe.key === null ? null : foldKey(probe.key);
  for (const k of triggers.keys ?? []) if (key !== null && foldKey(k) === key) return `key ${k}`;
  return null;
}

/** A word matches a term when they share the term's stem (its first letters, allowing an inflected ending). */
function sameStem(word: string, term: string): boolean {
  const stem = term.length > 4 ? term.slice(0, Math.max(4, term.length - 3)) : term;
  return term.length > 4 ? word.startsWith(stem) : word === term;
}
