/**
 * The part of the Store port that feeds need: feed definitions with their checkpoints, and the source items
 * already turned into memories. Kept apart from port.ts so the memory port stays the ledger's own.
 */
import type { TransactionOptions } from './port.ts';

/** A feed as stored: a connector, its configuration, and how far it has read. */
export interface FeedRow {
  name: string;
  /** `claude-code`, `codex` or `folder`. */
  connector: string;
  /** Connector settings (path, scope, principal). Never content. */
  config: Record<string, unknown>;
  /** The connector's position: per file, an offset and a fingerprint of the head. Never content. */
  checkpoint: Record<string, unknown>;
  /** Running totals of what syncs did. */
  stats: Record<string, number>;
  createdAt: string;
  lastSyncAt: string | null;
  lastError: string | null;
}

export interface FeedUpdate {
  config?: Record<string, unknown>;
  checkpoint?: Record<string, unknown>;
  stats?: Record<string, number>;
  lastSyncAt?: string | null;
  lastError?: string | null;
}

/** A source item (a transcript line's claim, a note's bullet) and the memory it produced, in its scope. */
export interface SourceItem {
  connector: string;
  /** The scope the item landed in: the same item lands once per scope (two projects each get theirs). */
  scope: string;
  itemId: string;
  memoryId: string;
  at: string;
}

/**
 * Feed definitions and checkpoints. Each call is one short write or read, queued with the store's other work;
 * each write is a transaction of its own that carries the call's audit outbox row (`options`, I8).
 */
export interface FeedStore {
  list(): Promise<FeedRow[]>;
  get(name: string): Promise<FeedRow | null>;
  /** Adds a feed; a feed of that name already there is a `conflict`. */
  insert(row: FeedRow, options?: TransactionOptions): Promise<void>;
  /** Changes the given fields of a feed; a missing feed is `not_found`. */
  update(name: string, change: FeedUpdate, options?: TransactionOptions): Promise<void>;
  /** Removes a feed's definition and checkpoint; its items stay recorded, so re-adding it mines nothing twice. */
  remove(name: string, options?: TransactionOptions): Promise<boolean>;
}
