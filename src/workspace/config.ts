/** A workspace's limits: what one call may cost and how much of it the model is shown. Copied and frozen per host. */

export interface WorkspaceLimits {
  /** A batch still running after this long is stopped by killing its engine process (I16). */
  timeoutMs: number;
  /** The file may not grow past this: the engine sets `max_page_count` from it on every open. */
  maxBytes: number;
  /** Rows shown per statement. */
  maxRows: number;
  /** JSON bytes of rows shown per statement. */
  maxResultBytes: number;
  /** A longer cell is cut to its head and tail, with the omitted byte count between. */
  maxCellChars: number;
  /** The schema prompt's budget. */
  schemaTables: number;
  schemaBytes: number;
}

export const DEFAULT_LIMITS: Readonly<WorkspaceLimits> = Object.freeze({
  timeoutMs: 10_000,
  maxBytes: 256 * 1024 * 1024,
  maxRows: 100,
  maxResultBytes: 8 * 1024,
  maxCellChars: 400,
  schemaTables: 25,
  schemaBytes: 30_000,
});

export function workspaceLimits(given: Partial<WorkspaceLimits> = {}): Readonly<WorkspaceLimits> {
  const out = { ...DEFAULT_LIMITS };
  for (const [k, v] of Object.entries(given)) {
    if (v !== undefined) (out as Record<string, number>)[k] = v;
  }
  return Object.freeze(out);
}

/**
 * The limits an operator sets for every ledger of a process: MEMLEDGER_WORKSPACE_TIMEOUT_MS and
 * MEMLEDGER_WORKSPACE_MAX_BYTES (read here only; unset or not a positive number: the default stands).
 */
export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): Partial<WorkspaceLimits> {
  const out: Partial<WorkspaceLimits> = {};
  const timeout = Number(env.MEMLEDGER_WORKSPACE_TIMEOUT_MS);
  const max = Number(env.MEMLEDGER_WORKSPACE_MAX_BYTES);
  if (timeout > 0) out.timeoutMs = timeout;
  if (max > 0) out.maxBytes = max;
  return out;
}

/** Names the engine keeps for itself: mounts (`__…`), its usage record, and SQLite's own. */
export const MOUNT_PREFIX = '__';
export const USAGE_TABLE = '_workspace_usage';
export function isReservedName(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith(MOUNT_PREFIX) || n.startsWith('_workspace_') || n.startsWith('sqlite_');
}

export const megabytes = (bytes: number): string => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
