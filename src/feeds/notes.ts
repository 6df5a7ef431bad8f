/**
 * Note text to claims, one claim per memory: a bullet is read on its own and a paragraph sentence by sentence,
 * so a paragraph of five facts is five memories. A line that holds a credential is dropped alone and its
 * neighbours kept (the block is cut at it, so no sentence glues across it). Dropped too: narration, questions,
 * tasks, pointers ("see README"), lead-ins to a list, small talk and what happened today (no durable claim).
 *
 * `noteClaims` is the entry point for importers; the folder feed's miner reads each block with `blockClaims`.
 */
import { containsSecret } from '../guard/secrets.ts';
import { DECISION_CHOICE, isDecision, isPreferenceLike } from './claim-words.ts';
import { type NoteBlock, noteBlocks } from './note-blocks.ts';
import { asBody, isNoise } from './noise.ts';
import type { Candidate } from './types.ts';

export interface NoteClaim {
  body: string;
  kind: Candidate['kind'];
  /** 1-based line of the note the claim starts on. */
  line: number;
  /** The nearest heading above it. */
  heading?: string;
}

export interface NoteClaims {
  claims: NoteClaim[];
  /** Sentences dropped as noise, and lines dropped because they looked like a credential. */
  dropped: { noise: number; secrets: number };
}

/**
 * Markdown (front matter, headings, bullets, paragraphs) → one claim per memory, in order.
 * @example noteClaims('The API is versioned by date. The weather was nice today.').claims
 * // [{ body: 'The API is versioned by date.', kind: 'note', line: 1 }]
 */
export function noteClaims(markdown: string): NoteClaims {
  const out: NoteClaims = { claims: [], dropped: { noise: 0, secrets: 0 } };
  for (const block of noteBlocks(markdown)) {
    const found = claimsOf(block);
    out.dropped.noise += found.dropped.noise;
    out.dropped.secrets += found.dropped.secrets;
    out.claims.push(...found.claims);
  }
  return out;
}

/** One block's claims; `text` is a block as the folder feed stores it (lines joined by `\n`, `[ ] ` for a task). */
export function blockClaims(text: string): NoteClaims {
  const task = text.startsWith('[ ] ');
  return claimsOf({ text: task ? text.slice(4) : text, line: 1, ...(task ? { task: true } : {}) });
}

function claimsOf(block: NoteBlock): NoteClaims {
  const out: NoteClaims = { claims: [], dropped: { noise: 0, secrets: 0 } };
  if (block.task === true) {
    out.dropped.noise++;
    return out;
  }
  const seen = new Set<string>();
  for (const segment of segments(block, out)) {
    for (const s of splitSentences(segment.text)) {
      const claim = claimOf(s.text);
      if (claim === null) {
        out.dropped.noise++;
        continue;
      }
      if (containsSecret(claim.body)) {
        out.dropped.secrets++;
        continue;
      }
      if (seen.has(claim.body)) continue;
      seen.add(claim.body);
      out.claims.push({
        ...claim,
        line: block.line + segment.lineAt(s.at),
        ...(block.heading === undefined ? {} : { heading: block.heading }),
      });
    }
  }
  return out;
}

interface Segment {
  text: string;
  /** The block line (0-based) a character offset of `text` falls on. */
  lineAt: (offset: number) => number;
}

/**
 * The block's lines joined back into running text, cut at every line that holds a credential (and at a private
 * key's armour), and with a nested list folded into its lead-in: "headers: a, b, c".
 */
function segments(block: NoteBlock, out: NoteClaims): Segment[] {
  const lines = block.text.split('\n');
  const result: Segment[] = [];
  let parts: { text: string; line: number; at: number }[] = [];
  let length = 0;
  const cut = () => {
    if (parts.length > 0) {
      const text = parts.map((p) => p.text).join(' ');
      const starts = parts.slice();
      result.push({ text, lineAt: (offset) => lineOf(starts, offset) });
    }
    parts = [];
    length = 0;
  };
  let armour = false;
  lines.forEach((raw, n) => {
    const line = raw.trim();
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(line)) armour = true;
    if (armour) {
      if (/-----END [A-Z ]*PRIVATE KEY-----/.test(line)) armour = false;
      out.dropped.secrets++;
      cut();
      return;
    }
    if (containsSecret(line)) {
      // Only the sentences of the line that hold it go; the rest of the line stays, cut apart from them.
      for (const s of splitSentences(line)) {
        if (containsSecret(s.text)) {
          out.dropped.secrets++;
          cut();
        } else {
          parts.push({ text: s.text, line: n, at: length });
          length += s.text.length + 1;
        }
      }
      return;
    }
    const item = /^- (.*)$/.exec(line);
    if (item !== null && n > 0 && parts.length > 0) {
      // A nested item: appended to its lead-in as a comma list.
      const last = parts[parts.length - 1]!;
      const joined = `${last.text.replace(/,?$/, '')}${/:$/.test(last.text) ? ' ' : ', '}${item[1]!.replace(/[.;,]$/, '')}`;
      length += joined.length - last.text.length;
      last.text = joined;
      return;
    }
    // An item whose lead-in was cut away (a secret line) stands alone, without its marker.
    const text = item === null ? line : item[1]!;
    if (parts.length > 0 && endsUnwrapped(parts[parts.length - 1]!.text, text)) cut();
    parts.push({ text, line: n, at: length });
    length += text.length + 1;
  });
  cut();
  return result;
}

