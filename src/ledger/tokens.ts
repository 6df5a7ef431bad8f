/**
 * Token counting for context budgets: a real BPE tokenizer, cl100k_base from `gpt-tokenizer` (pure JavaScript,
 * its merge table shipped inside the package, no network at run time). Loaded on first use and kept for the
 * process: loading costs a few hundred milliseconds, counting a block then well under a millisecond.
 *
 * Why cl100k_base: the agents we serve do not publish one tokenizer (Claude's is not public; OpenAI's newer
 * models use o200k_base, which takes twice as long to load), and cl100k_base counts English and code within
 * a few percent of either, so a budget in its tokens is a fair budget for all of them.
 */

export type CountTokens = (text: string) => number;

let loading: Promise<CountTokens> | undefined;

/** The token counter, loading the tokenizer the first time it is asked for. */
export function tokenCounter(): Promise<CountTokens> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then(({ countTokens }) => {
    // Memory text is data: `<|endoftext|>` inside it is counted as the characters it is, never refused.
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => countTokens(text, options);
  });
  return loading;
}
