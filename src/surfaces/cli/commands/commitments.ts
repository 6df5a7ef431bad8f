/** `memledger commitments add | list | show | update`: prospective memory, through the library's commitment verbs. */
import type { AddCommitmentResult, Commitment, StatusChange } from '../../../ledger/plans/commitments.ts';
import type { LedgerSession } from '../../../ledger/ledger.ts';
import type { AddCommitmentInput, Triggers } from '../../../model/commitment.ts';
import { MemoryError } from '../../../model/errors.ts';
import { defined, optInt, optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { fields, oneLine, plural, shortTime, table } from '../render.ts';

export const commitmentsAdd = defineCommand<AddCommitmentResult>({
  name: 'commitments add',
  summary: 'record something to do later: an owner, a due time, triggers (held for review like any write)',
  usage: `memledger commitments add TEXT [--due T] [--when WORDS]... [--at T] [--schedule CRON --tz Z]
                          [--scope S] [--owner P] [--subject S]...
  --due T            when it is due (ISO-8601 date or date-time)
  --when WORDS       a semantic trigger: it surfaces when all these words appear in a new memory or a task
  --at T             a one-off reminder time
  --schedule CRON    a five-field cron schedule (minute hour day month weekday), read in --tz (default UTC)
  --owner P          who is to do it (human:ID, agent:ID); you by default
  --scope S          default: shared for a person, the agent's own scope for an agent`,
  options: {
    due: { type: 'string' },
    when: { type: 'string', multiple: true },
    at: { type: 'string' },
    schedule: { type: 'string' },
    tz: { type: 'string' },
    scope: { type: 'string' },
    owner: { type: 'string' },
    subject: { type: 'string', multiple: true },
  },
  positionals: { min: 1, max: 1 },
  run(ctx, args, values) {
    const session = ctx.session();
    const schedule = optString(values, 'schedule');
    const tz = optString(values, 'tz');
    if (tz !== undefined && schedule === undefined) {
      throw new MemoryError('invalid_input', '--tz goes with --schedule');
    }
    const triggers: Triggers = defined({
      words: optStrings(values, 'when'),
      at: optString(values, 'at'),
      schedule: schedule === undefined ? undefined : { cron: schedule, tz: tz ?? 'UTC' },
    });
    const input = defined({
      body: args[0],
      scope: optString(values, 'scope') ?? naturalScope(session),
      due: optString(values, 'due'),
      owner: optString(values, 'owner'),
      subjects: optStrings(values, 'subject'),
      triggers: Object.keys(triggers).length > 0 ? triggers : undefined,
    });
    return session.commitments.add(input as AddCommitmentInput);
  },
  render: (r) =>
    r.state === 'rejected' || r.state === 'held'
      ? `${r.id} ${r.state}: ${r.reason ?? ''}\n`
      : `${r.id} open${r.commitment?.due ? `, due ${shortTime(r.commitment.due)}` : ''}\n`,
});

export const commitmentsList = defineCommand<Commitment[]>({
  name: 'commitments list',
  summary: 'list commitments, soonest due first (open and doing unless --status says otherwise)',
  usage: `memledger commitments list [--status S]... [--due-before T] [--owner P] [--scope S]... [--limit N]
  --status S       open, doing, done or cancelled (repeatable); default: open and doing`,
  options: {
    status: { type: 'string', multiple: true },
    'due-before': { type: 'string' },
    owner: { type: 'string' },
    scope: { type: 'string', multiple: true },
    limit: { type: 'string' },
  },
  run: (ctx, _args, values) =>
    ctx.session().commitments.list(
      defined({
        statuses: (optStrings(values, 'status') ?? ['open', 'doing']) as Commitment['status'][],
        dueBefore: optString(values, 'due-before'),
        owner: optString(values, 'owner'),
        scopes: optStrings(values, 'scope'),
        limit: optInt(values, 'limit'),
      }),
    ),
  render(list) {
    if (list.length === 0) return 'no commitments\n';
    const rows = list.map((c) => [
      c.id,
      c.status,
      c.due === null ? '-' : shortTime(c.due),
      c.owner,
      c.scope,
      oneLine(c.body),
    ]);
    const head = [
      { header: 'id' },
      { header: 'status' },
      { header: 'due' },
      { header: 'owner' },
      { header: 'scope' },
      { header: 'text', flex: true },
    ];
    return `${table(head, rows)}\n\n${plural(list.length, 'commitment')}\n`;
  },
});

export const commitmentsShow = defineCommand<{ commitment: Commitment; changes: StatusChange[] }>({
  name: 'commitments show',
  summary: 'show one commitment and every move of its lifecycle, with who and when',
  usage: 'memledger commitments show ID',
  positionals: { min: 1, max: 1 },
  run: (ctx, args) => ctx.session().commitments.get(args[0]!),
  render: ({ commitment: c, changes }) =>
    `${fields([
      ['id', c.id],
      ['text', c.body],
      ['status', c.status],
      ['owner', c.owner],
      ['scope', c.scope],
      ['due', c.due],
      ['completed', c.completedAt],
      ['triggers', Object.keys(c.triggers).length > 0 ? JSON.stringify(c.triggers) : null],
    ])}\n${changes.map((m) => `  ${shortTime(m.at)}  ${m.from} -> ${m.to}  by ${m.by}\n`).join('')}`,
});

export const commitmentsUpdate = defineCommand<{ commitment: Commitment; change: StatusChange | null }>({
  name: 'commitments update',
  summary: 'move a commitment: open, doing, done or cancelled (agents move only their own)',
  usage: `memledger commitments update ID --status S
  S is open, doing, done or cancelled; done and cancelled are final. Its owner or a person may move it;
  only a person cancels someone else's.`,
  options: { status: { type: 'string' } },
  positionals: { min: 1, max: 1 },
  // Only a person cancels someone else's commitment: a cancel from the local operator (a human) is refused in
  // an agent's environment or without a terminal unless a human token is presented, like a verdict. An agent
  // uses --as agent:ID (or its token) and moves, or cancels, its own.
  judgement: (values) => values.status === 'cancelled',
  run(ctx, args, values) {
    const status = optString(values, 'status');
    if (status === undefined) throw new MemoryError('invalid_input', 'commitments update needs --status S');
    return ctx.session().commitments.update({ id: args[0]!, status: status as Commitment['status'] });
  },
  render: ({ commitment: c, change }) =>
    change === null ? `${c.id} is already ${c.status}\n` : `${c.id} ${change.from} -> ${change.to}\n`,
});

/** Where a commitment goes when no scope is named: as `remember` does, a person's shared, an agent's its own. */
function naturalScope(session: LedgerSession): string {
  const p = session.principal;
  return p.kind === 'agent' ? `agent:${p.id}` : 'shared';
}
