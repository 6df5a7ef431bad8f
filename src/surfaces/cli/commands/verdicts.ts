/** `memledger retract | confirm | review list | review approve | review reject`: state changes a person decides. */
import type { Memory, WriteResult } from '../../../model/memory.ts';
import type { ApproveInput, RejectionLiftResult } from '../../../ledger/verdicts.ts';
import { defined, optFlag, optInt, optJson, optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { bodyCell, plural, table } from '../render.ts';
import { writeResult } from './results.ts';

export const retract = defineCommand<WriteResult>({
  name: 'retract',
  summary: 'stop returning a memory, keeping it in history (needs --reason)',
  usage: `memledger retract ID --reason R
  The memory stays in history with the reason; reads no longer return it.`,
  positionals: { min: 1, max: 1 },
  options: { reason: { type: 'string' } },
  // An empty reason reaches the library, which refuses it with the rule ("a retraction needs a reason").
  run: (ctx, [id], values) => ctx.session().retract({ id: id!, reason: optString(values, 'reason') ?? '' }),
  render: (r) => writeResult(r, 'retracted'),
});

export const confirm = defineCommand<WriteResult>({
  name: 'confirm',
  summary: 'vouch for a current memory: it ranks first and agents cannot overwrite it unreviewed',
  usage: `memledger confirm ID
  A person vouches for an active memory: its trust becomes confirmed and its key becomes theirs.`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  run: (ctx, [id]) => ctx.session().confirm({ id: id! }),
  render: (r) => writeResult(r, 'confirmed'),
});

export const reviewList = defineCommand<Memory[]>({
  name: 'review list',
  summary: 'show writes held for review',
  usage: `memledger review list [--scope S]... [--limit N]
  The held queue, newest first: who proposed what, in which scope, and the rule that held it.`,
  options: { scope: { type: 'string', multiple: true }, limit: { type: 'string' } },
  async run(ctx, _args, values) {
    const input = defined({ scopes: optStrings(values, 'scope'), limit: optInt(values, 'limit') });
    return ctx.session().reviewList(input);
  },
  render(held) {
    if (held.length === 0) return 'nothing is waiting for review\n';
    const head = [
      { header: 'id' },
      { header: 'scope' },
      { header: 'proposed by' },
      { header: 'rule' },
      { header: 'body', flex: true },
    ];
    const rows = held.map((m) => [m.id, m.scope, m.provenance.principal, m.rule ?? '', bodyCell(m)]);
    const hint =
      'decide with: memledger review approve ID [--body B]  |  memledger review reject ID --reason R';
    return `${table(head, rows)}\n\n${plural(held.length, 'write')} held. ${hint}\n`;
  },
});

export const reviewApprove = defineCommand<WriteResult & { proposal: string }>({
  name: 'review approve',
  summary: 'land a held write, as proposed or edited',
  usage: `memledger review approve ID [--body B] [--value JSON] [--key K] [--kind K] [--subject S]... [--note N]
  Without edits the proposal lands as it is. With edits, your edited version lands as a new memory and the
  proposal stays in its history. --note records why.`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  options: {
    body: { type: 'string' },
    value: { type: 'string' },
    key: { type: 'string' },
    kind: { type: 'string' },
    subject: { type: 'string', multiple: true },
    note: { type: 'string' },
  },
  async run(ctx, [id], values) {
    const value = optJson(values, 'value');
    const input = defined({
      id: id!,
      body: optString(values, 'body'),
      value,
      key: optString(values, 'key'),
      kind: optString(values, 'kind'),
      subjects: optStrings(values, 'subject'),
      note: optString(values, 'note'),
    });
    const result = await ctx.session().approve(input as ApproveInput);
    return { ...result, proposal: id! };
  },
  render(r) {
    const how =
      r.id === r.proposal
        ? 'approved as proposed'
        : `approved with edits: the edited version landed; proposal ${r.proposal} stays in its history`;
    return writeResult(r, how);
  },
});

export const reviewReject = defineCommand<WriteResult>({
  name: 'review reject',
  summary: 'reject a held write (or, with --active, a current memory) for good (needs --reason)',
  usage: `memledger review reject ID --reason R [--active]
  The claim is withheld and remembered: the same claim written again in this scope, by any agent, session
  or import, in any spelling, lands as rejected and the writer is told this reason. Without --active only a
  held write is rejected, so a proposal someone approved meanwhile is not rejected by mistake (conflict);
  --active rejects a current memory instead.`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  options: { reason: { type: 'string' }, active: { type: 'boolean' } },
  run: (ctx, [id], values) =>
    ctx.session().reject({
      id: id!,
      reason: optString(values, 'reason') ?? '',
      expect: optFlag(values, 'active') ? 'active' : 'held',
    }),
  render: (r) => writeResult(r, 'the same claim will land as rejected from now on'),
});

export const reviewUnreject = defineCommand<RejectionLiftResult>({
  name: 'review unreject',
  summary: 'lift the rejection of a claim on purpose, so it may land again (needs --reason)',
  usage: `memledger review unreject ID --reason R
  ID is a rejected memory: the one a reviewer rejected, or a later copy that landed as rejected. The
  rejection of what it says is lifted (an event and an audit record keep who, when and why); the memory
  stays rejected in history, and the next write of the claim goes through the gate as any write.`,
  positionals: { min: 1, max: 1 },
  judgement: true,
  options: { reason: { type: 'string' } },
  run: (ctx, [id], values) => ctx.session().unreject({ id: id!, reason: optString(values, 'reason') ?? '' }),
  render: (r) =>
    `lifted ${plural(r.lifted, 'rejection')} (of ${r.rejectedAs.join(', ')}); the claim may land again\n`,
});
