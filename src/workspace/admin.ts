/**
 * The admin verbs on agent workspaces: list, show (tables, row counts, sizes: never row content), export (the
 * SQLite file itself: the admin's explicit, audited download) and reset. Humans with the admin role only (I4,
 * I7): an agent reaches its own workspace through the SQL tools, never through these.
 */
import { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import type { Deps } from '../ledger/deps.ts';
import { parseInput } from '../ledger/parse.ts';
import { MemoryError } from '../model/errors.ts';
import { principalRefSchema } from '../model/principal.ts';
import { assertHumanWithRole } from '../policy/access.ts';
import type { WorkspaceSnapshotMeta } from '../store/workspaces-port.ts';
import type { SnapshotFiles } from './snapshots.ts';

export const workspaceAgentSchema = z
  .object({
    agent: principalRefSchema.refine(
      (p) => p.startsWith('agent:'),
      'a workspace belongs to an agent: agent:<id>',
    ),
  })
  .strict();
export type WorkspaceAgentInput = z.input<typeof workspaceAgentSchema>;

export interface WorkspaceTable {
  name: string;
  rows: number;
  /** Bytes of the table's pages, its indexes included. */
  bytes: number;
}

export interface WorkspaceDetail extends WorkspaceSnapshotMeta {
  tables: WorkspaceTable[];
  /** The copy kept aside after a failed restore, if any: when, from which version, why (our words), how big. */
  quarantined: { version: number; reason: string; at: string; compressedSize: number } | null;
  /** How this read got the file: `restored` or `cached`, or `salvaged`/`reset` when the snapshot was damaged. */
  outcome: string;
}

export interface WorkspaceExport {
  agent: string;
  version: number;
  /** The workspace as a SQLite file. */
  bytes: Uint8Array;
}

export async function workspaceList(deps: Deps): Promise<WorkspaceSnapshotMeta[]> {
  assertHumanWithRole(deps.principal, 'admin', 'list agent workspaces');
  return files(deps).store.list();
}

export async function workspaceShow(deps: Deps, input: WorkspaceAgentInput): Promise<WorkspaceDetail> {
  const { agent } = parseInput(workspaceAgentSchema, input, 'workspace');
  assertHumanWithRole(deps.principal, 'admin', 'show an agent workspace');
  const ws = files(deps);
  const meta = await existing(ws, agent);
  const co = await ws.checkout(agent);
  const db = new DatabaseSync(co.path, { readOnly: true });
  let tables: WorkspaceTable[];
  try {
    tables = describeTables(db);
  } finally {
    db.close();
  }
  const q = await ws.store.quarantined(agent);
  const now = (await ws.store.meta(agent)) ?? meta;
  return {
    ...now,
    tables,
    quarantined:
      q === null
        ? null
        : { version: q.version, reason: q.reason, at: q.at, compressedSize: q.bytes.byteLength },
    outcome: co.outcome,
  };
}

export async function workspaceExport(deps: Deps, input: WorkspaceAgentInput): Promise<WorkspaceExport> {
  const { agent } = parseInput(workspaceAgentSchema, input, 'workspace');
  assertHumanWithRole(deps.principal, 'admin', 'export an agent workspace');
  const ws = files(deps);
  await existing(ws, agent);
  // Through a checkout: what is handed over is a restored, checked file, never raw stored bytes.
  const co = await ws.checkout(agent);
  const { readFileSync } = await import('node:fs');
  return { agent, version: co.version, bytes: new Uint8Array(readFileSync(co.path)) };
}

export async function workspaceReset(
  deps: Deps,
  input: WorkspaceAgentInput,
): Promise<{ agent: string; reset: true }> {
  const { agent } = parseInput(workspaceAgentSchema, input, 'workspace');
  assertHumanWithRole(deps.principal, 'admin', 'reset an agent workspace');
  if (!(await files(deps).reset(agent))) throw new MemoryError('not_found', `${agent} has no workspace`);
  return { agent, reset: true };
}

function files(deps: Deps): SnapshotFiles {
  if (deps.workspaces === undefined) throw new MemoryError('internal', 'this ledger has no workspaces');
  return deps.workspaces;
}

async function existing(ws: SnapshotFiles, agent: string): Promise<WorkspaceSnapshotMeta> {
  const meta = await ws.store.meta(agent);
  if (meta === null) throw new MemoryError('not_found', `${agent} has no workspace`);
  return meta;
}

/** Every durable table with its row count and the pages it and its indexes take (dbstat). */
function describeTables(db: DatabaseSync): WorkspaceTable[] {
  const names = (
    db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name",
      )
      .all() as { name: string }[]
  ).map((r) => r.name);
  const sizes = new Map<string, number>();
  const pages = db
    .prepare(
      `SELECT coalesce(i.tbl_name, d.name) AS t, sum(d.pgsize) AS bytes FROM dbstat d
       LEFT JOIN sqlite_schema i ON i.name = d.name AND i.type = 'index' GROUP BY t`,
    )
    .all() as { t: string; bytes: number }[];
  for (const p of pages) sizes.set(p.t, Number(p.bytes));
  return names.map((name) => ({
    name,
    rows: Number(
      (db.prepare(`SELECT count(*) AS n FROM "${name.replaceAll('"', '""')}"`).get() as { n: number }).n,
    ),
    bytes: sizes.get(name) ?? 0,
  }));
}

/** Each admin verb's input and result, for the one session method that runs them (`workspaceAdmin`). */
export interface WorkspaceAdminVerbs {
  list: [Record<string, never>, WorkspaceSnapshotMeta[]];
  show: [WorkspaceAgentInput, WorkspaceDetail];
  export: [WorkspaceAgentInput, WorkspaceExport];
  reset: [WorkspaceAgentInput, { agent: string; reset: true }];
}

export function runWorkspaceAdmin<V extends keyof WorkspaceAdminVerbs>(
  deps: Deps,
  verb: V,
  input: WorkspaceAdminVerbs[V][0],
): Promise<WorkspaceAdminVerbs[V][1]> {
  const run: { [K in keyof WorkspaceAdminVerbs]: (i: never) => Promise<WorkspaceAdminVerbs[K][1]> } = {
    list: () => workspaceList(deps),
    show: (i: WorkspaceAgentInput) => workspaceShow(deps, i),
    export: (i: WorkspaceAgentInput) => workspaceExport(deps, i),
    reset: (i: WorkspaceAgentInput) => workspaceReset(deps, i),
  };
  const fn = run[verb] as (i: WorkspaceAdminVerbs[V][0]) => Promise<WorkspaceAdminVerbs[V][1]>;
  return fn(input);
}
