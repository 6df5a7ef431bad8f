/**
 * `memledger erase (--subject S | --principal P | --session ID | --source PREFIX) (--preview | --yes)`: remove the
 * content of every memory the selector names, keeping tombstones and the audit (I9).
 */
import type { EraseInput, EraseResult } from '../../../ledger/erase.ts';
import type { ErasePreview } from '../../../ledger/erase-preview.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag, optString } from '../args.ts';
import { defineCommand, type Values } from '../command.ts';
import { bodyCell, plural, table } from '../render.ts';

type Outcome = EraseResult | (ErasePreview & { preview: true });

export const erase = defineCommand<Outcome>({
  name: 'erase',
  summary: 'erase everything about a subject, or what a principal, session or source wrote (needs --yes)',
  usage: `memledger erase (--subject S | --principal P | --session ID | --source PREFIX) (--preview | --yes)
  --subject S      every version of every memory about S (e.g. person:alice@example.com)
                   and, in every agent workspace, the rows whose subject is S or whose text names it
  --principal P    every memory P wrote, e.g. agent:scout (its own attributions, not what others wrote)
  --session ID     every memory written in that session
  --source PREFIX  every memory whose source (connector:id, or URL) starts with PREFIX
  Blanks the content in the log, the index and the write-ahead log; leaves tombstones and an audit record.
  --preview shows what would go and changes nothing. Erasure cannot be undone, hence --yes.`,
  options: {
    subject: { type: 'string' },
    principal: { type: 'string' },
    session: { type: 'string' },
    source: { type: 'string' },
    preview: { type: 'boolean' },
    yes: { type: 'boolean' },
  },
  judgement: true,
  async run(ctx, _args, values) {
    const selector = selectorOf(values);
    if (optFlag(values, 'preview')) return { ...(await ctx.session().erasePreview(selector)), preview: true };
    if (!optFlag(values, 'yes')) {
      // The message names nothing erased: refusals are audited, and the audit never holds who was to be erased.
      throw new MemoryError(
        'invalid_input',
        'erase cannot be undone, so it needs --yes (or --preview to see what would go); nothing was erased',
      );
    }
    return ctx.session().erase(selector);
  },
  render(r) {
    if ('preview' in r) {
      const p = r;
      const rows = p.memories.map((m) => [m.id, m.scope, m.state, bodyCell(m)]);
      const head = [
        { header: 'id' },
        { header: 'scope' },
        { header: 'state' },
        { header: 'body', flex: true },
      ];
      const hidden = p.hidden > 0 ? `; ${p.hidden} more in scopes you may not read` : '';
      const blocked =
        p.blockedScopes.length > 0
          ? `\nerase would be refused: you may not write ${p.blockedScopes.join(', ')}`
          : '';
      const ws = (p.workspaceRows ?? []).map((w) => [
        w.workspace,
        w.table,
        String(w.bySubject),
        String(w.byText),
      ]);
      const wsHead = [
        { header: 'workspace' },
        { header: 'table' },
        { header: 'subject rows' },
        { header: 'text rows' },
      ];
      const wsTable = ws.length > 0 ? `${table(wsHead, ws)}\n\n` : '';
      return `${rows.length > 0 ? `${table(head, rows)}\n\n` : ''}${wsTable}erase would blank ${plural(p.total, 'version')}${hidden}${blocked}\nnothing was erased; run again with --yes\n`;
    }
    const e = r;
    const wal = e.checkpointed
      ? 'the write-ahead log was checkpointed: no copy of the content is left on disk'
      : 'another process kept reading memory.db through every checkpoint attempt: erased bytes remain in memory.db-wal until its next checkpoint (stop the other process, or run any write later)';
    const ws =
      e.workspaces === undefined || e.workspaces.rows === 0
        ? ''
        : `deleted ${plural(e.workspaces.rows, 'row')} from ${plural(e.workspaces.workspaces, 'workspace')}\n`;
    return `erased ${plural(e.erased, 'version')} by ${e.selector} (erasure ${e.erasureId})\n${ws}${wal}\n`;
  },
});

/** Exactly one selector, or a refusal that lists them. */
function selectorOf(values: Values): EraseInput {
  const given = {
    subject: optString(values, 'subject'),
    principal: optString(values, 'principal'),
    sessionId: optString(values, 'session'),
    sourcePrefix: optString(values, 'source'),
  };
  const named = Object.entries(given).filter(([, v]) => v !== undefined);
  if (named.length !== 1) {
    throw new MemoryError(
      'invalid_input',
      'erase needs exactly one of --subject S, --principal P, --session ID or --source PREFIX',
    );
  }
  return Object.fromEntries(named) as EraseInput;
}
