/** Credential detector (I10): finds secret-shaped text so writes can refuse it and previews can mask it. */
import { base64Runs, decodeText, hasRun, type Run } from './secret-base64.ts';
import { DETECTORS, type Detector } from './secret-formats.ts';

export interface SecretFinding {
  /** Which format matched, e.g. `github-token`; `maskSecrets` renders it as `[secret:<kind>]`. */
  kind: string;
  /** Offset of the secret itself (UTF-16 units). A label or URL around it is not part of the span. */
  start: number;
  /** End offset, exclusive. */
  end: number;
  /** Set when the secret was found by decoding base64: the span is then the whole encoded run. */
  encoding?: 'base64';
}

/** First secret-shaped span in the text, or null. */
export function findSecret(text: string): SecretFinding | null {
  return earliest(findings(text, true, 0));
}

/** Convenience. */
export function containsSecret(text: string): boolean {
  return findSecret(text) !== null;
}

/** Replaces every secret-shaped span with `[secret:<kind>]` (used to mask audit previews and reads). */
export function maskSecrets(text: string): string {
  const found = findings(text, false, 0);
  if (found.length === 0) return text;
  // Earliest first; at one offset the first found, so a rejoined token (found before the rest) masks whole
  // and the table order names the kind (`token: ghp_...` is a `github-token`). The sort is stable. Spans
  // that overlap one already masked are dropped.
  found.sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const finding of found) {
    if (finding.start < cursor) continue;
    out += text.slice(cursor, finding.start) + `[secret:${finding.kind}]`;
    cursor = finding.end;
  }
  return out + text.slice(cursor);
}

// ---- the fast path ---------------------------------------------------------------------------------

/**
 * Every detector's anchor in one pattern. The detectors cost a scan each (about 10 µs for a typical body);
 * this costs one and clears the plain prose that most memories are. A text it matches still runs every
 * detector, so it never decides that something is a secret, only that nothing can be.
 */
const ANCHORS = [...new Set(DETECTORS.map((d) => d.anchor))].join('|');
const GATE = new RegExp(ANCHORS, 'i');

/**
 * Characters that render as nothing, so they can sit inside a token unseen: the soft hyphen, zero-width
 * spaces and joiners, the word joiner and invisible operators, bidirectional controls, variation selectors,
 * the byte-order mark, Hangul fillers and the tag characters of "ASCII smuggling" (U+E0000–U+E007F).
 */
const INVISIBLE_SOURCE =
  '[\\u00AD\\u034F\\u061C\\u115F\\u1160\\u17B4\\u17B5\\u180B-\\u180F\\u200B-\\u200F\\u202A-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\u3164\\uFE00-\\uFE0F\\uFEFF\\uFFA0]|\\uDB40[\\uDC00-\\uDC7F\\uDD00-\\uDDEF]';
const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'g');
const HAS_INVISIBLE = new RegExp(INVISIBLE_SOURCE);

/**
 * The one regular expression every text pays (a scan, about 0.35 µs for a plain sentence): an anchor or an
 * invisible character. Base64 runs are found by a plain loop (`hasRun`), cheaper than any pattern for them.
 */
const QUICK = new RegExp(`${ANCHORS}|${INVISIBLE_SOURCE}`, 'i');

/** Base64 inside base64 is decoded once more; deeper nesting is not followed (each level costs a pass). */
const MAX_DEPTH = 2;

/**
 * Findings in `text`: the formats on the text as it reads once invisible characters are dropped, tokens
 * rejoined where a line break or spaces split them, and secrets inside base64. With `firstOnly`, only each
 * detector's first match (enough for `findSecret`, which wants the earliest).
 */
function findings(text: string, firstOnly: boolean, depth: number): SecretFinding[] {
  const quick = QUICK.test(text);
  if (!quick && (depth >= MAX_DEPTH || !hasRun(text))) return [];
  const view = quick ? visible(text) : { text, at: null };
  const t = view.text;
  const runs = depth < MAX_DEPTH && hasRun(t) ? base64Runs(t) : [];
  const out: SecretFinding[] = [];
  // Without invisible characters, QUICK matched an anchor, so GATE would too.
  if (quick && (view.at === null || GATE.test(t))) {
    out.push(...splitTokens(t));
    // With `firstOnly`, a detector's first match is enough: its later ones start later still.
    for (const detector of DETECTORS) scan(t, detector, firstOnly, out);
  }
  if (runs.length > 0) {
    const before = firstOnly ? (earliest(out)?.start ?? Number.POSITIVE_INFINITY) : Number.POSITIVE_INFINITY;
    out.push(...encoded(runs, depth, before));
  }
  return view.at === null ? out : out.map((f) => restore(f, view.at as number[]));
}

function earliest(found: SecretFinding[]): SecretFinding | null {
  let first: SecretFinding | null = null;
  for (const f of found) if (first === null || f.start < first.start) first = f;
  return first;
}

/**
 * Appends the detector's matches (only its first with `firstOnly`) to `out`. `exec` on the shared pattern, not
 * `matchAll`: that clones the pattern on every call, which cost more than the scan on short texts.
 */
