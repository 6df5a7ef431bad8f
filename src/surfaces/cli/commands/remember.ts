/** `memledger remember TEXT`: one write through the guard, the gate and the store; prints id, state and why. */
import type { LedgerSession } from '../../../ledger/ledger.ts';
import type { RememberInput, WriteResult } from '../../../model/memory.ts';
import { defined, optJson, optNumber, optString, optStrings } from '../args.ts';
import { defineCommand } from '../command.ts';
import { writeResult } from './results.ts';

export const remember = defineCommand<WriteResult>({
  name: 'remember',
  summary: 'write a memory (a new key value supersedes the current one)',
  usage: `memledger remember TEXT [options]
  --scope S          shared, user:ID, agent:ID or project:ID; default: shared for a person,
                     agent:ID when acting --as agent:ID
  --kind K           fact (default), preference, decision, note, episode, commitment, correction, summary
  --key K            a slot such as acme.plan: writing it again supersedes the current value
  --subject S        whom or what it is about, e.g. person:alice@example.com (repeatable; erase works by subject)
  --supersedes ID    the memory this one replaces
  --valid-from T     when it became true in the world (ISO date or date-time)
  --valid-to T       when it stopped being true
  --value JSON       a structured value, e.g. '{"plan":"pro"}'
  --confidence N     0 to 1 (default 1)
  --source-url URL   where it came from
  --source-note N    a note on where it came from`,
  positionals: { min: 1, max: 1 },
  options: {
    scope: { type: 'string' },
    kind: { type: 'string' },
    key: { type: 'string' },
    subject: { type: 'string', multiple: true },
    supersedes: { type: 'string' },
    'valid-from': { type: 'string' },
    'valid-to': { type: 'string' },
    value: { type: 'string' },
    confidence: { type: 'string' },
    'source-url': { type: 'string' },
    'source-note': { type: 'string' },
  },
  async run(ctx, [body], values) {
    // Parse every option before opening anything, so a malformed call touches nothing.
    const value = optJson(values, 'value');
    const confidence = optNumber(values, 'confidence');
    const source = defined({ url: optString(values, 'source-url'), note: optString(values, 'source-note') });
    const session = ctx.session();
    const input = defined({
      body: body!,
      scope: optString(values, 'scope') ?? naturalScope(session),
      kind: optString(values, 'kind'),
      key: optString(values, 'key'),
      subjects: optStrings(values, 'subject'),
      supersedes: optString(values, 'supersedes'),
      validFrom: optString(values, 'valid-from'),
      validTo: optString(values, 'valid-to'),
      value,
      confidence,
      source: Object.keys(source).length > 0 ? source : undefined,
    });
    return session.remember(input as RememberInput);
  },
  render: (r) => writeResult(r),
});

/** Where a write goes when no scope is named: a person's notes are shared, an agent's stay its own. */
function naturalScope(session: LedgerSession): string {
  const p = session.principal;
  return p.kind === 'agent' ? `agent:${p.id}` : 'shared';
}
