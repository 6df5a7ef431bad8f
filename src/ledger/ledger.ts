/**
 * The ledger: opens a store (an embedded home or a database, by its spec) and hands out sessions bound to a
 * principal and a call context. Every session call is audited, allowed or refused (I8).
 *
 * Opening stays synchronous for every backend, so no caller changes with the store: an embedded home is open
 * when `openLedger` returns; a backend that opens asynchronously (Postgres) is awaited by the first verb of
 * every session (`ready` says when), and a failed open is that verb's error.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { CallContext } from '../model/context.ts';
import { asMemoryError, MemoryError } from '../model/errors.ts';
import type { Principal } from '../model/principal.ts';
import { nowIso } from '../model/time.ts';
import { localOperator, principalFromRef } from '../policy/identity.ts';
import { DEFAULT_POLICY_DOCUMENT, loadPolicy, parsePolicy, type Policy } from '../policy/policy-file.ts';
import { backendFor, type OpenedStore, resolveStoreSpec, type StoreBackend } from '../store/backend.ts';
import type { TokenStore } from '../auth/token-store.ts';
import type { McpSessionStore } from '../store/mcp-sessions-port.ts';
import type { Durability, Store } from '../store/port.ts';
import { afterRecovery, recoverOutbox } from './audit-recovery.ts';
import { CallAudit } from './audit-trail.ts';
import { type DrainProgress, openSemantic, type Semantic, type SemanticOptions } from '../embed/semantic.ts';
import type { Trace } from './deps.ts';
import { HashKeys } from './hash-keys.ts';
import type { PolicyOrigin } from './policy-check.ts';
import { type LedgerCore, LedgerSession } from './session.ts';
import { limitsFromEnv, type WorkspaceLimits } from '../workspace/config.ts';
import type { WorkspaceFiles } from '../workspace/files.ts';
import { workspaceHost } from '../workspace/host.ts';
import type { WorkspaceHost } from '../workspace/ops.ts';
import { filesOnceOpen, workspaceFilesFor } from '../workspace/files-for.ts';
import type { RecoveryEvent, SnapshotFiles } from '../workspace/snapshots.ts';

export { LedgerSession };

export interface OpenLedgerOptions {
  /**
   * Where the ledger lives: a path (an embedded home, created if missing) or a `postgres://` URL. Defaults to
   * MEMLEDGER_STORE, then MEMLEDGER_HOME, then ~/.memledger.
   */
  store?: string;
  /** The data directory: `store` by its older name, a path only. */
  home?: string;
  /** `normal` (default) survives a killed process; `full` also survives power loss. */
  sync?: Durability;
  /** The tenant inside a shared database (Postgres); an embedded home is one tenant and ignores it. */
  tenant?: string;
  /** A database's owner URL for erasure's maintenance, when the store's own role may not run it (I9). */
  maintenanceUrl?: string;
  /** Use this policy instead of the store's (a home's policy.json; the built-in default for a database). */
  policy?: Policy;
  /** A clock for tests of time (I12). */
  now?: () => string;
  /**
   * Semantic search (src/embed). Off unless asked for here or by MEMLEDGER_EMBEDDER; the CLI and servers
   * ask for `{ embedder: 'auto' }`: the home's choice, else the local model when its optional packages load.
   */
  semantic?: SemanticOptions;
  /** Agent workspaces' engine limits (time, size, result bounds), over MEMLEDGER_WORKSPACE_* and the defaults. */
  workspaceLimits?: Partial<WorkspaceLimits>;
}

/**
 * Opens the ledger on a store.
 * @example
 * const ledger = openLedger({ store: '/tmp/mem' });
 * const me = ledger.as(ledger.operator(), { surface: 'library' });
 * await me.remember({ body: 'Acme is on the Pro plan', scope: 'shared', key: 'acme.plan' });
 */
