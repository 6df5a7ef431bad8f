/**
 * The ledger: opens a data directory and hands out sessions bound to a principal and a call context.
 * Every session call is audited, allowed or refused (I8).
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AuditSink } from '../audit/record.ts';
import type { CallContext } from '../model/context.ts';
import { asMemoryError } from '../model/errors.ts';
import type { Principal } from '../model/principal.ts';
import { nowIso } from '../model/time.ts';
import { localOperator, principalFromRef } from '../policy/identity.ts';
import { loadPolicy, type Policy } from '../policy/policy-file.ts';
import type { McpSessionStore } from '../store/mcp-sessions-port.ts';
import type { Store } from '../store/port.ts';
import type { Sync } from '../store/sqlite/database.ts';
import { afterRecovery, recoverOutbox } from './audit-recovery.ts';
import { CallAudit } from './audit-trail.ts';
import type { Trace } from './deps.ts';
import { HashKeys } from './hash-keys.ts';
import { ensureHome, homePaths, resolveHome } from './home.ts';
import { acquireConnections, type Connections } from './open-homes.ts';
import type { PolicyOrigin } from './policy-check.ts';
import { LedgerSession } from './session.ts';

export { LedgerSession };

export interface OpenLedgerOptions {
  /** The data directory; defaults to MEMLEDGER_HOME, then ~/.memledger. Created if missing. */
  home?: string;
  /** `normal` (default) survives a killed process; `full` also survives power loss. */
  sync?: Sync;
  /** Use this policy instead of the home's policy.json. */
  policy?: Policy;
  /** A clock for tests of time (I12). */
  now?: () => string;
}

/**
 * Opens the ledger on a data directory.
 * @example
 * const ledger = openLedger({ home: '/tmp/mem' });
 * const me = ledger.as(ledger.operator(), { surface: 'library' });
 * await me.remember({ body: 'Acme is on the Pro plan', scope: 'shared', key: 'acme.plan' });
 */
export function openLedger(options: OpenLedgerOptions = {}): Ledger {
  const home = resolveHome(options.home);
  ensureHome(home);
  const paths = homePaths(home);
  const policy = options.policy ?? loadPolicy(paths.policy);
  const origin: PolicyOrigin =
    options.policy === undefined
      ? { path: paths.policy, source: existsSync(paths.policy) ? 'file' : 'default' }
      : { path: null, source: 'given' };
  const connections = acquireConnections(home, options.sync);
  return new Ledger(home, connections, policy, options.now ?? nowIso, origin);
}

export class Ledger {
  readonly home: string;
  readonly policy: Policy;
  readonly #store: Store;
  readonly #audit: AuditSink;
  readonly #release: () => void;
  readonly #now: () => string;
  readonly #keys: HashKeys;
  /** Where `policy` came from: the home's policy.json, the built-in default, or the opener's code. */
  readonly policyOrigin: PolicyOrigin;

  constructor(
    home: string,
    connections: Connections,
    policy: Policy,
    now: () => string,
    origin: PolicyOrigin = { path: null, source: 'given' },
  ) {
    this.policyOrigin = origin;
    this.home = home;
    this.#store = connections.store;
    this.#release = connections.release;
    this.policy = policy;
    this.#now = now;
    this.#keys = new HashKeys(this.#store);
    // Read the key now, so a surface's first refusal is already hashed with it.
    this.#keys.current().catch(() => undefined);
    // Records a killed process left in the outbox reach the audit store before any record of this ledger's calls,
    // and before any audit read of it (I8): the sink waits for the move. On SQLite the move is done before the
    // first await, so it is over when openLedger returns.
    const recovery = recoverOutbox(this.#store, connections.audit, connections.fresh).catch((error) => {
      // The rows stay for the next open; the ledger itself works.
      process.emitWarning(`memledger: moving the audit outbox failed: ${(error as Error).message}`);
    });
    this.#audit = afterRecovery(connections.audit, recovery);
  }

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
    return new LedgerSession(
      this.#store,
      this.#audit,
      this.#keys,
      this.policy,
      principal,
      context,
      this.#now,
      this.policyOrigin,
    );
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
    const trace: Trace = { targets: new Set(), changes: [] };
    const facts = {
      hash: this.#keys.now(),
      principal,
      ctx: input.context,
      operation: input.operation,
      args: input.args,
      now: this.#now,
    };
    return new CallAudit(facts, trace, performance.now() - input.durationMs).finish(
      this.#audit,
      this.#store,
      input.error === undefined ? null : asMemoryError(input.error),
      input.extra,
    );
  }

  /** MCP sessions over Streamable HTTP: kept in the store, so every process serving this home knows them. */
  get mcpSessions(): McpSessionStore {
    return this.#store.mcpSessions;
  }

  /** The store behind the ledger, for conformance tests and benchmarks that plant rows below the guards. */
  get store(): Store {
    return this.#store;
  }

  /** Releases this handle; the connections close when the last ledger on the home in this process closes. */
  close(): void {
    this.#release();
  }
}
