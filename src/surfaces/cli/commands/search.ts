/** `memledger search QUERY`: any-word full text over current memories, ranked; a table or the SearchResult. */
import type { SearchInput, SearchResult } from '../../../ledger/search.ts';
import { defineCommand } from '../command.ts';
import { bodyCell, clean, plural, table } from '../render.ts';
import { FILTER_OPTIONS, FILTER_USAGE, readFilters } from './filters.ts';

export const search = defineCommand<SearchResult>({
  name: 'search',
  summary: 'find current memories by words (and meaning, with an embedder), best first',
  usage: `memledger search QUERY [options]
  Any word may match; results are ranked by text match, trust, confidence and recency, and with an
  embedder (README: Semantic search) fused with the memories nearest the query's meaning. Query text is
  only ever words: quotes and operators are searched as plain text.
${FILTER_USAGE} (default 10, at most 200)`,
  positionals: { min: 1, max: 1 },
  options: FILTER_OPTIONS,
  async run(ctx, [query], values) {
    const filters = readFilters(values);
    return ctx.session().search({ query: query!, ...filters } as SearchInput);
  },
  render(r) {
    const words = r.terms.map((t) => clean(t)).join(', ');
    const pending =
      r.vectors !== undefined && r.vectors.pending > 0
        ? `${plural(r.vectors.pending, 'memory', 'memories')} still without a vector, found by words only: memledger embed gives them theirs\n`
        : '';
    if (r.hits.length === 0) return `no current memories match (searched for: ${words})\n${pending}`;
    const rows = r.hits.map((h) => [
      h.memory.id,
      h.memory.scope,
      h.memory.kind,
      h.memory.trust,
      h.score.toFixed(3),
      bodyCell(h.memory),
    ]);
    const head = [
      { header: 'id' },
      { header: 'scope' },
      { header: 'kind' },
      { header: 'trust' },
      { header: 'score', right: true },
      { header: 'body', flex: true },
    ];
    const meaning = r.vectors?.used === true ? ' (and their meaning)' : '';
    return `${table(head, rows)}\n\n${plural(r.hits.length, 'result')} for: ${words}${meaning}\n${pending}`;
  },
});
