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

/** The token counter, loading the ranks the first time it is asked for. */
export async function tokenCounter(): Promise<CountTokens> {
  if (counter === undefined) {
    const cl100k = loadCl100k();
    // Memory text is data: `<|endoftext|>` inside it is counted as the characters it is, never as a special token.
    counter = (text: string) => cl100k.count(text);
  }
  return counter;
}
