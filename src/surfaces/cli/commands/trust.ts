/** `memledger doubt | trust restore`: lower a memory's trust (anyone who may write its scope), or restore it (a person). */
import type { TrustResult } from '../../../ledger/doubt.ts';
import { optString } from '../args.ts';
import { defineCommand } from '../command.ts';
import { clean } from '../render.ts';

const render = (r: TrustResult): string =>
  `${r.id}  ${r.state} · ${r.trust}${r.changed ? ` (was ${r.previous})` : ''}\n  ${clean(r.message)}\n`;

export const doubtCommand = defineCommand<TrustResult>({
  name: 'doubt',
  summary: 'lower a memory to unverified: it ranks lower and stays visible (needs --reason)',
  usage: `memledger doubt ID --reason R
  Marks an active memory unverified, with your reason and the trust it had in its history. It stays current
  and searchable, ranked below trusted memories. Doubt only lowers trust: agents may use it; raising trust
  back is a person's call (memledger trust restore ID --reason R).`,
  positionals: { min: 1, max: 1 },
  options: { reason: { type: 'string' } },
  // An empty reason reaches the library, which refuses it with the rule ("a doubt needs a reason").
  run: (ctx, [id], values) => ctx.session().doubt({ id: id!, reason: optString(values, 'reason') ?? '' }),
  render,
});

export const trustRestoreCommand = defineCommand<TrustResult>({
  name: 'trust restore',
  summary: "put a doubted memory's trust back to what it was (a person's verdict; needs --reason)",
  usage: `memledger trust restore ID --reason R
  A reviewer restores the trust a memory had before it was doubted (confirmed or accepted). A memory that
  was unverified from the start is not restored: confirm it to vouch for it.`,
  positionals: { min: 1, max: 1 },
  options: { reason: { type: 'string' } },
  judgement: true,
  run: (ctx, [id], values) =>
    ctx.session().restoreTrust({ id: id!, reason: optString(values, 'reason') ?? '' }),
  render,
});
