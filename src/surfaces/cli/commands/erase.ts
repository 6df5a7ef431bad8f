/** `memledger erase --subject S --yes`: remove every version of every memory about a subject (I9). */
import type { EraseResult } from '../../../ledger/erase.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag, optString } from '../args.ts';
import { defineCommand } from '../command.ts';
import { clean, plural } from '../render.ts';

export const erase = defineCommand<EraseResult & { subject: string }>({
  name: 'erase',
  summary: 'erase everything about a subject, in every version (needs --yes)',
  usage: `memledger erase --subject S --yes
  Blanks the content of every memory about S, in every version, in the log, the index and the write-ahead
  log; leaves tombstones and an audit record. Cannot be undone, hence --yes.`,
  options: { subject: { type: 'string' }, yes: { type: 'boolean' } },
  judgement: true,
  async run(ctx, _args, values) {
    const subject = optString(values, 'subject');
    if (subject === undefined)
      throw new MemoryError('invalid_input', 'erase needs --subject, e.g. person:alice@example.com');
    if (!optFlag(values, 'yes')) {
      // The message names no subject: refusals are audited, and the audit never holds who was to be erased.
      throw new MemoryError('invalid_input', 'erase cannot be undone, so it needs --yes; nothing was erased');
    }
    const result = await ctx.session().erase({ subject });
    return { ...result, subject };
  },
  render(r) {
    const wal = r.checkpointed
      ? 'the write-ahead log was checkpointed: no copy of the content is left on disk'
      : 'another process holds the write-ahead log open: the old bytes leave at its next checkpoint';
    return `erased ${plural(r.erased, 'version')} about ${clean(r.subject)} (erasure ${r.erasureId})\n${wal}\n`;
  },
});
