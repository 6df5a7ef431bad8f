/**
 * Opens a workspace file the way the engine runs it: no attached databases (limit zero, beside the authorizer's
 * ATTACH denial), no extensions, defensive mode, temp objects in memory (the mounts never touch a file), the size
 * cap as `max_page_count` (set here, never by the agent), the safe functions, and the guard.
 */
import { DatabaseSync } from 'node:sqlite';
import { Guard } from './authorizer.ts';
import type { WorkspaceLimits } from './config.ts';
import { registerFunctions } from './functions.ts';

export interface OpenWorkspace {
  path: string;
  db: DatabaseSync;
  guard: Guard;
  /** Tables the agent used, newest last, flushed into the file with the next write batch (schema-prompt order). */
  usage: Map<string, number>;
  maxPages: number;
  pageSize: number;
}

export function openWorkspace(path: string, limits: Pick<WorkspaceLimits, 'maxBytes'>): OpenWorkspace {
  const db = new DatabaseSync(path, {
    limits: { attach: 0 },
    allowExtension: false,
    defensive: true,
    allowUnknownNamedParameters: true,
    timeout: 5_000,
  });
  const guard = new Guard();
  db.exec('PRAGMA temp_store = MEMORY');
  db.exec('PRAGMA foreign_keys = ON');
  const pageSize = Number((db.prepare('PRAGMA page_size').get() as { page_size: number }).page_size);
  const maxPages = Math.max(1, Math.floor(limits.maxBytes / pageSize));
  db.prepare(`PRAGMA max_page_count = ${maxPages}`).get();
  registerFunctions(db);
  db.setAuthorizer(guard.authorize);
  return { path, db, guard, usage: new Map(), maxPages, pageSize };
}
