/** The demo's script: each step calls the library as a person or an agent would and says what happened. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ledger, LedgerSession } from '../../../ledger/ledger.ts';
import type { SearchResult } from '../../../ledger/search.ts';
import type { WriteResult } from '../../../model/memory.ts';
import { formatTime, oneLine, plural, truncate } from '../render.ts';
import type { DemoStep } from './demo.ts';

const ERASED_PERSON = 'person:dana@acme.example';
const ERASED_NAME = 'Whitfield';

/** Runs the walk-through on a fresh ledger and returns its steps. */
export async function runDemoSteps(ledger: Ledger): Promise<DemoStep[]> {
  const steps: DemoStep[] = [];
  const say = (title: string, said: string[], data: unknown) =>
    steps.push({ step: steps.length + 1, title, said, data });

  const me = ledger.as(ledger.operator(), { surface: 'cli', tool: 'demo', sessionId: 'demo-terminal' });
  const person = me.principal.kind + ':' + me.principal.id;
  const bot = (sessionId: string): LedgerSession =>
    ledger.as(ledger.principal('agent:support-bot'), { surface: 'cli', tool: 'demo', sessionId });

  // 1. A person writes what the team knows.
  const seeded: WriteResult[] = [
    await me.remember({
      body: 'Acme Corp is on the Pro plan, billed yearly',
      scope: 'shared',
      key: 'acme.plan',
      value: { plan: 'pro' },
      subjects: ['company:acme'],
    }),
    await me.remember({
      body: "Dana Whitfield is Acme's main contact; she prefers email to phone calls",
      scope: 'shared',
      kind: 'preference',
      subjects: [ERASED_PERSON, 'company:acme'],
    }),
    await me.remember({
      body: 'Calls with Dana Whitfield go in the Tuesday 10:00 slot',
      scope: 'shared',
      kind: 'note',
      subjects: [ERASED_PERSON],
    }),
    await me.remember({ body: 'Deploys are frozen on Fridays', scope: 'shared', kind: 'decision' }),
  ];
  const own = await bot('support-chat-1').remember({
    body: 'Acme tickets are tagged enterprise in the helpdesk',
    scope: 'agent:support-bot',
    kind: 'note',
  });
  say(
    'A person writes down what the team knows',
    [
      `${person} remembered ${seeded.length} memories in scope shared, e.g.`,
      `  "Acme Corp is on the Pro plan, billed yearly" under key acme.plan → ${seeded[0]!.state}, trust confirmed`,
      `agent:support-bot wrote a note in its own scope agent:support-bot → ${own.state} (policy: agents land in their own scope)`,
    ],
    { seeded, own },
  );

  // 2. Facts change: a new value for the key supersedes the old one.
  const moved = await me.remember({
    body: 'Acme Corp moved to the Enterprise plan in March',
    scope: 'shared',
    key: 'acme.plan',
    value: { plan: 'enterprise' },
    subjects: ['company:acme'],
    validFrom: '2025-03-01',
  });
  say(
    'Facts change: writing the same key supersedes the old value',
    [
      `"Acme Corp moved to the Enterprise plan in March" → ${moved.state}, supersedes ${moved.supersedes}`,
      'the Pro plan is kept as history; default reads no longer return it',
    ],
    moved,
  );

  // 3. History.
  const history = await me.history(moved.id);
  say(
    'History keeps every version, oldest first',
    [
      ...history.versions.flatMap((v) => [
        `${v.id}  ${v.state.padEnd(10)}  "${truncate(oneLine(v.body), 50)}"`,
        `  recorded ${formatTime(v.recordedAt)} by ${v.provenance.principal}; valid time ${v.validFrom === null ? 'not stated' : `from ${v.validFrom.slice(0, 10)}`}`,
      ]),
      'two clocks: when we learned it (recorded) and when it is true (valid); both can be queried',
    ],
    history,
  );

  // 4. An agent proposes to change a fact a person owns: held.
  const proposal = await bot('support-chat-1').remember({
    body: 'Acme Corp is on the Free plan',
    scope: 'shared',
    key: 'acme.plan',
  });
  const queue = await me.reviewList();
  say(
    "An agent's change to a fact a person owns waits for review",
    [
      `agent:support-bot (session support-chat-1) proposed "Acme Corp is on the Free plan" for acme.plan`,
      `→ ${outcome(proposal)}`,
      `the review queue now holds ${plural(queue.length, 'write')}; search does not see it`,
    ],
    { proposal, queue: queue.map((m) => m.id) },
  );

  // 5. A person rejects it with a reason.
  const reason = 'Billing confirmed the Enterprise plan in March; Free was the old trial';
  const rejected = await me.reject({ id: proposal.id, reason });
  say(
    'A person rejects it, with a reason',
    [
      `${person} rejected ${rejected.id}: "${reason}"`,
      'the claim itself is remembered as rejected in scope shared',
    ],
    rejected,
  );

  // 6. The same claim from another session lands as rejected, and the agent is told why (I5).
  const again = await bot('support-chat-2').remember({
    body: 'acme corp is on the FREE plan.',
    scope: 'shared',
    key: 'acme.plan',
  });
  say(
    'The same claim from a new session lands as rejected, and the agent is told why',
    [
      'agent:support-bot (session support-chat-2) wrote "acme corp is on the FREE plan."',
      `→ ${outcome(again)}`,
    ],
    again,
  );

  // 7. Search returns what is current.
  const found = await me.search({ query: 'Which plan is Acme Corp on?', limit: 3 });
  say(
    'Search returns only what is current, best first',
    [
      'search "Which plan is Acme Corp on?" (top 3) →',
      ...hitLines(found),
      'the superseded Pro plan and the rejected Free plan are not returned',
    ],
    found,
  );

  // 8. Erase a person.
  const before = await me.search({ query: 'Dana Whitfield' });
  const erased = await me.erase({ subject: ERASED_PERSON });
  const onDisk = occurrences(ledger.home, ERASED_NAME);
  say(
    'Erasing a person removes every memory about them, in every version',
    [
      `search "Dana Whitfield" found ${plural(before.hits.length, 'memory', 'memories')} before`,
      `erase ${ERASED_PERSON} → ${plural(erased.erased, 'version')} erased; write-ahead log checkpointed: ${erased.checkpointed ? 'yes' : 'no'}`,
      `"${ERASED_NAME}" now appears ${plural(onDisk, 'time')} in the home's files; a tombstone and an audit record remain`,
    ],
    { erased, bytesFound: onDisk },
  );

  // 9. Search again: gone.
  const after = await me.search({ query: 'Dana Whitfield' });
  say(
    'Search again: she is gone',
    [
      `search "Dana Whitfield" → ${after.hits.length === 0 ? 'no results' : plural(after.hits.length, 'result')}`,
      'every call above, allowed or refused, is in the audit log (memledger audit), without memory content',
    ],
    after,
  );
  return steps;
}

function hitLines(result: SearchResult): string[] {
  return result.hits.map(
    (h, i) => `  ${i + 1}. ${h.memory.trust.padEnd(9)}  "${truncate(oneLine(h.memory.body), 60)}"`,
  );
}

/** `held for review (ownership): …`, or `rejected: this claim was rejected on …`: the state, then why. */
function outcome(r: WriteResult): string {
  if (r.reason === undefined) return r.state;
  return r.reason.startsWith(r.state) ? r.reason : `${r.state}: ${r.reason}`;
}

/** How many times `text` occurs in the bytes of the home's files: the demo's own check of erasure (I9). */
function occurrences(home: string, text: string): number {
  const needle = Buffer.from(text);
  let count = 0;
  for (const name of readdirSync(home)) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(join(home, name));
    } catch {
      continue;
    }
    for (let at = bytes.indexOf(needle); at !== -1; at = bytes.indexOf(needle, at + 1)) count++;
  }
  return count;
}
