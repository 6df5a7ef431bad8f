/** `memledger claim | release | corrections`: who owns a key, and what reviewers corrected in agents' writes. */
import type { ClaimResult } from '../../../ledger/claims.ts';
import type { Correction } from '../../../ledger/corrections.ts';
import { MemoryError } from '../../../model/errors.ts';
import { defined, optInt, optString, optStrings } from '../args.ts';
import { type CliContext, defineCommand, type Values } from '../command.ts';
import { oneLine, plural, shortTime, table } from '../render.ts';

const SLOT_OPTIONS = { scope: { type: 'string' }, key: { type: 'string' } } as const;

/** Both --scope and --key, or a refusal that says which is missing. */
function slot(values: Values, verb: string): { scope: string; key: string } {
  const scope = optString(values, 'scope');
  const key = optString(values, 'key');
  if (scope === undefined || key === undefined) {
    throw new MemoryError(
      'invalid_input',
      `${verb} needs --scope S and --key K, e.g. --scope shared --key acme.plan`,
    );
  }
  return { scope, key };
}

export const claimCommand = defineCommand<ClaimResult>({
  name: 'claim',
  summary: 'own a key: agent writes to it then wait for review (or are denied, per the policy)',
  usage: `memledger claim --scope S --key K
  You (a human with the reviewer role) take ownership of a key that has a current value. A key whose
  value a person wrote, edited, approved or confirmed is already claimed by that person.`,
  options: SLOT_OPTIONS,
  judgement: true,
  run: (ctx, _args, values) => ctx.session().claim(slot(values, 'claim')),
  render: (r) =>
    r.changed
      ? `${r.key} in ${r.scope} is now claimed by ${r.owner}${r.previous === null ? '' : ` (was ${r.previous})`}\n`
      : `${r.key} in ${r.scope} is already claimed by ${r.owner}\n`,
});

export const releaseCommand = defineCommand<ClaimResult>({
  name: 'release',
  summary: "release a key's claim: agent writes to it are then decided by the policy's rules alone",
  usage: `memledger release --scope S --key K
  A reviewer lets go of a key's claim. Proposals already held stay held until someone decides them.`,
  options: SLOT_OPTIONS,
  judgement: true,
  run: (ctx, _args, values) => ctx.session().release(slot(values, 'release')),
  render: (r) =>
    `${r.key} in ${r.scope} is no longer claimed (was ${r.previous}); the policy's rules decide\n`,
});

export const correctionsCommand = defineCommand<Correction[]>({
  name: 'corrections',
  summary: "reviewers' latest edit or rejection per key of an agent's writes",
  usage: `memledger corrections [--scope S]... [--agent A] [--limit N]
  The correction feed agents read in search_memory and get_context: for each key (or kind, for keyless
  writes), the newest edit or rejection a reviewer made. --agent narrows to one writer, e.g.
  agent:claude-code (an agent sees its own by default; a person sees every agent's).`,
  options: {
    scope: { type: 'string', multiple: true },
    agent: { type: 'string' },
    limit: { type: 'string' },
  },
  run(ctx: CliContext, _args, values) {
    const input = defined({
      scopes: optStrings(values, 'scope'),
      agent: optString(values, 'agent'),
      limit: optInt(values, 'limit'),
    });
    return ctx.session().corrections(input);
  },
  render(list) {
    if (list.length === 0) return 'no corrections\n';
    const head = [
      { header: 'when' },
      { header: 'agent' },
      { header: 'scope' },
      { header: 'key or kind' },
      { header: 'action' },
      { header: 'now / reason', flex: true },
    ];
    const rows = list.map((c) => [
      shortTime(c.at),
      c.agent,
      c.scope,
      c.key ?? `(${c.kind})`,
      `${c.action} by ${c.by}`,
      c.action === 'edited'
        ? oneLine(c.corrected?.body ?? '(since replaced)')
        : oneLine(c.reason ?? '(no reason recorded)'),
    ]);
    return `${table(head, rows)}\n\n${plural(list.length, 'correction')}\n`;
  },
});
