/**
 * The part of the Store port that holds agent workspaces: one compressed SQLite snapshot per agent principal,
 * replaced under an optimistic version (so two writers of one workspace, on one home or on two replicas, never
 * interleave), and at most one quarantined copy per agent of a snapshot that failed to restore.
 */

/** What is known of a stored snapshot without reading its bytes. */
export interface WorkspaceSnapshotMeta {
  /** The agent principal whose workspace it is (`agent:scout`). */
  agent: string;
  /** 1 for the first snapshot, one more per replacement. */
  version: number;
  /** Size of the SQLite file the snapshot decompresses to. */
  rawSize: number;
  /** Size of the stored, zstd-compressed bytes. */
  compressedSize: number;
  /** sha256 (hex) of the compressed bytes, checked before a restore. */
  sha256: string;
  tableCount: number;
  updatedAt: string;
  /** Who stored it: the principal label of the call. */
  updatedBy: string;
}

export interface WorkspaceSnapshot extends WorkspaceSnapshotMeta {
  bytes: Uint8Array;
}

/** A new snapshot to store: `baseVersion` is the version the writer started from (0: the agent has none). */
export interface WorkspaceSnapshotPut {
  agent: string;
  baseVersion: number;
  bytes: Uint8Array;
  rawSize: number;
  sha256: string;
  tableCount: number;
  updatedAt: string;
  updatedBy: string;
}

/** A quarantined snapshot: the bytes that failed, kept aside for an operator, the last one per agent only. */
export interface QuarantinedSnapshot {
  agent: string;
  version: number;
  reason: string;
  bytes: Uint8Array;
  at: string;
}

export interface WorkspaceSnapshotStore {
  /** Metadata of the agent's current snapshot, or null when it has none. */
  meta(agent: string): Promise<WorkspaceSnapshotMeta | null>;
  get(agent: string): Promise<WorkspaceSnapshot | null>;
  /**
   * Stores a snapshot if the current version is still `baseVersion` and returns the new version; null when it
   * is not (another writer stored one first): then nothing was written. The old version's bytes are replaced.
   */
  put(snapshot: WorkspaceSnapshotPut): Promise<number | null>;
  /** Every agent's snapshot metadata, by agent. */
  list(): Promise<WorkspaceSnapshotMeta[]>;
  /** Removes the agent's snapshot and its quarantined copy (a reset or an erasure); false when it had neither. */
  delete(agent: string): Promise<boolean>;
  /** Keeps `snapshot` aside for the agent, replacing the one kept before (bounded: one per agent). */
  quarantine(snapshot: QuarantinedSnapshot): Promise<void>;
  quarantined(agent: string): Promise<QuarantinedSnapshot | null>;
  /** Drops the agent's quarantined copy (erasure: it may hold the erased text); false when there was none. */
  dropQuarantine(agent: string): Promise<boolean>;
}
