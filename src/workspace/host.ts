/** Builds the workspace host a ledger is given: persistence from outside, one engine, the limits frozen. */
import { type WorkspaceLimits, workspaceLimits } from './config.ts';
import { WorkspaceEngine } from './engine.ts';
import type { WorkspaceFiles } from './files.ts';
import type { WorkspaceHost } from './ops.ts';

export function workspaceHost(files: WorkspaceFiles, limits: Partial<WorkspaceLimits> = {}): WorkspaceHost {
  return { files, engine: new WorkspaceEngine(), limits: workspaceLimits(limits) };
}
