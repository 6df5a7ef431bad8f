/**
 * What every raw baseline offers the cases (raw.ts on node:sqlite, raw-postgres.ts on PostgreSQL): a bulk load,
 * one durable write, and the scoped text queries. Results may be immediate (node:sqlite) or awaited (a server).
 */
import type { Memory } from '../src/model/memory.ts';

export type BaselineRow = Record<string, unknown>;

export interface Baseline {
  /** Loads the memories of export lines; returns how many landed. */
  importLines(lines: AsyncIterable<string>): Promise<number>;
  /** One durable write: the row and its index entry in their own transaction. */
  insertOne(memory: Memory): void | Promise<void>;
  /** Top ten rows matching any of `terms`, in `scope` when given. */
  search(terms: readonly string[], scope: string | null): BaselineRow[] | Promise<BaselineRow[]>;
  /** Top `limit` rows matching any of `terms` in any of `scopes`: what a context block's relevant pool reads. */
  searchIn(
    terms: readonly string[],
    scopes: readonly string[],
    limit: number,
  ): BaselineRow[] | Promise<BaselineRow[]>;
  close(): void | Promise<void>;
}

/** A memory's columns as both raw baselines store them (the memledger row's own columns, nothing derived), in order. */
export function rawColumnValues(m: Memory): (string | number | null)[] {
  return [
    m.id,
    m.scope,
    m.kind,
    m.key,
    m.body,
    m.value === null ? null : JSON.stringify(m.value),
    JSON.stringify(m.subjects),
    m.validFrom,
    m.validTo,
    m.confidence,
    m.supersedes,
    m.editOf,
    m.fingerprint,
    JSON.stringify(m.provenance),
    m.recordedAt,
    m.state,
    m.trust,
    m.supersededBy,
    m.activeFrom,
    m.activeUntil,
    m.confirmedBy,
    m.rule,
  ];
}
