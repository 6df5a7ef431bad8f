/**
 * What brings a commitment to mind: its time (due, a time trigger, a schedule) or a semantic trigger. These are
 * the two questions a scheduler or a behavior asks (src/behaviors calls them):
 * - `commitmentsDueIn`: which live commitments came due in (from, to] in these scopes, and why;
 * - `commitmentsTriggeredBy`: which live commitments a new memory (or a task's text) triggers.
 * Both read through the caller's grants (I4); done and cancelled commitments never come up.
 */
import { LIVE_STATUSES } from '../../model/commitment.ts';
import { MemoryError } from '../../model/errors.ts';
import { toIso } from '../../model/time.ts';
import { readFilter } from '../../policy/access.ts';
import type { Deps } from '../deps.ts';
import { readableScopes } from '../scopes.ts';
import { type Commitment, visible } from './commitments.ts';
import { firstFiring, parseCron } from '../../model/cron.ts';
import { type TriggerProbe, triggerMatch } from './triggers.ts';

/** A commitment that came up, and why: when it fell due, or what in the probe matched its trigger. */
export interface Prospect {
  commitment: Commitment;
  reason: 'due' | 'reminder' | 'schedule' | 'triggered';
  /** The instant it came due (due, reminder, schedule), or null for a semantic trigger. */
  at: string | null;
  /** What matched (for `triggered`): `words "acme renewal"`, `subject company:acme`, `key acme.plan`. */
  matched: string | null;
}

/** How many commitments one question scans at most. */
const SCAN = 500;

/**
 * Live commitments whose due time, time trigger or schedule falls in (from, to], soonest first.
 * @example await commitmentsDueIn(deps, { from: lastTick, to: now, scopes: ['shared'] })
 */
export async function commitmentsDueIn(
  deps: Deps,
  input: { from: string; to: string; scopes?: string[] },
): Promise<Prospect[]> {
  const from = toIso(input.from, 'from');
  const to = toIso(input.to, 'to');
  if (from >= to) throw new MemoryError('invalid_input', 'from must be before to');
  const filter = readFilter(deps.principal, input.scopes);
  const scopes = readableScopes(deps.principal, input.scopes);
  const out: Prospect[] = [];
  const timed = await deps.store.commitments.dueBetween(scopes, from, to, SCAN);
  const memories = await deps.store.getMemories(timed.map((r) => r.memoryId));
  timed.forEach((row, i) => {
    const memory = memories[i];
    if (memory === null || memory === undefined) return;
    for (const commitment of visible([{ commitment: row, memory }], filter)) {
      const due = row.dueAt !== null && row.dueAt > from && row.dueAt <= to;
      out.push({
        commitment,
        reason: due ? 'due' : 'reminder',
        at: due ? row.dueAt : row.remindAt,
        matched: null,
      });
    }
  });
  const scheduled = await deps.store.commitments.list({
    scopes,
    statuses: LIVE_STATUSES,
    with: 'scheduled',
    limit: SCAN,
  });
  for (const commitment of visible(scheduled, filter)) {
    const schedule = commitment.triggers.schedule;
    if (schedule === undefined) continue;
    const at = firstFiring(parseCron(schedule.cron), schedule.tz, from, to);
    if (at !== null) out.push({ commitment, reason: 'schedule', at, matched: null });
  }
  for (const p of out) deps.trace.targets.add(p.commitment.id);
  return out.sort((a, b) => (a.at ?? '').localeCompare(b.at ?? ''));
}

/**
 * Live commitments whose semantic trigger the probe matches: a memory's text, key and subjects (pass the
 * memory), or a task's text alone.
 * @example await commitmentsTriggeredBy(deps, { text: memory.body, key: memory.key, subjects: memory.subjects })
 */
export async function commitmentsTriggeredBy(
  deps: Deps,
  probe: TriggerProbe,
  scopes?: string[],
): Promise<Prospect[]> {
  const filter = readFilter(deps.principal, scopes);
  const records = await deps.store.commitments.list({
    scopes: readableScopes(deps.principal, scopes),
    statuses: LIVE_STATUSES,
    with: 'semantic',
    limit: SCAN,
  });
  const out: Prospect[] = [];
  for (const commitment of visible(records, filter)) {
    const matched = triggerMatch(commitment.triggers, probe);
    if (matched !== null) out.push({ commitment, reason: 'triggered', at: null, matched });
  }
  for (const p of out) deps.trace.targets.add(p.commitment.id);
  return out;
}