/** The line of the last part starting at or before `offset` (parts are in offset order). */
function lineOf(parts: readonly { line: number; at: number }[], offset: number): number {
  let lo = 0;
  let hi = parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (parts[mid]!.at <= offset) lo = mid;
    else hi = mid - 1;
  }
  return parts[lo]?.line ?? 0;
}

/** Words a hard-wrapped line ends on when its sentence goes on: the next line is not a new item. */
const GOES_ON =
  /\b(?:the|a|an|of|to|in|on|for|and|or|but|with|from|by|at|is|are|was|were|be|that|as|if|when|into|than|its|their|our|your|this|these)$/i;

/**
 * Lines written as a list without markers ("Rebase onto main" / "Merge with fast-forward"): a line with no end
 * stop followed by one that starts with a capital is its own item, unless it ends on a word a sentence cannot
 * end on (a hard wrap: "rebuilt from the" / "OpenAPI spec").
 */
function endsUnwrapped(previous: string, next: string): boolean {
  return !/[.!?:;,]$/.test(previous) && /^[A-Z]/.test(next) && !GOES_ON.test(previous);
}

/** Sentences with the offset each starts at: a stop, then a space, then a capital, a digit, a quote or code. */
function splitSentences(text: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  const boundary = /(?<=[.!?])\s+(?=["'“([`]?[A-Z0-9`])/g;
  let from = 0;
  for (const m of text.matchAll(boundary)) {
    out.push({ text: text.slice(from, m.index), at: from });
    from = m.index + m[0].length;
  }
  out.push({ text: text.slice(from), at: from });
  return out.map((s) => ({ text: s.text.trim(), at: s.at })).filter((s) => s.text !== '');
}

// --- one sentence --------------------------------------------------------------------------------------------

/** Markup a note's sentence carries that is not part of the claim. */
function clean(sentence: string): string {
  return sentence
    .replace(/^\d{4}-\d{2}-\d{2}:?\s+/, '') // a date the line was written on
    .replace(/^\[[a-z][a-z _-]*\]\s+/i, '') // a Basic Memory observation's category
    .replace(/(?:\s+#[\p{L}\p{N}_/-]+)+\s*$/u, '') // trailing #tags
    .replace(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_, target: string, alias?: string) => alias ?? target)
    .replace(/\[([^\]]+)\]\((?:[^)]+)\)/g, '$1')
    .replace(/^(?:learned|learnt|found out|noticed|realised|realized|note|fyi|reminder)(?: that|:)\s+/i, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Nothing to keep: what happened today, small talk, moods, opinions. */
const FILLER = [
  /\b(?:today|tonight|this (?:morning|afternoon|evening)|yesterday|last night|right now)\b/i,
  /\b(?:weather|sunny|rainy|raining|snowing|lunch|breakfast|dinner|coffee|tea break|good mood|bad mood|tired|sleepy|went well)\b/i,
  /^(?:i|we) (?:think|guess|feel|felt|believe|suppose|hope|wonder)\b/i,
  /^(?:feeling|rainy|sunny|cold|hot|nice|lovely|busy|long) \w+/i,
];
/** What someone did, not what is so: "I looked at…", "We met…". */
const ACTIVITY =
  /^(?:i|we|they)\s+(?:(?:also|just|then|finally|briefly)\s+)?(?:met|looked|checked|tried|talked|spent|went|had|started|finished|found|saw|read|spoke|discussed|worked|took|called|wrote|reviewed|played|walked)\b/i;
/** A pointer elsewhere, a to-do, a label for what follows, a note about the file itself. */
const NOT_A_CLAIM = [
  /^(?:todo|to do|fixme|tbd|wip|xxx)\b/i,
  /^see\b.*\b(?:for|details|more)\b/i,
  /\b(?:to get started|for (?:more|full|further) (?:details|information|info))\b/i,
  /:$/,
  /^this (?:file|document|page|section|note|readme)\b/i,
  /^\w+(?:_\w+)*\s+\[\[[^\]]+\]\]$/, // a Basic Memory relation: relates_to [[Other]]
];

/**
 * A shell command written outside a code fence: a command word and its arguments, or a trailing `  # comment`.
 * Only a lower-case start counts, and not before a verb: "npm is the package manager" is prose, "git gtr
 * list" is a command.
 */
const COMMAND =
  /^(?:git|npm|npx|pnpm|yarn|bun|deno|cd|ls|cat|make|docker|kubectl|helm|node|python3?|pip|uv|cargo|go|mix|curl|wget|gh|brew|apt(?:-get)?|sudo|export|tmux|bd|ssh|scp|rm|mv|cp|mkdir)\s+(?!(?:is|are|was|were|has|have|does|do|runs|uses|needs|must|should|can|will|may)\b)\S+/;
const SHELL_COMMENT = /\S\s{2,}#\s/;

function claimOf(raw: string): Omit<NoteClaim, 'line'> | null {
  if (NOT_A_CLAIM.some((re) => re.test(raw.trim()))) return null;
  if (COMMAND.test(raw.trim()) || SHELL_COMMENT.test(raw)) return null;
  const s = clean(raw);
  if (s === '' || /^["“'‘][^"”'’]*["”'’][.,]?$/.test(s)) return null; // a quotation on its own
  if (isNoise(s)) return null;
  if (NOT_A_CLAIM.some((re) => re.test(s))) return null;
  const decision = isDecision(s) || DECISION_CHOICE.test(s);
  const preference = !decision && isPreferenceLike(s);
  if (!decision && !preference && (FILLER.some((re) => re.test(s)) || ACTIVITY.test(s))) return null;
  const kind: Candidate['kind'] = decision ? 'decision' : preference ? 'preference' : 'note';
  return { body: asBody(s), kind };
}
