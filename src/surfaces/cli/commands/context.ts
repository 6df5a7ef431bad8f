/** `memledger context [TASK]`: the context block an agent would get for a task, as markdown or as JSON. */
import type { ContextResult } from '../../../ledger/context/context.ts';
import { defined, optInt, optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { plural } from '../render.ts';

export const contextCommand = defineCommand<ContextResult>({
  name: 'context',
  summary: 'the context block for a task: corrections, confirmed rules, open commitments, relevant memories',
  usage: `memledger context [TASK] [--scope S]... [--budget N] [--session ID] [--reference-time T]
  Prints the markdown block an agent gets at the start of a task (framed as data, each item with its
  provenance), within a budget of N tokens (cl100k_base; default 1500, at most 20000). Without TASK, the
  newest confirmed and accepted memories fill the last pool.
  --scope S       draw only from this scope (repeatable); default: every scope you may read
  --budget N      token budget for the whole block
  --session ID    leave out what this session was already shown, and record what it is shown now
                  (default: MEMLEDGER_SESSION_ID, if set)
  --reference-time T  what "yesterday" or "last month" in TASK is relative to (default: now)
  --json          the items, token counts and markdown as JSON`,
  positionals: { min: 0, max: 1 },
  options: {
    scope: { type: 'string', multiple: true },
    budget: { type: 'string' },
    session: { type: 'string' },
    'reference-time': { type: 'string' },
  },
  run(ctx, [task], values) {
    const input = defined({
      task,
      scopes: optStrings(values, 'scope'),
      budget: optInt(values, 'budget'),
      sessionId: optString(values, 'session'),
      referenceTime: optString(values, 'reference-time'),
    });
    return ctx.session().context(input);
  },
  render(r, ctx) {
    // The summary goes to stderr, so stdout is the block alone and can be piped where it is needed.
    const left = [
      r.skipped > 0 ? `${r.skipped} skipped` : '',
      r.suppressed > 0 ? `${r.suppressed} already shown in this session` : '',
    ].filter((x) => x !== '');
    ctx.io.stderr.write(
      `${plural(r.items.length, 'item')}, ${r.tokens} of ${r.budget} tokens${left.length > 0 ? `; ${left.join(', ')}` : ''}\n`,
    );
    return `${r.markdown}\n`;
  },
});