export function openLedger(options: OpenLedgerOptions = {}): Ledger {
  const backend = backendFor(resolveStoreSpec(options), {
    sync: options.sync,
    tenant: options.tenant,
    maintenanceUrl: options.maintenanceUrl,
  });
  backend.prepare();
  const policyPath = backend.policyPath;
  const policy =
    options.policy ?? (policyPath === null ? parsePolicy(DEFAULT_POLICY_DOCUMENT) : loadPolicy(policyPath));
  const origin: PolicyOrigin =
    options.policy !== undefined
      ? { path: null, source: 'given' }
      : { path: policyPath, source: policyPath !== null && existsSync(policyPath) ? 'file' : 'default' };
  const semantic = openSemantic(options.semantic, backend.home);
  const ledger = new Ledger(backend, backend.open(), policy, options.now ?? nowIso, origin, semantic);
  if (options.workspaceLimits !== undefined) ledger.useWorkspaceLimits(options.workspaceLimits);
  return ledger;
}

export class Ledger {
  readonly policy: Policy;
  /** Where `policy` came from: the home's policy.json, the built-in default, or the opener's code. */
  readonly policyOrigin: PolicyOrigin;
  /** Resolves once the store is open and ready for calls; rejects with the open's error. */
  readonly ready: Promise<void>;
  readonly #place: StoreBackend | string;
  readonly #now: () => string;
  #core: LedgerCore | undefined;
  #failed: MemoryError | undefined;
  #release: (() => void) | undefined;
  #closed = false;
  #released: Promise<void> = Promise.resolve();
  readonly #writing = new Set<Promise<void>>();
  #workspaces: WorkspaceHost | undefined;
  /** Semantic retrieval, when an embedder was chosen: its vectors are filled in by `embedPending`. */
  readonly semantic: Semantic | undefined;
  #workspaceLimits: Partial<WorkspaceLimits> = {};

  /**
   * `where` is the backend (or, for an embedded home opened by hand, its path); `connections` are its open
   * connections or the promise of them.
   */
  constructor(
    where: StoreBackend | string,
    connections: OpenedStore | Promise<OpenedStore>,
    policy: Policy,
    now: () => string,
    origin: PolicyOrigin = { path: null, source: 'given' },
    semantic?: Semantic,
  ) {
    this.semantic = semantic;
    this.policyOrigin = origin;
    this.#place = where;
    this.policy = policy;
    this.#now = now;
    if (connections instanceof Promise) {
      this.ready = connections
        .then((c) => this.#attach(c))
        .catch((error: unknown) => {
          this.#failed = asMemoryError(error);
          throw this.#failed;
        });
      // A ledger nobody calls must not crash the process with an unhandled rejection; every verb rethrows it.
      this.ready.catch(() => undefined);
    } else {
      this.#attach(connections);
      this.ready = Promise.resolve();
    }
  }

  /** The data directory, for a store kept in files (an embedded home); `invalid_input` for a database. */
  get home(): string {
    const home = typeof this.#place === 'string' ? this.#place : this.#place.home;
    if (home === null) {
      throw new MemoryError(
        'invalid_input',
        `the store ${this.storeLabel} is a database, not a data directory`,
      );
    }
    return home;
  }

  /** The store as it may be shown: a path, or a URL without its password. */
  get storeLabel(): string {
    return typeof this.#place === 'string' ? this.#place : this.#place.label;
  }

  /**
   * Moves what dead processes left in the audit outbox (I8), as the open does, for a long-running process (a
   * server): another replica may die after this one opened, and another machine's row passes its lease later.
   * This process's own rows are left to it. Returns how many records it moved.
   */
  async recoverAuditOutbox(): Promise<number> {
    const core = await this.#whenOpen();
    await core.store.auditOutbox.reload();
    return recoverOutbox(core.store, core.audit, false);
  }

  /** The store's API tokens, opened for the caller, who closes them. */
  openTokens(): Promise<TokenStore> {
    const backend = typeof this.#place === 'string' ? backendFor(this.#place) : this.#place;
    return backend.openTokens();
  }

  /** Whether the store lives in files of one directory (`home`). */
  get hasFiles(): boolean {
    return typeof this.#place === 'string' || this.#place.capabilities.files;
  }

  #attach(connections: OpenedStore): void {
    const keys = new HashKeys(connections.store);
    // Records a killed process left in the outbox reach the audit store before any record of this ledger's calls,
    // and before any audit read of it (I8): the sink waits for the move. On SQLite the move is done before the
    // first await, so it is over when the open returns.
    const recovery = recoverOutbox(connections.store, connections.audit, connections.fresh).catch((error) => {
      // The rows stay for the next open; the ledger itself works.
      process.emitWarning(`memledger: moving the audit outbox failed: ${(error as Error).message}`);
    });
    const workspaces = workspaceFilesFor(connections.store, {
      home: typeof this.#place === 'string' ? this.#place : this.#place.home,
      now: this.#now,
      onRecovery: (event) => this.#auditRecovery(event),
    });
    this.#core = {
      store: connections.store,
      audit: afterRecovery(connections.audit, recovery),
      keys,
      workspaces,
      ...(this.semantic === undefined ? {} : { semantic: this.semantic }),
    };
    this.#release = connections.release;
    // Closed while it was opening: close() lets go once the records it was handed are written.
    if (this.#closed) return;
    // Read the key now, so a surface's first refusal is already hashed with it.
    keys.current().catch(() => undefined);
  }

