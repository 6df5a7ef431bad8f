/**
 * An error in a tool's output and the assistant's sentence that says what caused or fixed it. A pair is made
 * only when the sentence is about that error: it shares a distinctive token with the error line (a name, a
 * path, a code, a word of five letters or more that is not generic), it states a finding (not "maybe…", not
 * "let me…"), and it is settled (the assistant does not go on to check whether it is true). On six real Claude
 * Code sessions every pair the looser rule made was narration beside an unrelated error (eval/sets/mining-v1).
 */
import { containsSecret } from '../guard/secrets.ts';
import { asBody, isNoise } from './noise.ts';
import type { Candidate, Entry } from './types.ts';

const STRONG_ERROR =
  /^(?:error|fatal|exception)(?:\[[^\]]*\])?:|^Traceback \(most recent call last\)|\berror TS\d+:|command not found|Cannot find module|ModuleNotFoundError|npm ERR!|^Exit code:? [1-9]|\b[A-Z][A-Za-z]*Error: /im;
// Case matters: `\bE[A-Z]{3,}\b` is an errno (ECONNREFUSED), not any word that starts with an e.
const ERROR_LINE =
  /(?:^(?:[Ee]rror|ERROR|[Ff]atal|FATAL|[Ee]xception)\b|\berror TS\d+:|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|command not found|Cannot find module|No such file or directory|npm ERR!|\bE[A-Z]{3,}\b|\bFAIL(?:ED)?\b)/;
/** Second best: a line that points at a place in a file (`lib/app.ex:41:`), as linters and compilers report. */
const LOCATION_LINE = /[\w./-]+\.[A-Za-z]{1,5}:\d+\b/;
/** Lines a shell wrapper adds around the output: never the error itself. */
const WRAPPER =
  /^(?:Exit code:? -?\d+|Wall time:|Output:$|Chunk ID:|Process exited with code|Process running with|Original token count:)/i;

/** The line that names the error in a failed tool result, or null when the output is not an error. */
export function errorLine(entry: Entry): string | null {
  if (entry.isError !== true && !STRONG_ERROR.test(entry.text)) return null;
  const lines = entry.text
    .replace(/<\/?tool_use_error>/g, '')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !WRAPPER.test(l));
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines.find((l) => LOCATION_LINE.test(l)) ?? lines[0];
  if (line === undefined || containsSecret(line)) return null;
  return line.replace(/\s+/g, ' ').slice(0, 200);
}

/** A sentence that states a cause or a fix. "The error is …" is not one: it describes the error. */
const FIX =
  /\b(?:the (?:fix|solution|problem|issue|cause|culprit|root cause) (?:was|is)|(?:fixed|solved|resolved) (?:it |this |that |the \w+ )?by|(?:was|were|is|are) (?:caused by|due to)|(?:this|that|it|the error|the failure|the build|the test|the tests?) (?:was|is) because|(?:fails?|failed|failing|happens|happened|broke) because|turns out|the reason (?:was|is))\b/i;
/** A guess is not a finding. */
const HEDGE =
  /\b(?:maybe|might|perhaps|probably|possibly|likely|presumably|i think|i suspect|i guess|seems?|appears? to|could be|may be)\b/i;
/** The assistant goes on to find out whether it is so: the sentence before is a hypothesis. */
const INVESTIGATES =
  /^(?:let me|let's|i(?:'ll| will| need to| should)|now (?:i|let)|first,? (?:i|let))\s+(?:\w+\s+){0,2}?(?:check|look|verify|see|trace|investigate|read|inspect|examine|confirm|debug|find out|dig)\b/i;

export function fixFor(sentence: string, next: string | undefined, error: string): Candidate | null {
  if (!FIX.test(sentence) || /\?["')\]]?$/.test(sentence)) return null;
  if (HEDGE.test(sentence)) return null;
  if (next !== undefined && INVESTIGATES.test(next)) return null;
  // "The issue was X, so let me fix it": keep the finding, drop the narration after it.
  const finding = sentence.replace(/[,;:–—-]\s*(?:so\s+|and\s+)?(?:let me|i'll|i will|now|let's)\b.*$/i, '');
  if (finding.length < 12 || finding.length > 400) return null;
  // Narration ("Let me…", "I see - the issue is…", "Great!") is never the finding, wherever the fix words sit.
  if (isNoise(finding) && !/^(?:the|this|that|it)\b/i.test(finding)) return null;
  if (!sharesToken(finding, error)) return null;
  const body = `${asBody(finding).replace(/\.$/, '')} (error: ${error.replace(/\.$/, '')}).`;
  return { body, kind: 'note', rule: 'error-fix', confidence: 0.6 };
}

/** Words too common in errors and in talk about them to tie one to the other. */
const GENERIC = new Set(
  `error errors issue issues problem fail fails failed failure failing exit code line lines file files test tests
  the that this with from have there their which would could should about after before when where while found
  value values type types true false null undefined none expected received actual output input result results
  function method module modules class object string number return returns cannot could unable missing invalid
  check checks checking running run runs build builds warning warnings src lib dist index main node npm js ts
  py json md html css yes not does done make made need needs because cause caused fixed fix`.split(/\s+/),
);

/** Distinctive tokens: names with digits, underscores or dots, quoted or backticked names, and long plain words. */
function tokens(text: string): Set<string> {
  const out = new Set<string>();
  const add = (t: string) => {
    const w = t.toLowerCase();
    if (!GENERIC.has(w)) out.add(w);
  };
  for (const m of text.matchAll(/[\p{L}\p{N}_$]+(?:[.:/-][\p{L}\p{N}_$]+)*/gu)) {
    const whole = m[0];
    const codeLike = /[\d_.:/\\$]/.test(whole) || /[a-z][A-Z]/.test(whole) || /^[A-Z]{3,}$/.test(whole);
    if (codeLike) add(whole);
    for (const part of whole.split(/[.:/-]/)) {
      if (part.length >= 5 || (codeLike && part.length >= 2) || /\d/.test(part)) add(part);
    }
  }
  // Names in quotes or backticks: `db`, './db', "audit_events".
  for (const m of text.matchAll(/[`'"]\.{0,2}\/?([\p{L}\p{N}_$][\p{L}\p{N}_$.\-/]*)[`'"]/gu)) {
    for (const part of m[1]!.split(/[./-]/)) if (part.length >= 2) add(part);
  }
  return out;
}

function sharesToken(sentence: string, error: string): boolean {
  const theirs = tokens(error);
  for (const t of tokens(sentence)) if (theirs.has(t)) return true;
  return false;
}
