/** `memledger search QUERY`: any-word full text over current memories, ranked; a table or the SearchResult. */
import type { SearchInput, SearchResult } from '../../../ledger/search.ts';
import { optFlag, optString } from '../args.ts';
import { defineCommand } from '../command.ts';
import { OPEN_END, OPEN_START } from '../../../ledger/query-time.ts';
import { bodyCell, clean, oneLine, plural, table, truncate } from '../render.ts';
import { FILTER_OPTIONS, FILTER_USAGE, readFilters } from './filters.ts';

export const search = defineCommand<SearchResult>({
  name: 'search',
  summary: 'find current memories by words (and meaning, with an embedder), best first',
  usage: `memledger search QUERY [options]
  Any word may match; results are ranked by text match, trust, confidence and recency, and with an
  embedder (README: Semantic search) fused with the memories nearest the query's meaning. Query text is
  only ever words: quotes and operators are searched as plain text.
${FILTER_USAGE} (default 10, at most 200)
  --neighbours    with each hit, the turns said just before and after it in its session (a conversation)
  --reference-time T  what "yesterday", "last month" or "now" in QUERY is relative to (default: --as-of,
                  else now)`,
  positionals: { min: 1, max: 1 },
  options: { ...FILTER_OPTIONS, neighbours: { type: 'boolean' }, 'reference-time': { type: 'string' } },
  async run(ctx, [query], values) {
    const filters = readFilters(values);
    const neighbours = optFlag(values, 'neighbours');
    const referenceTime = optString(values, 'reference-time');
    return ctx.session().search({
      query: query!,
      ...filters,
      ...(neighbours ? { neighbours } : {}),
      ...(referenceTime === undefined ? {} : { referenceTime }),
    } as SearchInput);
  },
  render(r) {
    const words = r.terms.map((t) => clean(t)).join(', ');
    const pending =
      r.vectors !== undefined && r.vectors.pending > 0
        ? `${plural(r.vectors.pending, 'memory', 'memories')} still without a vector, found by words only: memledger embed gives them theirs\n`
        : '';
    const byMeaning = r.vectors?.used === true;
    if (r.hits.length === 0) {
      return `no current memories match (searched for: ${words}${byMeaning ? ', and their meaning' : ''})\n${pending}`;
    }
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
    return `${table(head, rows)}\n${aroundHits(r)}\n${plural(r.hits.length, 'result')} for: ${words}${byMeaning ? ' (and their meaning)' : ''}\n${timeLine(r)}${pending}`;
  },
});

/**
 * The time the query named, or its question about the present, as ranking used it: a preference, so a reader
 * who sees an older memory first knows why, and that nothing outside the time was hidden.
 */
function timeLine(r: SearchResult): string {
  if (r.time !== undefined) {
    const { from, to, anchor } = r.time;
    // The interval is half-open: its last day is the one before `to`.
    const first = from === OPEN_START ? '…' : from.slice(0, 10);
    const last = to === OPEN_END ? '…' : new Date(Date.parse(to) - 1).toISOString().slice(0, 10);
    const by = anchor === undefined ? '' : ` (by ${anchor})`;
    return `time: "${clean(r.time.expression)}" is ${first} to ${last}${by}; memories in it ranked higher, none left out\n`;
  }
  const present = r.hits.find((h) => h.why.present !== undefined)?.why.present;
  if (present === undefined) return '';
  return `time: "${clean(present.expression)}": the newest of the first ten ranked higher, none left out\n`;
}

/** With --neighbours: each hit's turn before and after, under its id (nothing when none was asked or found). */
function aroundHits(r: SearchResult): string {
  const lines: string[] = [];
  for (const h of r.hits) {
    const n = h.neighbours;
    if (n === undefined || (n.before === null && n.after === null)) continue;
    lines.push(h.memory.id);
    if (n.before !== null) lines.push(`  before: ${truncate(oneLine(n.before.body), 100)}`);
    if (n.after !== null) lines.push(`  after:  ${truncate(oneLine(n.after.body), 100)}`);
  }
  return lines.length === 0 ? '' : `\nneighbours in their conversations:\n${lines.join('\n')}\n`;
}
