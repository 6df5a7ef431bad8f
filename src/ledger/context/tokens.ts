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
