/**
 * One call's audit record on its way to the audit store (I8). The record keeps one id from the call's first
 * commit to its end: each commit of the call writes it to the store's outbox in the same transaction as the
 * change, the call's end hands the final record to the audit store, and once the audit store holds it durably
 * (at once, or with its next batch) the outbox row is deleted with the next commit. A process killed in between
 * leaves the row, which the next open moves (audit-recovery.ts).
 */
import { performance } from 'node:perf_hooks';
import type { AuditRecord, AuditSink } from '../audit/record.ts';
import { argsHash, type Hash, previewArgs } from '../guard/redact.ts';
import { maskSecrets } from '../guard/secrets.ts';
import type { CallContext } from '../model/context.ts';
import type { MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import { type Principal, principalLabel } from '../model/principal.ts';
import type { FeedStore } from '../store/feeds-port.ts';
import type { OutboxRow, Store, TransactionOptions } from '../store/port.ts';
import type { Trace } from './deps.ts';
import { thisHost } from './host.ts';

/** Who called what, with which arguments: the part of a record fixed when the call starts. */
export interface CallFacts {
  /** The home's keyed hash as it stood when the call began (I9): an erasure's record uses the key it destroys. */
  hash: Hash;
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
          host: thisHost(),
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
    const { principal, ctx, operation, args, now, hash } = this.#facts;
    this.#shape ??= describeArgs(args, hash);
    const targets = [...this.#trace.targets];
    const more =
      extra === undefined && this.#progress === undefined ? undefined : { ...this.#progress, ...extra };
    return {
      id: this.id,
      at: now(),
      principal: principalLabel(principal),
      principalKind: principal.kind,
      onBehalfOf: masked(ctx.onBehalfOf),
      surface: ctx.surface,
      operation,
      tool: ctx.tool ?? null,
      tokenId: ctx.tokenId ?? null,
      sessionId: masked(ctx.sessionId),
      runId: masked(ctx.runId),
      client: masked(ctx.client),
      targets:
        targets.length > MAX_LISTED
          ? [...targets.slice(0, MAX_LISTED), `+${targets.length - MAX_LISTED}`]
          : targets,
      argsHash: this.#shape.hash,
      argsPreview: more === undefined ? this.#shape.preview : withFields(this.#shape.preview, more),
      outcome: failure === null ? 'ok' : 'error',
      failureClass: failure?.class ?? null,
      message: failure?.auditMessage ?? null,
      changes: this.#trace.changes.slice(0, MAX_LISTED),
      durationMs: Math.round((performance.now() - this.#started) * 1000) / 1000,
    };
  }

  /**
   * Writes the final record. Once the audit store holds it durably, the outbox row (if a commit wrote one) is
   * deleted with the next commit; if the write failed, the row stays for a later open to move. A record with a
   * row is backed: the sink may hold it for a batch (sqlite-audit.ts), since the row already covers a kill.
   */
  async finish(
    sink: AuditSink,
    store: Store,
    failure: MemoryError | null,
    extra?: Record<string, unknown>,
  ): Promise<void> {
    const record = this.record(failure, extra);
    if (!this.#outboxed) {
      await writeRecord(sink, record);
      return;
    }
    const id = this.id;
    const durable = () => store.auditOutbox.flushed([id]);
    if (sink.hold !== undefined) holdRecord(sink, record, durable);
    else if (await writeRecord(sink, record, { backed: true })) durable();
  }
}

/**
 * The preview and hash of a call's arguments, which are not validated yet when a call is refused: they may be
 * anything a caller can build (a cycle, a bigint). Describing them must never throw, or the refusal would
 * escape without its audit record (I8).
 */
function describeArgs(args: unknown, hash: Hash): { preview: unknown; hash: string } {
  try {
    return { preview: previewArgs(args, hash), hash: argsHash(args, hash) };
  } catch {
    return {
      preview: '[arguments that are not JSON]',
      hash: argsHash('[arguments that are not JSON]', hash),
    };
  }
}

/** A context field as the audit keeps it: a refused call's secret-shaped session id is recorded masked (I8, I10). */
function masked(value: string | undefined): string | null {
  return value === undefined ? null : maskSecrets(value);
}

/** Appends a record; a failure is reported, never silent, and never fails the call that already happened. */
export async function writeRecord(
  sink: AuditSink,
  record: AuditRecord,
  options?: { backed?: boolean },
): Promise<boolean> {
  try {
    await sink.write(record, options);
    return true;
  } catch (error) {
    process.emitWarning(`memledger: audit write failed: ${(error as Error).message}`);
    return false;
  }
}

/** Hands a backed record to a sink that batches; a failure is reported like a failed write, and the row stays. */
function holdRecord(sink: AuditSink, record: AuditRecord, durable: () => void): void {
  try {
    sink.hold!(record, durable);
  } catch (error) {
    process.emitWarning(`memledger: audit write failed: ${(error as Error).message}`);
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
