/** `memledger summaries create | next | add | show`: incremental summary chains over a scope, session or subject. */
import type { SummaryAddResult, SummaryWindow, ChainView } from '../../../ledger/plans/summaries.ts';
import { MemoryError } from '../../../model/errors.ts';
import type { SummaryChainRow } from '../../../store/commitments-port.ts';
import { defined, optInt, optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { oneLine, shortTime, table } from '../render.ts';

export const summariesCreate = defineCommand<SummaryChainRow>({
  name: 'summaries create',
  summary: "define a summary chain over a scope's memories (or one session or subject in it)",
  usage: `memledger summaries create CHAIN --scope S [--session ID | --subject S]
  CHAIN is a name (lowercase letters, digits, . _ -). Its summaries land in the scope.`,
  options: { scope: { type: 'string' }, session: { type: 'string' }, subject: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  run(ctx, args, values) {
    const scope = optString(values, 'scope');
    if (scope === undefined) throw new MemoryError('invalid_input', 'summaries create needs --scope S');
    return ctx.session().summaries.create(
      defined({
        name: args[0]!,
        scope,
        sessionId: optString(values, 'session'),
        subject: optString(values, 'subject'),
      }) as { name: string; scope: string },
    );
  },
  render: (c) =>
    `chain ${c.name} follows ${c.scope}${c.sessionId ? ` session ${c.sessionId}` : ''}${c.subject ? ` subject ${c.subject}` : ''}\n`,
});

export const summariesNext = defineCommand<SummaryWindow>({
  name: 'summaries next',
  summary: "what is new in a chain since its last summary's cutoff (bounded), to summarise next",
  usage: `memledger summaries next CHAIN [--limit N]
  Prints the window's memories oldest first and its --until; pass that to summaries add.`,
  options: { limit: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  run: (ctx, args, values) =>
    ctx
      .session()
      .summaries.next(defined({ chain: args[0]!, limit: optInt(values, 'limit') }) as { chain: string }),
  render(w) {
    if (w.memories.length === 0) return `nothing new in ${w.chain} since ${w.after ?? 'the start'}\n`;
    const rows = w.memories.map((m) => [shortTime(m.recordedAt), m.id, oneLine(m.body)]);
    const table_ = table([{ header: 'recorded' }, { header: 'id' }, { header: 'text', flex: true }], rows);
    return `${table_}\n\nafter ${w.after ?? 'the start'}, until ${w.until}${w.more ? ' (more follows)' : ''}\n`;
  },
});

export const summariesAdd = defineCommand<SummaryAddResult>({
  name: 'summaries add',
  summary: "store a chain's next summary, covering up to --until (held for review like any write)",
  usage: `memledger summaries add CHAIN --until T --body TEXT [--subject S]... [--window TOKEN]
  --until T    the inclusive cutoff: the recorded time of the last memory it covers (summaries next says it)
  --window     the window token from summaries next --json: refused if the chain moved since`,
  options: {
    until: { type: 'string' },
    body: { type: 'string' },
    subject: { type: 'string', multiple: true },
    window: { type: 'string' },
  },
  positionals: { min: 1, max: 1 },
  run(ctx, args, values) {
    const until = optString(values, 'until');
    const body = optString(values, 'body');
    if (until === undefined || body === undefined) {
      throw new MemoryError('invalid_input', 'summaries add needs --until T and --body TEXT');
    }
    return ctx.session().summaries.add(
      defined({
        chain: args[0]!,
        until,
        body,
        subjects: optStrings(values, 'subject'),
        token: optString(values, 'window'),
      }) as { chain: string; until: string; body: string },
    );
  },
  render: (r) =>
    r.state === 'active'
      ? `${r.id} summarises ${r.covered} memories of ${r.chain} up to ${r.cutoff}\n`
      : `${r.id} ${r.state}: ${r.reason ?? ''}\n`,
});

export const summariesShow = defineCommand<ChainView>({
  name: 'summaries show',
  summary: "a chain's links (cutoff, coverage, stale or not) and its newest summary",
  usage: 'memledger summaries show CHAIN',
  positionals: { min: 1, max: 1 },
  run: (ctx, args) => ctx.session().summaries.show(args[0]!),
  render(v) {
    const rows = v.links.map((l) => [
      l.memoryId,
      l.state,
      l.cutoff,
      String(l.covered),
      l.staleAt === null ? '' : 'stale',
    ]);
    const head = [
      { header: 'summary' },
      { header: 'state' },
      { header: 'cutoff' },
      { header: 'covers', right: true },
      { header: '' },
    ];
    const latest = v.latest === null ? 'no summary yet' : `latest: ${oneLine(v.latest.body)}`;
    return `${v.links.length === 0 ? '' : `${table(head, rows)}\n\n`}${latest}\n`;
  },
});

/** `summaries list CHAIN`: the same view as show, by the name the brief and the README use. */
export const summariesList = {
  ...summariesShow,
  name: 'summaries list',
  summary: "list a chain's summaries",
  usage: 'memledger summaries list CHAIN',
};