  /** The open store's parts, or why there are none yet. */
  #opened(): LedgerCore {
    if (this.#core !== undefined) return this.#core;
    throw (
      this.#failed ??
      new MemoryError('upstream', `the store ${this.storeLabel} is still opening; await ledger.ready first`)
    );
  }

  /** The parts once the open settled: what a session's first call waits for. */
  #whenOpen = async (): Promise<LedgerCore> => {
    if (this.#core === undefined) await this.ready;
    return this.#opened();
  };

  /** The local human operator (the OS user): every role, every scope. */
  operator(): Principal {
    return localOperator();
  }

  /** A principal by reference (`agent:claude-code`), with roles and grants from the policy. */
  principal(ref: string): Principal {
    return principalFromRef(ref, this.policy);
  }

  /** A session that acts as `principal`; everything it does carries `context` into provenance and audit. */
  as(principal: Principal, context: CallContext = { surface: 'library' }): LedgerSession {
    const session = new LedgerSession(
      this.#core ?? this.#whenOpen,
      this.policy,
      principal,
      context,
      this.#now,
      this.policyOrigin,
    );
    session.workspaces = this.#workspaceHost();
    return session;
  }

  /**
   * The workspaces of this ledger: those given by `useWorkspaces`, else snapshots in this ledger's own store
   * (files-for.ts), reached once the store is open, so a session made while it opens works too.
   */
  #workspaceHost(): WorkspaceHost {
    this.#workspaces ??= workspaceHost(
      filesOnceOpen(async () => (await this.#whenOpen()).workspaces),
      { ...limitsFromEnv(), ...this.#workspaceLimits },
    );
    return this.#workspaces;
  }

  /** Gives the ledger agent workspaces: `files` is their persistence (src/workspace/files.ts), `limits` the engine's. */
  useWorkspaces(files: WorkspaceFiles, limits: Partial<WorkspaceLimits> = {}): void {
    this.#workspaces?.engine.close();
    this.#workspaces = workspaceHost(files, { ...limitsFromEnv(), ...limits });
  }

  /** Sets the workspace engine's limits for sessions made after this call, keeping the store's snapshots. */
  useWorkspaceLimits(limits: Partial<WorkspaceLimits>): void {
    this.#workspaceLimits = { ...limits };
    this.#workspaces?.engine.close();
    this.#workspaces = undefined;
  }

  /**
   * Audits a call a surface handled without a session (I8): one it refused before a session existed (a missing
   * or revoked token, a malformed request), or a surface-level operation such as token management. Without
   * `error` the outcome is ok. `principal` is whoever the credential named, or an anonymous stand-in. Resolves
   * once the record is written (a failed write is warned, never thrown): await it before answering the caller.
   */
  recordSurfaceCall(input: {
    principal?: Principal;
    context: CallContext;
    operation: string;
    args: unknown;
    error?: unknown;
    durationMs: number;
    /** Counts for the preview (a feed sync's items read, written and failed). Numbers and flags, never content. */
    extra?: Record<string, number | boolean>;
  }): Promise<void> {
    const principal = input.principal ?? { kind: 'service', id: 'anonymous', roles: [], grants: [] };
    if (this.#core === undefined) {
      // Still opening: the record is written once the store is open (nowhere, if the open fails).
      return this.#track(
        this.ready.then(() => this.recordSurfaceCall({ ...input, principal })).catch(() => undefined),
      );
    }
    const { keys, audit, store } = this.#core;
    const trace: Trace = { targets: new Set(), changes: [] };
    const facts = {
      hash: keys.now(),
      principal,
      ctx: input.context,
      operation: input.operation,
      args: input.args,
      now: this.#now,
    };
    return this.#track(
      new CallAudit(facts, trace, performance.now() - input.durationMs).finish(
        audit,
        store,
        input.error === undefined ? null : asMemoryError(input.error),
        input.extra,
      ),
    );
  }

  /** A surface record still being written: close() lets the connections go only after it lands (I8). */
  #track(write: Promise<void>): Promise<void> {
    this.#writing.add(write);
    return write.finally(() => this.#writing.delete(write));
  }

  /**
   * Embeds memories waiting for a vector (every one with `backfill`, which first queues those that have none
   * of this model; the first call for a model on a home does the same). Resumable: what landed stays, the rest
   * stays queued. Returns how many were embedded and how many this call queued.
   */
  async embedPending(
    options: { backfill?: boolean; limit?: number; onProgress?: (p: DrainProgress) => void } = {},
  ): Promise<{ embedded: number; queued: number }> {
    const core = await this.#whenOpen();
    if (this.semantic === undefined) throw new MemoryError('invalid_input', 'no embedder is configured');
    const queued = await this.semantic.queue(core.store.vectors, options.backfill === true);
    const embedded = await this.semantic.drain(core.store.vectors, options);
    return { embedded, queued };
  }

  /** MCP sessions over Streamable HTTP: kept in the store, so every process serving this home knows them. */
  get mcpSessions(): McpSessionStore {
    return this.#opened().store.mcpSessions;
  }

  /**
   * Agent workspaces' files: the engine checks out an agent's local copy and commits it back (src/workspace).
   * Restores, salvages and resets are audited as `workspace.recovery` and counted in `counts`.
   */
  get workspaceFiles(): SnapshotFiles {
    return this.#opened().workspaces!;
  }

  /** One audit record per restore, salvage or reset: versions and counts, never a table's content (I8). */
  #auditRecovery(event: RecoveryEvent): Promise<void> {
    let principal: Principal | undefined;
    try {
      principal = this.principal(event.agent);
    } catch {
      principal = undefined;
    }
    return this.recordSurfaceCall({
      ...(principal === undefined ? {} : { principal }),
      context: { surface: 'library', tool: 'workspace' },
      operation: 'workspace.recovery',
      args: { agent: event.agent, outcome: event.outcome },
      durationMs: 0,
      extra: {
        [event.outcome]: true,
        fromVersion: event.fromVersion,
        version: event.version,
        tables: event.tables,
        lost: event.lost,
      },
    });
  }

  /** The store behind the ledger, for conformance tests and benchmarks that plant rows below the guards. */
  get store(): Store {
    return this.#opened().store;
  }

  /**
   * Releases this handle; the connections close when the last ledger on the store in this process closes. The
   * promise settles once this handle has let go (so every record it was handed is written): a process may exit
   * at once after it (the hook does, bin/memledger.js).
   */
  close(): Promise<void> {
    if (this.#closed) return this.#released;
    this.#closed = true;
    this.#workspaces?.engine.close();
    this.#core?.workspaces?.close();
    this.semantic?.close();
    // Still opening, or records still being written: release after them, so none is lost (I8).
    const release = (): Promise<void> =>
      this.#writing.size === 0
        ? Promise.resolve(this.#release?.())
        : Promise.allSettled([...this.#writing]).then(release);
    this.#released = this.#core === undefined ? this.ready.then(release).catch(() => undefined) : release();
    return this.#released;
  }
}
