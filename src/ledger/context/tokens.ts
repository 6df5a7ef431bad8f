/**
 * Token counting for context budgets: cl100k_base, counted exactly (cl100k.ts) from the ranks file that
 * `gpt-tokenizer` ships (no network at run time). One counting method everywhere: every surface, short-lived
 * hook processes and long-lived servers alike. Loaded on first use and kept for the process: loading takes a
 * few milliseconds, counting a block then well under a millisecond.
 *
 * Why cl100k_base: the agents we serve do not publish one tokenizer (Claude's is not public; OpenAI's newer
 * models use o200k_base, twice the vocabulary), and cl100k_base counts English and code within a few percent of
 * either, so a budget in its tokens is a fair budget for all of them.
 */
import { loadCl100k } from './cl100k.ts';

export type CountTokens = (text: string) => number;

let counter: CountTokens | undefined;

/**
 * Counts of whole texts already counted. A long-lived process (serve, MCP, the library) assembles blocks for
 * the same scopes again and again, so the same item lines (a rule, a commitment and its provenance) recur; a
 * line is looked up by its text, never by id, so an edited memory is counted afresh. Bounded: cleared when full.
 */
const TEXTS_KEPT = 20_000;
/** Longer texts (a whole block) are counted every time: they rarely recur, and keeping them would cost memory. */
const LONGEST_KEPT = 2_000;

/** The token counter, loading the ranks the first time it is asked for. */
export async function tokenCounter(): Promise<CountTokens> {
  if (counter === undefined) {
    const cl100k = loadCl100k();
    // Memory text is data: `<|endoftext|>` inside it is counted as the characters it is, never as a special token.
    const counted = new Map<string, number>();
    counter = (text: string) => {
      if (text.length > LONGEST_KEPT) return cl100k.count(text);
      let tokens = counted.get(text);
      if (tokens === undefined) {
        tokens = cl100k.count(text);
        if (counted.size >= TEXTS_KEPT) counted.clear();
        counted.set(text, tokens);
      }
      return tokens;
    };
  }
  return counter;
}

/**
 * A floor under a text's cl100k_base count, without tokenizing it: its runs of non-white-space characters.
 * Every piece of the pre-tokenizer (cl100k.ts, SPLIT) holds characters of at most one such run (its alternatives
 * are a letter run with one optional leading character, up to three digits, a symbol run with one optional leading
 * space and trailing line breaks, or white space alone), every character is in some piece, and every piece is at
 * least one token: so `count(text) >= tokenFloor(text)`. White space is exactly the pattern's `\s`. With `enough`,
 * it stops counting once past it (the result is then some number above `enough`, still a floor).
 *
 * Why: context assembly asks whether an item fits what is left of its pool; once little is left, the floor
 * answers "no" for almost every candidate, and a short-lived hook process then tokenizes only what it may show.
 */
export function tokenFloor(text: string, enough = Number.POSITIVE_INFINITY): number {
  let runs = 0;
  let inRun = false;
  // Once past `enough` the caller has its answer: the rest of the text is not read.
  for (let i = 0; i < text.length && runs <= enough; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inRun) runs++;
    inRun = !space;
  }
  return runs;
}

/** JavaScript's `\s`: ECMAScript WhiteSpace and LineTerminator (a surrogate half is never white space). */
function isSpace(c: number): boolean {
  if (c <= 0x20) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}
