/**
 * The views a behavior's sources read: `memories` (current memories in the behavior's read scopes), `events`
 * (the run's window, then the newest events on those memories) and `commitments` (commitment memories with
 * their status). Every row comes from the ledger's own reads for the caller (list, eventsFor, the commitments
 * part of the store), then narrowed to the behavior's read scopes: scope is the ledger's decision (I4), on
 * either backend; the SQL never sees the store.
 */
import type { Deps } from '../ledger/deps.ts';
import { list } from '../ledger/read.ts';
import { maskEvent } from '../ledger/visibility.ts';
import { isMemoryError } from '../model/errors.ts';
import type { Memory } from '../model/memory.ts';
import { scopeMatches } from '../model/scope.ts';
import type { MountData } from '../workspace/mount-data.ts';
import type { BehaviorDefinition } from './definition.ts';
import type { WindowEvent } from './window.ts';

/** Newest memories and events a view holds; a source that needs the whole log is the wrong tool. */
const MEMORY_ROWS = 500;
const EVENT_ROWS = 500;

type Column = MountData['columns'][number];
const text = (name: string): Column => ({ name, type: 'TEXT' });
const MEMORY_COLUMNS = [
  'id',
  'kind',
  'scope',
  'key',
  'body',
  'value',
  'subjects',
  'trust',
  'valid_from',
  'valid_to',
  'recorded_at',
  'principal',
].map(text);
const memoryRow = (m: Memory): MountData['rows'][number] => [
  m.id,
  m.kind,
  m.scope,
  m.key,
  m.body,
  m.value === null || m.value === undefined ? null : JSON.stringify(m.value),
  JSON.stringify(m.subjects),
  m.trust,
  m.validStart,
  m.validEnd,
  m.recordedAt,
  m.provenance.principal,
];

export async function sourceViews(
  deps: Deps,
  def: BehaviorDefinition,
  window: readonly WindowEvent[],
): Promise<MountData[]> {
  const inReads = (scope: string) => def.reads.scopes.some((p) => scopeMatches(p, scope));
  const memories = (await readMemories(deps)).filter((m) => inReads(m.scope));
  const shown = new Set(window.map((e) => e.id));
  const events = [...window.map((e) => [e.id, e.type, e.memory.id, e.at, 1] as (string | number | null)[])];
  const ids = memories.map((m) => m.id);
  if (ids.length > 0) {
    const recent = (await deps.store.eventsFor(ids)).map(maskEvent).filter((e) => !shown.has(e.id));
    recent.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
    for (const e of recent.slice(0, Math.max(0, EVENT_ROWS - events.length))) {
      events.push([e.id, e.type, e.memoryId, e.at, 0]);
    }
  }
  const commitments = memories.filter((m) => m.kind === 'commitment');
  const rows = await deps.store.commitments.forMemories(commitments.map((m) => m.id));
  const status = new Map(rows.map((r) => [r.memoryId, r]));
  return [
    { name: 'memories', note: '', columns: MEMORY_COLUMNS, rows: memories.map(memoryRow) },
    {
      name: 'events',
      note: '',
      columns: [
        text('id'),
        text('type'),
        text('memory_id'),
        text('at'),
        { name: 'in_window', type: 'INTEGER' },
      ],
      rows: events,
    },
    {
      name: 'commitments',
      note: '',
      columns: [...MEMORY_COLUMNS, text('owner'), text('status'), text('due_at'), text('completed_at')],
      rows: commitments.map((m) => {
        const r = status.get(m.id);
        return [
          ...memoryRow(m),
          r?.owner ?? null,
          r?.status ?? null,
          r?.dueAt ?? null,
          r?.completedAt ?? null,
        ];
      }),
    },
  ];
}

/** The caller's current memories, newest first, paged by the ledger's own cursor (I4 is list's decision). */
async function readMemories(deps: Deps): Promise<Memory[]> {
  const out: Memory[] = [];
  let before: string | undefined;
  try {
    while (out.length < MEMORY_ROWS) {
      const page = await list(deps, { limit: 200, ...(before === undefined ? {} : { before }) });
      out.push(...page);
      if (page.length < 200) break;
      before = page.at(-1)!.id;
    }
  } catch (error) {
    // A caller without the reader role reads nothing: empty views, as the ledger would say.
    if (!isMemoryError(error, 'permission')) throw error;
  }
  return out.slice(0, MEMORY_ROWS);
}
