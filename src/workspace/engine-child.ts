/**
 * The engine's process: one per agent, kept warm with that agent's workspace open. It runs one request at a
 * time. It is a process rather than a worker thread because a statement inside SQLite cannot be stopped from
 * JavaScript: node:sqlite has no interrupt or progress handler, and Worker.terminate() waits for the running
 * sqlite3_step to return (measured: a WITH RECURSIVE without end kept a terminated worker alive). Killing the
 * process stops it at once; its transaction never committed, so the file is as it was (the hot journal is
 * rolled back by the next open).
 */
import { type Binding, mount, runBatch } from './batch.ts';
import type { WorkspaceLimits } from './config.ts';
import type { MountData } from './mount-data.ts';
import { type OpenWorkspace, openWorkspace } from './open.ts';
import { schemaPrompt } from './schema-prompt.ts';

export type EngineRequest =
  | {
      id: number;
      op: 'sql';
      path: string;
      reopen: boolean;
      limits: WorkspaceLimits;
      mounts: MountData[];
      statements: string[];
      bindings: Record<string, Binding>;
    }
  | { id: number; op: 'schema'; path: string; reopen: boolean; limits: WorkspaceLimits; mounts: MountData[] }
  | { id: number; op: 'close' };

export type EngineReply =
  | { id: number; ok: true; value: unknown }
  | {
      id: number;
      ok: false;
      error: { class: string; message: string; details: Record<string, unknown>; auditMessage: string };
    };

let open: OpenWorkspace | undefined;

function workspace(path: string, reopen: boolean, limits: WorkspaceLimits): OpenWorkspace {
  if (open !== undefined && (reopen || open.path !== path)) {
    open.db.close();
    open = undefined;
  }
  open ??= openWorkspace(path, limits);
  return open;
}

function handle(req: EngineRequest): unknown {
  if (req.op === 'close') {
    open?.db.close();
    open = undefined;
    return null;
  }
  const ws = workspace(req.path, req.reopen, req.limits);
  if (req.op === 'sql') return runBatch(ws, req.statements, req.bindings, req.mounts, req.limits);
  ws.guard.engine = true;
  ws.db.exec('BEGIN');
  try {
    mount(ws, req.mounts);
    return schemaPrompt(ws, req.mounts, req.limits);
  } finally {
    ws.db.exec('ROLLBACK');
  }
}

process.on('message', (req: EngineRequest) => {
  let reply: EngineReply;
  try {
    reply = { id: req.id, ok: true, value: handle(req) };
  } catch (error) {
    const e = error as {
      class?: string;
      message?: string;
      details?: Record<string, unknown>;
      auditMessage?: string;
    };
    const known = typeof e.class === 'string';
    const message = known ? String(e.message) : `the workspace engine failed: ${String(e.message ?? error)}`;
    reply = {
      id: req.id,
      ok: false,
      error: {
        class: known ? e.class! : 'internal',
        message,
        details: e.details ?? {},
        auditMessage: known ? (e.auditMessage ?? message) : 'the workspace engine failed',
      },
    };
  }
  process.send?.(reply);
});
// The ledger's process went away: nothing is left to answer.
process.on('disconnect', () => process.exit(0));
