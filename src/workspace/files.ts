/**
 * The seam between a workspace's SQL engine and its persistence: the engine runs an agent's statements on a local
 * SQLite file; persistence makes that file the agent's current snapshot in the Store (embedded home or Postgres,
 * so every replica sees it) and restores it from there. Neither side knows how the other works.
 */

/** How the local copy came to be current for this call; every outcome but `cached` and `fresh` is audited. */
export type CheckoutOutcome = 'cached' | 'fresh' | 'restored' | 'salvaged' | 'reset';

export interface WorkspaceCheckout {
  /** A SQLite file on local disk holding the agent's current workspace (durable tables only: no `__` mounts). */
  path: string;
  /** The stored snapshot's version this copy was made from; 0 when the agent has none yet. */
  version: number;
  outcome: CheckoutOutcome;
  /** For `salvaged` and `reset`: what the agent is told (table names and counts only, never row content). */
  notice?: string;
}

export interface WorkspaceFiles {
  /** The agent's current workspace as a local file, restored from the stored snapshot when the local copy is stale. */
  checkout(agent: string): Promise<WorkspaceCheckout>;
  /**
   * Stores the file at `path` as the agent's new snapshot if the stored version is still `baseVersion`, and returns
   * the new version; a `conflict` MemoryError when another writer stored one first (nothing is overwritten).
   */
  commit(agent: string, path: string, baseVersion: number): Promise<number>;
  /**
   * Runs `fn` (a checkout, work on the local file, a commit) as the only such work on the agent's local file in
   * this process: an erasure's deletes never meet a batch's open transaction on the same file.
   */
  working?<T>(agent: string, fn: () => Promise<T>): Promise<T>;
}
