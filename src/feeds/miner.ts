/**
 * The miner: transcript and note text to candidate memories, by rules and without any model call.
 *
 * - explicit requests from the person: "remember that …", "keep in mind …", "from now on …"
 * - stated preferences and conventions: "always / never …", "I prefer …", "we use …", "don't …"
 * - decisions with their reason: "we decided X because Y", "let's go with X since Y"
 * - an error in a tool's output followed by the assistant saying what fixed it
 *
 * Only the person's own lines are read for requests and preferences: tool output (which transcripts store in
 * user lines), a subagent's task prompt and compaction summaries restate other text in other words. Narration,
 * questions and code are dropped by the noise filter, and anything that looks like a credential by the guard.
 */
import { containsSecret } from '../guard/secrets.ts';
import { asBody, isNoise, sentences } from './noise.ts';
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
    case 'note':
      for (const s of noteSentences(entry.text)) consider(out, fromNote(s));
      break;
    case 'assistant':
      for (const s of sentences(entry.text)) {
        const fix = out.state.error === undefined ? null : fixFor(s, out.state.error.line);
        if (fix !== null) {
          consider(out, fix);
          out.state = {};
        } else consider(out, decision(s, 0.6));
      }
      break;
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
  /^(?:going forward|from now on|for future reference|in future sessions|for future sessions)[,:]?\s+(.+)$/i,
];
const REMEMBER_TO = /\b(?:please\s+)?(?:remember|don't forget|do not forget)\s+to\s+(.+)$/i;

const PREFERENCE = [
  /^(?:please\s+)?(?:always|never)\s+\w+/i,
  /^(?:(?:we|you|i)\s+(?:should\s+|must\s+)?)(?:always|never)\s+\w+/i,
  /\b(?:we|you)\s+(?:always|never)\s+\w+/i,
  /^i\s+(?:really\s+|strongly\s+|generally\s+)?(?:prefer|like|want|hate|dislike|don't like|do not like)\s+\w+/i,
  /^we\s+(?:always\s+|usually\s+|generally\s+)?prefer\s+\w+/i,
  /^my\s+preference\s+is\b/i,
  /^we\s+(?:use|don't use|do not use|never use|rely on|standardi[sz]e on|follow|stick to|deploy (?:with|to|on)|name|keep|run|host|write)\s+\S+/i,
  /^(?:our|the)\s+(?:convention|rule|standard|policy|style|preference)\s+(?:here\s+)?(?:is|for\s+\S+\s+is)\b/i,
  /^(?:please\s+)?(?:don't|do not)\s+(?:ever\s+)?(?:use|add|commit|push|run|call|write|import|touch|modify|change|edit|delete|rename|merge|deploy|mock)\s+\S+/i,
  /^(?:please\s+)?(?:use|prefer)\s+.+\s+(?:instead of|rather than|over)\s+\S+/i,
];

const DECISION = [
  /\b(?:we|i|they|the team)\s+(?:have\s+|had\s+|finally\s+|eventually\s+)?(?:decided|chose|agreed|settled on|went with|opted|picked)\b.+\b(?:because|since|so that|due to|given that)\b.+/i,
  /^(?:let's|let us)\s+go with\s+.+\s+(?:because|since|so that)\s+.+/i,
  /\bwe(?:'re| are)\s+going with\s+.+\s+(?:because|since|so that)\s+.+/i,
  /^decision:\s*.+\b(?:because|since|so that|due to)\b.+/i,
];

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
  const m = to ?? REMEMBER.map((re) => re.exec(sentence)).find((x) => x !== null) ?? null;
  if (m === null) return null;
  const claim = m[1]!.trim();
  if (isNoise(claim) && !(to !== null && claim.split(/\s+/).length >= 2)) return 'noise';
  if (/\?["')\]]?$/.test(claim)) return 'noise';
  const kind =
    to !== null || PREFERENCE.some((re) => re.test(claim))
      ? 'preference'
      : isDecision(claim)
        ? 'decision'
        : 'fact';
  return { body: asBody(claim), kind, rule: 'remember', confidence: 0.9 };
}

const isDecision = (s: string): boolean => DECISION.some((re) => re.test(s));

function decision(sentence: string, confidence: number): Candidate | null {
  if (!isDecision(sentence) || /\?["')\]]?$/.test(sentence) || sentence.length > 400) return null;
  return { body: asBody(sentence), kind: 'decision', rule: 'decision', confidence };
}

// --- notes ---------------------------------------------------------------------------------------------------

/** A bullet is one claim; a paragraph is read sentence by sentence. */
function noteSentences(unit: string): string[] {
  return unit.length <= 300 ? [unit] : sentences(unit);
}

function fromNote(text: string): Candidate | null | 'noise' {
  const s = text.replace(/\s+/g, ' ').trim();
  if (isNoise(s)) return 'noise';
  if (isDecision(s)) return { body: asBody(s), kind: 'decision', rule: 'note', confidence: 0.8 };
  if (PREFERENCE.some((re) => re.test(s)) || /\b(?:always|never|must|should|don't|do not)\b/i.test(s)) {
    return { body: asBody(s), kind: 'preference', rule: 'note', confidence: 0.8 };
  }
  return { body: asBody(s), kind: 'note', rule: 'note', confidence: 0.7 };
}

// --- an error and its fix ------------------------------------------------------------------------------------

const STRONG_ERROR =
  /^(?:error|fatal|exception)(?:\[[^\]]*\])?:|^Traceback \(most recent call last\)|\berror TS\d+:|command not found|Cannot find module|ModuleNotFoundError|npm ERR!|^Exit code: [1-9]|\b[A-Z][A-Za-z]*Error: /im;
const ERROR_LINE =
  /(?:^(?:error|fatal|exception)\b|\berror TS\d+:|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|command not found|Cannot find module|No such file or directory|npm ERR!|\bE[A-Z]{3,}\b)/i;

function errorLine(entry: Entry): string | null {
  if (entry.isError !== true && !STRONG_ERROR.test(entry.text)) return null;
  const lines = entry.text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !/^Exit code:|^Wall time:|^Output:$/i.test(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines[0];
  if (line === undefined || containsSecret(line)) return null;
  return line.replace(/\s+/g, ' ').slice(0, 200);
}

const FIX =
  /\b(?:the (?:fix|solution|problem|issue|cause|culprit|root cause|error) (?:was|is)|(?:fixed|solved|resolved) (?:it |this |that |the \w+ )?by|(?:this|that|it|the error|the failure|the build|the test) (?:was|is) (?:caused by|because|due to)|(?:this|that|it) (?:fails|failed|happens|happened|broke) because|turns out|the reason (?:was|is))\b/i;

function fixFor(sentence: string, error: string): Candidate | null {
  if (!FIX.test(sentence) || /\?["')\]]?$/.test(sentence)) return null;
  // "The issue was X, so let me fix it": keep the finding, drop the narration after it.
  const finding = sentence.replace(/[,;:–—-]\s*(?:so\s+|and\s+)?(?:let me|i'll|i will|now|let's)\b.*$/i, '');
  if (finding.length < 12 || finding.length > 400) return null;
  const body = `${asBody(finding).replace(/\.$/, '')} (error: ${error.replace(/\.$/, '')}).`;
  return { body, kind: 'note', rule: 'error-fix', confidence: 0.6 };
}

function ageError(state: MinerState): MinerState {
  if (state.error === undefined) return {};
  const age = state.error.age + 1;
  return age > ERROR_PATIENCE ? {} : { error: { line: state.error.line, age } };
}