function scan(text: string, detector: Detector, firstOnly: boolean, out: SecretFinding[]): void {
  const { pattern } = detector;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
    let span = match.indices?.[0];
    const groups = match.indices?.groups;
    if (groups) span = Object.values(groups).find((g) => g !== undefined) ?? span;
    if (!span) continue;
    const [start, end] = span;
    if (detector.accept && !detector.accept(text.slice(start, end))) continue;
    out.push({ kind: detector.kind, start, end });
    if (firstOnly) break;
  }
  pattern.lastIndex = 0;
}

// ---- invisible characters ----------------------------------------------------------------------------

/** The text without invisible characters, and where each of its characters sits in the original (or null). */
function visible(text: string): { text: string; at: number[] | null } {
  if (!HAS_INVISIBLE.test(text)) return { text, at: null };
  const at: number[] = [];
  let out = '';
  let last = 0;
  for (const m of text.matchAll(INVISIBLE)) {
    for (let i = last; i < m.index; i++) at.push(i);
    out += text.slice(last, m.index);
    last = m.index + m[0].length;
  }
  for (let i = last; i < text.length; i++) at.push(i);
  at.push(text.length);
  return { text: out + text.slice(last), at };
}

/** A finding in the visible text, mapped back onto the original: it covers the invisible characters inside it. */
function restore(f: SecretFinding, at: number[]): SecretFinding {
  return { ...f, start: at[f.start] ?? f.start, end: (at[f.end - 1] ?? f.end - 1) + 1 };
}

// ---- tokens split by a line break or spaces ---------------------------------------------------------------

/** Where a token with a known prefix starts: only these are rejoined, so prose is never glued together. */
const SPLIT_PREFIX =
  /(?<![A-Za-z0-9_-])(?:gh[pousr]_|github_pat_|A[KS]IA|mlk_|sk-|xox[abposr]-|xapp-|[sr]k_(?:live|test)_|AIza|gl(?:pat|ptt|dt|rt)-|npm_|hf_|api_org_|SG\.|eyJ)/g;
const PIECE = /[A-Za-z0-9_+/=.-]+/y;
/** A line break (a shell's `\` continuation too) with its indentation, or up to three spaces. */
const BREAK = /[ \t]{0,3}\\?\r?\n[ \t]{0,40}|[ \t]{1,3}/y;
const MAX_PIECES = 16;
const MAX_JOINED = 400;

/**
 * Tokens a terminal wrapped, an editor broke or a writer spaced out: from each known prefix, the pieces that
 * follow across breaks are joined while each looks like a fragment of a random string (a digit, or mixed case
 * past its first letter, which words and sentences lack), and the formats run on the joined text. A finding
 * that starts at the prefix and reaches past the first piece spans the pieces in the original text.
 */
function splitTokens(text: string): SecretFinding[] {
  const out: SecretFinding[] = [];
  let joinedUntil = 0;
  for (const prefix of text.matchAll(SPLIT_PREFIX)) {
    // A prefix inside pieces already joined was searched with them: each character is joined once.
    if (prefix.index < joinedUntil) continue;
    PIECE.lastIndex = prefix.index;
    const first = PIECE.exec(text);
    if (first === null) continue;
    const pieces = [{ from: prefix.index, at: 0 }];
    let joined = first[0];
    let pos = prefix.index + joined.length;
    while (pieces.length < MAX_PIECES && joined.length < MAX_JOINED) {
      BREAK.lastIndex = pos;
      const gap = BREAK.exec(text);
      if (gap === null) break;
      PIECE.lastIndex = pos + gap[0].length;
      const piece = PIECE.exec(text);
      if (piece === null || !fragmentLike(piece[0])) break;
      pieces.push({ from: piece.index, at: joined.length });
      joined += piece[0];
      pos = piece.index + piece[0].length;
    }
    if (pieces.length === 1) continue;
    joinedUntil = pos;
    for (const detector of DETECTORS) {
      const found: SecretFinding[] = [];
      scan(joined, detector, true, found);
      const end = found[0]?.start === 0 ? found[0].end : 0;
      if (end <= first[0].length) continue;
      const last = pieces.findLast((p) => p.at < end) ?? pieces[0]!;
      out.push({ kind: detector.kind, start: prefix.index, end: last.from + (end - last.at) });
      break;
    }
  }
  return out;
}

function fragmentLike(piece: string): boolean {
  return /[0-9]/.test(piece) || (/[a-z]/.test(piece) && /.[A-Z]/.test(piece));
}

// ---- base64 -----------------------------------------------------------------------------------------

/**
 * Secrets inside base64 (a Kubernetes secret, a pasted `echo ... | base64`, an encoded key pair): each run
 * that decodes to text is searched like any text, one level deeper; a finding masks the whole run. Runs that
 * start at or after `before` are skipped (the caller has an earlier finding already).
 */
function encoded(runs: Run[], depth: number, before: number): SecretFinding[] {
  const out: SecretFinding[] = [];
  for (const run of runs) {
    if (run.start >= before) break;
    const decoded = decodeText(run.text);
    if (decoded === null) {
      // Lines that only look wrapped (a blob above a SHA): each is judged alone.
      if (run.lines.length > 0) out.push(...encoded(run.lines, depth, before));
      continue;
    }
    const inner = earliest(findings(decoded, true, depth + 1));
    if (inner !== null) out.push({ kind: inner.kind, start: run.start, end: run.end, encoding: 'base64' });
  }
  return out;
}
