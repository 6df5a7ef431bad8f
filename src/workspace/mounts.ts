/**
 * The ledger's state mounted into a workspace call as read-only tables (I15), declared here and nowhere else:
 * each with its columns, its one-line mortality note (which the schema prompt shows) and how its rows are read.
 * Rows come from the ledger's own read API for the caller, so scope is the ledger's decision (I4); the engine
 * creates them in the temp database and drops them before COMMIT, so no stored file ever holds them.
 */
import { corrections } from '../ledger/corrections.ts';
import type { Deps } from '../ledger/deps.ts';
import { list } from '../ledger/read.ts';
import { maskEvent } from '../ledger/visibility.ts';
import { isMemoryError } from '../model/errors.ts';
import type { Memory } from '../model/memory.ts';
import type { MountData } from './mount-data.ts';

type Column = MountData['columns'][number];
type Row = MountData['rows'][number];

export interface MountDeclaration {
  name: string;
  note: string;
  columns: Column[];
  /** `memories` reads the caller's current memories (of some kinds) once per call, shared by the mounts. */
  rows(deps: Deps, memories: (kinds: Memory['kind'][]) => Promise<Memory[]>): Promise<Row[]>;
}

/** Newest memories read per call; the note says so, so the model does not take the mount for the whole log. */
const MEMORY_ROWS = 500;
const EVENT_ROWS = 200;

const text = (name: string): Column => ({ name, type: 'TEXT' });
const memoryColumns: Column[] = [
  text('id'),
  text('kind'),
  text('scope'),
  text('key'),
  text('body'),
  text('value'),
  text('subjects'),
  text('trust'),
  text('valid_from'),
  text('valid_to'),
  text('recorded_at'),
  text('principal'),
];
const memoryRow = (m: Memory): Row => [
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

export const MOUNTS: readonly MountDeclaration[] = [
  {
    name: '__memories',
    note: `ephemeral, mounted for this call only (the ${MEMORY_ROWS} newest current memories you may read; change them with save_memory, never here)`,
    columns: memoryColumns,
    rows: async (_deps, memories) => (await memories([])).map(memoryRow),
  },
  {
    name: '__events',
    note: `ephemeral, mounted for this call only (the ${EVENT_ROWS} newest events on the memories in __memories)`,
    columns: [
      text('id'),
      text('type'),
      text('memory_id'),
      text('actor'),
      text('actor_kind'),
      text('at'),
      text('reason'),
    ],
    rows: async (deps, memories) => {
      const ids = (await memories([])).map((m) => m.id);
      if (ids.length === 0) return [];
      const events = (await deps.store.eventsFor(ids)).map(maskEvent);
      events.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
      return events
        .slice(0, EVENT_ROWS)
        .map((e) => [e.id, e.type, e.memoryId, e.actor, e.actorKind, e.at, e.reason]);
    },
  },
  {
    name: '__commitments',
    note: 'ephemeral, mounted for this call only (current memories of kind commitment you may read)',
    columns: memoryColumns,
    rows: async (_deps, memories) => (await memories(['commitment'])).map(memoryRow),
  },
  {
    name: '__corrections',
    note: 'ephemeral, mounted for this call only (what reviewers corrected in your writes: do not repeat those)',
    columns: [
      text('id'),
      text('scope'),
      text('key'),
      text('kind'),
      text('action'),
      text('proposal_id'),
      text('corrected_id'),
      text('reason'),
      text('by'),
      text('at'),
    ],
    rows: async (deps) => {
      const rows = await readable(() => corrections(deps, { limit: 100 }));
      return rows.map((r) => [
        r.id,
        r.scope,
        r.key,
        r.kind,
        r.action,
        r.proposalId,
        r.correctedId,
        r.reason,
        r.by,
        r.at,
      ]);
    },
  },
];

/** Reads each mount's rows for the caller: all of them, or those a batch's statements name. */
export async function mountsFor(deps: Deps, names: ReadonlySet<string> | 'all'): Promise<MountData[]> {
  const out: MountData[] = [];
  const read = new Map<string, Promise<Memory[]>>();
  const memories = (kinds: Memory['kind'][]) => {
    const key = kinds.join(',');
    let got = read.get(key);
    if (got === undefined) {
      got = readMemories(deps, kinds);
      read.set(key, got);
    }
    return got;
  };
  for (const m of MOUNTS) {
    if (names !== 'all' && !names.has(m.name)) continue;
    out.push({ name: m.name, note: m.note, columns: m.columns, rows: await m.rows(deps, memories) });
  }
  return out;
}

/**
 * Which mounts a batch names. Only an economy (a mount nobody reads is not built): a mount the text does not name
 * cannot be reached, since a view or trigger in main may not refer to temp tables.
 */
export function namedMounts(statements: readonly string[]): Set<string> {
  const all = statements.join('\n').toLowerCase();
  return new Set(MOUNTS.filter((m) => all.includes(m.name)).map((m) => m.name));
}

/** The memories a mount shows: newest first, paged by the ledger's own cursor, within the caller's grants. */
async function readMemories(deps: Deps, kinds: Memory['kind'][]): Promise<Memory[]> {
  const out: Memory[] = [];
  let before: string | undefined;
  while (out.length < MEMORY_ROWS) {
    const page = await readable(() =>
      list(deps, {
        limit: 200,
        ...(kinds.length > 0 ? { kinds } : {}),
        ...(before === undefined ? {} : { before }),
      }),
    );
    out.push(...page);
    if (page.length < 200) break;
    before = page.at(-1)!.id;
  }
  return out.slice(0, MEMORY_ROWS);
}

/** A caller without the reader role reads nothing through a mount: an empty table, as the ledger would say. */
async function readable<T>(read: () => Promise<T[]>): Promise<T[]> {
  try {
    return await read();
  } catch (error) {
    if (isMemoryError(error, 'permission')) return [];
    throw error;
  }
}
