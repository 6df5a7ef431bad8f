/**
 * The vector side of the store (src/embed): one int8 vector per memory and embedder model, and the queue of
 * memories waiting for one. Once the home records a model (`watch`, the first drain of it), the queue row is
 * written in the memory's own transaction (a trigger), so a write is acknowledged before its vector exists and
 * no memory is forgotten by a killed process; before that, no queue row is written at all (a home without an
 * embedder pays nothing), and the first `watch` queues what has no vector. Erasure deletes a memory's vectors
 * and queue row in the erasure's transaction (I9: a vector can leak content by inversion).
 */
import type { ScopeSet, SearchFields, SearchPlan } from './port.ts';

/** A memory waiting for its vector, with the text to embed. */
export interface PendingText {
  id: string;
  text: string;
}

export interface StoredVector {
  memoryId: string;
  bytes: Int8Array;
  norm: number;
}

/** A nearest-neighbour read: the same filters as a text search, inside the same scopes (I4). */
export interface VectorPlan extends Pick<SearchPlan, 'kinds' | 'subject' | 'key' | 'asOf' | 'validAt'> {
  scopes: ScopeSet;
  model: string;
  query: { bytes: Int8Array; norm: number };
  /** How many nearest memories to return. */
  k: number;
  /** Also the similarity of these memories (the text candidates), where they have a vector. */
  ids: readonly string[];
  /**
   * At most this many vectors are scanned, the newest memories' (by write order), besides the `ids`' own:
   * how an unscoped search by the operator stays bounded in a large home. Absent, every vector in the scopes.
   */
  scan?: number;
}

export interface VectorHit {
  memory: SearchFields;
  similarity: number;
}

export interface VectorMatches {
  nearest: VectorHit[];
  /** Similarity of each of the plan's `ids` that has a vector of the model and passes the filters. */
  similarities: Map<string, number>;
}

export interface VectorCounts {
  /** Memories with a vector of the model (erased ones have none). */
  vectors: number;
  /** Memories waiting in the queue. */
  pending: number;
}

export interface VectorStore {
  /** Ranks every memory in the plan's scopes that has a vector of the model: nothing outside them is read. */
  nearest(plan: VectorPlan): Promise<VectorMatches>;
  /**
   * The oldest queued memories (erased ones are dropped from the queue, never returned); with `scopes`, of those
   * scopes only (a search's catch-up: what it embeds, and so how long it takes, depends on nothing else, I4).
   */
  pending(limit: number, scopes?: ScopeSet): Promise<PendingText[]>;
  /** Stores vectors of the model and clears their queue rows; a memory erased meanwhile gets none. Returns how many landed. */
  put(model: string, vectors: readonly StoredVector[]): Promise<number>;
  /**
   * Records the model (every later write is queued) and queues every memory that is not erased and has no
   * vector of it (a backfill); returns how many were queued.
   */
  enqueueMissing(model: string): Promise<number>;
  /**
   * `enqueueMissing` the first time the home sees this model, else nothing (a read, no write lock): what a
   * drain calls first, so a home whose writes were never queued is caught up. Returns how many were queued.
   */
  watch(model: string): Promise<number>;
  counts(model: string): Promise<VectorCounts>;
  /**
   * How many memories wait in the queue; with `scopes`, the active ones of those scopes only (what a search
   * reports: another scope's queue, or a held memory it cannot find, is not the caller's to know, I4).
   */
  queued(scopes?: ScopeSet): Promise<number>;
}
