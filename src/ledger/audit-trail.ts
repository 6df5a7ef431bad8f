/**
 * One call's audit record on its way to the audit store (I8). The record keeps one id from the call's first
 * commit to its end: each commit of the call writes it to the store's outbox in the same transaction as the
 * change, the call's end writes the final record to the audit store, and the outbox row is deleted with the next
 * commit. A process killed in between leaves the row, which the next open moves (audit-recovery.ts).
 */
import { performance } from 'node:perf_hooks';
import type { AuditRecord, AuditSink } from '../audit/record.ts';
import { argsHash, previewArgs } from '../guard/redact.ts';
import type { CallContext } from '../model/context.ts';
import type { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import { type Principal, principalLabel } from '../model/principal.ts';
import type { FeedStore } from '../store/feeds-port.ts';
import type { OutboxRow, Store, TransactionOptions } from '../store/port.ts';
import type { Trace } from './deps.ts';

/** Who called what, with which arguments: the part of a record fixed when the call starts. */
export interface CallFacts {
  principal: Principal;
  ctx: CallContext;
  operation: string;
  args: unknown;
  now: () => string;
}

/** At most this many targets and changes per record; the rest is counted (`+N`) or cut. */
const MAX_LISTED = 200;

export class CallAudit {
  readonly id = newId('aud');
  readonly #facts: CallFacts;
  readonly #trace: Trace;
  readonly #started: number;
  #shape: { hash: string; preview: unknown } | undefined;
  /** Counts the operation reports as it goes (an import's lines), kept in the preview. */
  #progress: Record<string, unknown> | undefined;
  #outboxed = false;

  constructor(facts: CallFacts, trace: Trace, started: number) {
    this.#facts = facts;
    this.#trace = trace;
    this.#started = started;
  }

  /** The store as this call sees it: every write transaction carries the call's record into the outbox. */
  store(store: Store): Store {
    return withOutbox(store, {
      outbox: () => {
        this.#outboxed = true;
        return {
          id: this.id,
          pid: process.pid,
          record: JSON.stringify(this.record(null)),
        } satisfies OutboxRow;
      },
    });
  }

  /** Notes counts for the preview, so a record recovered after a kill says how far the call got (as of the last note). */
  progress(counts: Record<string, unknown>): void {
    this.#progress = counts;
  }

  /** The record as it stands: `failure` null is an ok outcome. */
  record(failure: MemoryError | null, extra?: Record<string, unknown>): AuditRecord {
    const { principal, ctx, operation, args, now } = this.#facts;
    this.#shape ??= { hash: argsHash(args), preview: previewArgs(args) };
    const targets = [...this.#trace.targets];
    const more =
      extra === undefined && this.#progress === undefined ? undefined : { ...this.#progress, ...extra };
    return {
      id: this.id,
      at: now(),
      principal: principalLabel(principal),
      principalKind: principal.kind,
      onBehalfOf: ctx.onBehalfOf ?? null,
      surface: ctx.surface,
      operation,
      tool: ctx.tool ?? null,
      tokenId: ctx.tokenId ?? null,
      sessionId: ctx.sessionId ?? null,
      runId: ctx.runId ?? null,
      client: ctx.client ?? null,
      targets:
        targets.length > MAX_LISTED
          ? [...targets.slice(0, MAX_LISTED), `+${targets.length - MAX_LISTED}`]
          : targets,
      argsHash: this.#shape.hash,
      argsPreview: more === undefined ? this.#shape.preview : withFields(this.#shape.preview, more),
      outcome: failure === null ? 'ok' : 'error',
      failureClass: failure?.class ?? null,
      message: failure?.message ?? null,
      changes: this.#trace.changes.slice(0, MAX_LISTED),
      durationMs: Math.round((performance.now() - this.#started) * 1000) / 1000,
    };
  }

  /**
   * Writes the final record. Once the audit store holds it, the outbox row (if a commit wrote one) is deleted
   * with the next commit; if the write failed, the row stays for a later open to move.
   */
  finish(sink: AuditSink, store: Store, failure: MemoryError | null, extra?: Record<string, unknown>): void {
    if (writeRecord(sink, this.record(failure, extra)) && this.#outboxed)
      store.auditOutbox.flushed([this.id]);
  }
}

/** Appends a record; a failure is reported, never silent, and never fails the call that already happened. */
export function writeRecord(sink: AuditSink, record: AuditRecord): boolean {
  try {
    sink.write(record);
    return true;
  } catch (error) {
    process.emitWarning(`memledger: audit write failed: ${(error as Error).message}`);
    return false;
  }
}

/** A preview with fields added (counts, the recovered mark); a preview that is not an object keeps only those. */
export function withFields(preview: unknown, fields: Record<string, unknown>): Record<string, unknown> {
  const base = typeof preview === 'object' && preview !== null && !Array.isArray(preview) ? preview : {};
  return { ...base, ...fields };
}

/**
 * The store with `options` on every write: its transactions and its feed writes. A view, not a copy: every
 * other member is the store's own, bound to it (the store keeps its state in private fields).
 */
function withOutbox(store: Store, options: TransactionOptions): Store {
  let feeds: FeedStore | undefined;
  return new Proxy(store, {
    get(target, property) {
      if (property === 'transaction') {
        return (fn: Parameters<Store['transaction']>[0], own?: TransactionOptions) =>
          target.transaction(fn, own ?? options);
      }
      if (property === 'reindex') return (own?: TransactionOptions) => target.reindex(own ?? options);
      if (property === 'feeds') {
        const inner = target.feeds;
        feeds ??= {
          list: () => inner.list(),
          get: (name) => inner.get(name),
          insert: (row, own) => inner.insert(row, own ?? options),
          update: (name, change, own) => inner.update(name, change, own ?? options),
          remove: (name, own) => inner.remove(name, own ?? options),
        };
        return feeds;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
