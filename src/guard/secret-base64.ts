/** Base64 for the credential detector (I10): where runs of it are, and what they decode to when that is text. */

/** Each base64 or base64url character's value plus one, by character code (0: not base64). */
const SEXTET = new Uint8Array(128);
for (const [i, c] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries())
  SEXTET[c.charCodeAt(0)] = i + 1;
SEXTET['-'.charCodeAt(0)] = 63;
SEXTET['_'.charCodeAt(0)] = 64;
const EQUALS = 0x3d;

/** Long enough to hold a credential once decoded (12 bytes). */
const MIN_RUN = 16;

/** A line break between two lines of one wrapped base64 blob (`base64` wraps at 76 columns). */
const WRAP = /^[ \t]{0,3}\\?\r?\n[ \t]{0,40}$/;

export interface Run {
  start: number;
  end: number;
  text: string;
  /** The lines of a wrapped blob, each on its own, for when the whole does not decode to text. */
  lines: Run[];
}

/**
 * Whether the text holds a run of MIN_RUN base64 characters at all. Each window is read from its end: the
 * last non-base64 character in it rules out every run that starts at or before it, so prose is read in
 * jumps (a sentence costs about a tenth of a microsecond) and no character is read more than twice.
 */
export function hasRun(text: string): boolean {
  let start = 0;
  while (start + MIN_RUN <= text.length) {
    let i = start + MIN_RUN - 1;
    while (i >= start && isBase64(text.charCodeAt(i))) i--;
    if (i < start) return true;
    start = i + 1;
  }
  return false;
}

function isBase64(c: number): boolean {
  return c < 128 && SEXTET[c] !== 0;
}

/**
 * Runs of base64 or base64url characters (and up to two `=`), the lines of a wrapped blob merged into one.
 * Words, paths, SHAs and UUIDs are runs too; they decode to bytes that are not text and stop there.
 */
export function base64Runs(text: string): Run[] {
  const runs: Run[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    if (i < text.length && isBase64(text.charCodeAt(i))) {
      if (start < 0) start = i;
      continue;
    }
    if (start < 0) continue;
    let end = i;
    while (end < text.length && end - i < 2 && text.charCodeAt(end) === EQUALS) end++;
    const last = runs.at(-1);
    if (last !== undefined && wrapped(text, last, start)) {
      const line = { start, end, text: text.slice(start, end), lines: [] };
      if (last.lines.length === 0) last.lines.push({ ...last, lines: [] });
      last.lines.push(line);
      last.text += line.text;
      last.end = end;
    } else if (i - start >= MIN_RUN) runs.push({ start, end, text: text.slice(start, end), lines: [] });
    start = -1;
    i = end - 1; // past the padding; the loop steps onto the character after it
  }
  return runs;
}

/** True when only a line break (and indentation) separates `start` from the unpadded run before it. */
function wrapped(text: string, last: Run, start: number): boolean {
  if (start - last.end > 46 || last.text.endsWith('=')) return false;
  const newline = text.indexOf('\n', last.end);
  return newline >= 0 && newline < start && WRAP.test(text.slice(last.end, start));
}

/**
 * The decoded bytes as text when at least 90% of them are printable ASCII or whitespace, else null. Random
 * bytes (digests, images, binary keys, words read as base64) are about 38% printable, so most runs stop
 * within their first few characters.
 */
export function decodeText(run: string): string | null {
  let chars = run.length;
  while (chars > 0 && run.charCodeAt(chars - 1) === EQUALS) chars--;
  const bytes = new Uint8Array(Math.floor((chars * 3) / 4));
  if (bytes.length < 12) return null;
  const allowed = Math.floor(bytes.length / 10);
  let bad = 0;
  let acc = 0;
  let bits = 0;
  let n = 0;
  for (let i = 0; i < chars; i++) {
    acc = ((acc << 6) | ((SEXTET[run.charCodeAt(i)] ?? 1) - 1)) & 0xffff;
    bits += 6;
    if (bits < 8) continue;
    bits -= 8;
    const b = (acc >> bits) & 0xff;
    if (!((b >= 0x20 && b < 0x7f) || b === 0x09 || b === 0x0a || b === 0x0d) && ++bad > allowed) return null;
    bytes[n++] = b;
  }
  return Buffer.from(bytes.buffer, 0, n).toString('latin1');
}
