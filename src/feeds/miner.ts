/**
 * The miner: transcript and note text to candidate memories, by rules and without any model call.
 *
 * - explicit requests from the person: "remember that …", "keep in mind …", "from now on …"
 * - stated preferences and conventions: "always / never …", "I prefer …", "we use …", "don't …"
 * - decisions with their reason: "we decided X because Y", "let's go with X since Y"
 * - an error in a tool's output followed by the assistant saying what fixed it, in words about that error
 *   (src/feeds/error-fix.ts)
 * - in notes, every claim: one per bullet or sentence (src/feeds/notes.ts)
 *
 * Only the person's own lines are read for requests and preferences: tool output (which transcripts store in
 * user lines), a subagent's task prompt and compaction summaries restate other text in other words. Narration,
 * questions and code are dropped by the noise filter, and anything that looks like a credential by the guard.
 */
import { containsSecret } from '../guard/secrets.ts';
import { isDecision, PREFERENCE } from './claim-words.ts';
import { errorLine, fixFor } from './error-fix.ts';
import { asBody, isNoise, sentences } from './noise.ts';
import { blockClaims } from './notes.ts';
import type { Candidate, Entry, MinerState } from './types.ts';

export interface MineResult {
  candidates: Candidate[];
  state: MinerState;
  /** Sentences dropped: by the noise filter, and because they looked like a credential. */
  dropped: { noise: number; secrets: number };
}

/** How many entries an error waits for its fix before it is forgotten. */
const ERROR_PATIENCE = 12;
const MAX_BODY = 600;

export function mine(entry: Entry, state: MinerState = {}): MineResult {
  const out: MineResult = { candidates: [], state: ageError(state), dropped: { noise: 0, secrets: 0 } };
  switch (entry.role) {
    case 'user':
      for (const s of sentences(entry.text)) consider(out, fromPerson(withoutLead(s)));
      break;
    case 'note': {
      const found = blockClaims(entry.text);
      out.dropped.noise += found.dropped.noise;
      out.dropped.secrets += found.dropped.secrets;
      for (const c of found.claims) {
        consider(out, {
          body: c.body,
          kind: c.kind,
          rule: 'note',
          confidence: c.kind === 'note' ? 0.7 : 0.8,
        });
      }
      break;
    }
    case 'assistant': {
      const said = sentences(entry.text);
      said.forEach((s, i) => {
        const fix = out.state.error === undefined ? null : fixFor(s, said[i + 1], out.state.error.line);
        if (fix !== null) {
          consider(out, fix);
          out.state = {};
        } else consider(out, decision(s, 0.6));
      });
      break;
    }
    case 'tool': {
      const line = errorLine(entry);
      if (line !== null) out.state = { error: { line, age: 0 } };
      break;
    }
    default:
      // prompt (an agent's words to a subagent) and summary (a restatement): nothing of the person's own.
      break;
  }
  return out;
}

/** Keeps a candidate unless it is noise or carries something that looks like a secret (I10). */
function consider(out: MineResult, found: Candidate | null | 'noise'): void {
  if (found === null) return;
  if (found === 'noise') {
    out.dropped.noise++;
    return;
  }
  if (containsSecret(found.body)) {
    out.dropped.secrets++;
    return;
  }
  if (found.body.length > MAX_BODY) {
    out.dropped.noise++;
    return;
  }
  if (!out.candidates.some((c) => c.body === found.body && c.kind === found.kind)) out.candidates.push(found);
}

// --- the person's sentences ----------------------------------------------------------------------------------

/** "Also, we use pnpm" states what "We use pnpm" does: discourse openers are not part of the claim. */
const LEAD =
  /^(?:(?:and|also|oh|btw|by the way|fyi|ps|p\.s\.|one more thing|just so you know|actually|and also|oh and)\b[,:]?\s+)+/i;
const withoutLead = (sentence: string): string => sentence.replace(LEAD, '');

const REMEMBER = [
  /\b(?:please\s+)?remember(?:\s+that|\s*:|\s*,)\s+(.+)$/i,
  /\b(?:please\s+)?(?:keep in mind|don't forget|do not forget|make a note|note)(?:\s+that|\s*:)\s+(.+)$/i,
];
/** A standing instruction for what comes next: by nature a rule of how to work, so a preference. */
const FROM_NOW_ON =
  /^(?:going forward|from now on|for future reference|in future sessions|for future sessions)[,:]?\s+(.+)$/i;
const REMEMBER_TO = /\b(?:please\s+)?(?:remember|don't forget|do not forget)\s+to\s+(.+)$/i;

function fromPerson(sentence: string): Candidate | null | 'noise' {
  const request = rememberRequest(sentence);
  if (request !== null) return request;
  const d = decision(sentence, 0.75);
  if (d !== null) return d;
  if (PREFERENCE.some((re) => re.test(sentence))) {
    return isNoise(sentence)
      ? 'noise'
      : { body: asBody(sentence), kind: 'preference', rule: 'preference', confidence: 0.8 };
  }
  return isNoise(sentence) ? 'noise' : null;
}

function rememberRequest(sentence: string): Candidate | null | 'noise' {
  const to = REMEMBER_TO.exec(sentence);
  const standing = to === null ? FROM_NOW_ON.exec(sentence) : null;
  const m = to ?? standing ?? REMEMBER.map((re) => re.exec(sentence)).find((x) => x !== null) ?? null;
  if (m === null) return null;
  const claim = m[1]!.trim();
  if (isNoise(claim) && !(to !== null && claim.split(/\s+/).length >= 2)) return 'noise';
  if (/\?["')\]]?$/.test(claim)) return 'noise';
  const kind =
    to !== null || standing !== null || PREFERENCE.some((re) => re.test(claim))
      ? 'preference'
      : isDecision(claim)
        ? 'decision'
        : 'fact';
  return { body: asBody(claim), kind, rule: 'remember', confidence: 0.9 };
}

function decision(sentence: string, confidence: number): Candidate | null {
  if (!isDecision(sentence) || /\?["')\]]?$/.test(sentence) || sentence.length > 400) return null;
  return { body: asBody(sentence), kind: 'decision', rule: 'decision', confidence };
}

// --- an error and its fix ------------------------------------------------------------------------------------

function ageError(state: MinerState): MinerState {
  if (state.error === undefined) return {};
  const age = state.error.age + 1;
  return age > ERROR_PATIENCE ? {} : { error: { line: state.error.line, age } };
}
