/**
 * The audited call around every verb of a session (I8): wait for a store still opening, take the hash key the
 * call began with, guard the call context (I10), run the verb with its dependencies, and write exactly one audit
 * record whatever the outcome, with the writes' records carried through the store's outbox.
 */
import { performance } from 'node:perf_hooks';
import type { AuditSink } from '../audit/record.ts';
import type { Semantic } from '../embed/semantic.ts';
import { assertNoSecrets } from '../guard/limits.ts';
import type { Hash } from '../guard/redact.ts';
import type { CallContext } from '../model/context.ts';
import { asMemoryError, type MemoryError } from '../model/errors.ts';
import type { Principal } from '../model/principal.ts';
import type { Policy } from '../policy/policy-file.ts';
import type { Store } from '../store/port.ts';
import type { SnapshotFiles } from '../workspace/snapshots.ts';
import { CallAudit } from './audit-trail.ts';
import type { Deps, Trace } from './deps.ts';
import type { HashKeys } from './hash-keys.ts';

/** What a session works on: the open store, its audit sink, and the hash keys read from the store. */
export interface LedgerCore {
  store: Store;
  audit: AuditSink;
  keys: HashKeys;
  /** Agent workspaces' files (issue 11); erasure reaches into them. */
  workspaces?: SnapshotFiles;
  /** Semantic retrieval, when the ledger has an embedder. */
  semantic?: Semantic;
}

/** Who calls, from where, under which policy and clock: the same for every call of a session. */
export interface CallerFacts {
  policy: Policy;
  principal: Principal;
  context: CallContext;
  now: () => string;
}

export class CallRunner {
  /** Set before the first call's work: at once for a store that opened synchronously, else by the first `hash`. */
  #core!: LedgerCore;
  #opening: (() => Promise<LedgerCore>) | undefined;
  readonly #facts: CallerFacts;
  /** The call context passed the credential guard once; it does not change within a session. */
  #contextClean = false;

  /** `core` is the open store's parts, or, for a store still opening, how to wait for them. */
  constructor(core: LedgerCore | (() => Promise<LedgerCore>), facts: CallerFacts) {
    this.#facts = facts;
    if (typeof core === 'function') this.#opening = core;
    else this.#core = core;
  }

  /** The store, once a call has waited for it (`hash` does). */
  get store(): Store {
    return this.#core.store;
  }

  get auditSink(): AuditSink {
    return this.#core.audit;
  }

  async call<T>(
    operation: string,
    args: unknown,
    fn: (deps: Deps, audit: CallAudit) => Promise<T>,
  ): Promise<T> {
    const trace: Trace = { targets: new Set(), changes: [] };
    // The key current when the call began: an erasure's own record is hashed with the key it destroys.
    const audit = this.#callAudit(await this.hash(), operation, args, trace, performance.now());
    try {
      this.guardContext();
      const result = await fn(this.deps(trace, audit), audit);
      await audit.finish(this.#core.audit, this.#core.store, null);
      return result;
    } catch (error) {
      const failure = asMemoryError(error);
      await audit.finish(this.#core.audit, this.#core.store, failure);
      throw failure;
    } finally {
      if (operation === 'erase') this.#core.keys.forget();
    }
  }

  /** Asks a long call's credential whether it still holds; a refusal is audited as a failure of `operation`. */
  async stillValid(check: () => void | Promise<void>, operation: string, args: unknown): Promise<void> {
    const started = performance.now();
    try {
      await check();
    } catch (error) {
      const failure = asMemoryError(error);
      await this.#callAudit(
        await this.hash(),
        operation,
        args,
        { targets: new Set(), changes: [] },
        started,
      ).finish(this.#core.audit, this.#core.store, failure);
      throw failure;
    }
  }

  /** With `audit`, every write of the call carries its record into the store's outbox (I8). */
  deps(trace: Trace, audit?: CallAudit): Deps {
    const core = this.#core;
    return {
      store: audit === undefined ? core.store : audit.store(core.store),
      policy: this.#facts.policy,
      principal: this.#facts.principal,
      ctx: this.#facts.context,
      trace,
      now: this.#facts.now,
      ...(core.workspaces === undefined ? {} : { workspaces: core.workspaces }),
      ...(core.semantic === undefined ? {} : { semantic: core.semantic }),
    };
  }

  /**
   * The hash key for this call's audit record; if the store cannot give one, one nobody holds (never a plain hash).
   * Every call asks for it first, so this is where a call waits for a store still opening: a failed open is the
   * call's error, unaudited, since there is no audit store to write to.
   */
  async hash(): Promise<Hash> {
    if (this.#opening !== undefined) {
      this.#core = await this.#opening();
      this.#opening = undefined;
    }
    try {
      return await this.#core.keys.current();
    } catch {
      return this.#core.keys.now();
    }
  }

  /**
   * Refuses every verb of a session whose context carries something secret-shaped (I10): the session and
   * run ids, on-behalf-of and client name are stamped into provenance, so they pass the write guard first.
   */
  guardContext(): void {
    if (this.#contextClean) return;
    const { sessionId, runId, onBehalfOf, client } = this.#facts.context;
    assertNoSecrets({ sessionId, runId, onBehalfOf, client });
    this.#contextClean = true;
  }

  /** One audit record for a call that ran outside `call` (a streamed export), with extra counts. */
  record(
    hash: Hash,
    operation: string,
    args: unknown,
    trace: Trace,
    started: number,
    failure: MemoryError | null,
    extra?: Record<string, unknown>,
  ): Promise<void> {
    return this.#callAudit(hash, operation, args, trace, started).finish(
      this.#core.audit,
      this.#core.store,
      failure,
      extra,
    );
  }

  #callAudit(hash: Hash, operation: string, args: unknown, trace: Trace, started: number): CallAudit {
    const f = this.#facts;
    const facts = { hash, principal: f.principal, ctx: f.context, operation, args, now: f.now };
    return new CallAudit(facts, trace, started);
  }
}
