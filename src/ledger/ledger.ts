/**
 * The ledger: opens a data directory and hands out sessions bound to a principal and a call context.
 * Every session call is audited, allowed or refused (I8).
 */
import { performance } from 'node:perf_hooks';
import type { AuditFilter, AuditRecord, AuditSink, FailureCount } from '../audit/record.ts';
import { argsHash, previewArgs } from '../guard/redact.ts';
import type { CallContext } from '../model/context.ts';
import { asMemoryError, type MemoryError } from '../model/errors.ts';
import { newId } from '../model/ids.ts';
import type { Memory, RememberInput, WriteResult } from '../model/memory.ts';
import { type Principal, principalLabel } from '../model/principal.ts';
import { nowIso } from '../model/time.ts';
import { assertRole } from '../policy/access.ts';
import { localOperator, principalFromRef } from '../policy/identity.ts';
import { loadPolicy, type Policy } from '../policy/policy-file.ts';
import type { Store, StoreStats } from '../store/port.ts';
import type { Sync } from '../store/sqlite/database.ts';
import type { Deps, Trace } from './deps.ts';
import { type EraseResult, erase } from './erase.ts';
import { ensureHome, homePaths, resolveHome } from './home.ts';
import { acquireConnections, type Connections } from './open-homes.ts';
import { get, type History, history, type ListInput, list, reviewList } from './read.ts';
import { remember } from './remember.ts';
import { retract } from './retract.ts';
import { search, type SearchInput, type SearchResult } from './search.ts';
import { exportLines, type ImportResult, importLines } from './transfer.ts';
import { type ApproveInput, approve, confirm, reject } from './verdicts.ts';

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
  const connections = acquireConnections(home, options.sync);
  return new Ledger(home, connections, policy, options.now ?? nowIso);
}

export class Ledger {
  readonly home: string;
  readonly policy: Policy;
  readonly #store: Store;
  readonly #audit: AuditSink;
  readonly #release: () => void;
  readonly #now: () => string;

  constructor(home: string, connections: Connections, policy: Policy, now: () => string) {
    this.home = home;
    this.#store = connections.store;
    this.#audit = connections.audit;
    this.#release = connections.release;
    this.policy = policy;
    this.#now = now;
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
    return new LedgerSession(this.#store, this.#audit, this.policy, principal, context, this.#now);
  }

  /**
   * Audits a call that a surface refused before it reached a session: a missing or revoked token, a malformed
   * request (I8). `principal` is whoever the credential named, or an anonymous stand-in.
   */
  recordRefusal(input: {
    principal?: Principal;
    context: CallContext;
    operation: string;
    args: unknown;
    error: unknown;
    durationMs: number;
  }): void {
    const principal = input.principal ?? { kind: 'service', id: 'anonymous', roles: [], grants: [] };
    const trace: Trace = { targets: new Set(), changes: [] };
    writeAudit(
      this.#audit,
      this.#now,
      principal,
      input.context,
      input.operation,
      input.args,
      trace,
      input.durationMs,
      asMemoryError(input.error),
    );
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

/** Every verb of the ledger, for one principal. Each call writes one audit record. */
export class LedgerSession {
  readonly principal: Principal;
  readonly context: CallContext;
  readonly #store: Store;
  readonly #audit: AuditSink;
  readonly #policy: Policy;
  readonly #now: () => string;

  constructor(
    store: Store,
    audit: AuditSink,
    policy: Policy,
    principal: Principal,
    context: CallContext,
    now: () => string,
  ) {
    this.#store = store;
    this.#audit = audit;
    this.#policy = policy;
    this.principal = principal;
    this.context = context;
    this.#now = now;
  }

  remember(input: RememberInput): Promise<WriteResult> {
    return this.#call('remember', input, (d) => remember(d, input));
  }
  search(input: SearchInput): Promise<SearchResult> {
    return this.#call('search', input, (d) => search(d, input));
  }
  get(id: string): Promise<Memory> {
    return this.#call('get', { id }, (d) => get(d, id));
  }
  history(id: string): Promise<History> {
    return this.#call('history', { id }, (d) => history(d, id));
  }
  list(input: ListInput = {}): Promise<Memory[]> {
    return this.#call('list', input, (d) => list(d, input));
  }
  retract(input: { id: string; reason: string }): Promise<WriteResult> {
    return this.#call('retract', input, (d) => retract(d, input));
  }
  confirm(input: { id: string }): Promise<WriteResult> {
    return this.#call('confirm', input, (d) => confirm(d, input));
  }
  reviewList(input: { scopes?: string[]; limit?: number } = {}): Promise<Memory[]> {
    return this.#call('review.list', input, (d) => reviewList(d, input));
  }
  approve(input: ApproveInput): Promise<WriteResult> {
    return this.#call('review.approve', input, (d) => approve(d, input));
  }
  reject(input: { id: string; reason: string }): Promise<WriteResult> {
    return this.#call('review.reject', input, (d) => reject(d, input));
  }
  erase(input: { subject: string }): Promise<EraseResult> {
    return this.#call('erase', input, (d) => erase(d, input));
  }

  /**
   * JSONL lines of every memory this principal may read; audited once when the export ends, including when
   * the consumer stops early (a client that hangs up still received the lines counted).
   */
  async *export(): AsyncGenerator<string> {
    let count = 0;
    const started = performance.now();
    const trace: Trace = { targets: new Set(), changes: [] };
    let failure: MemoryError | null = null;
    try {
      for await (const line of exportLines(this.#deps(trace))) {
        count++;
        yield line;
      }
    } catch (error) {
      failure = asMemoryError(error);
      throw failure;
    } finally {
      this.#record('export', {}, trace, started, failure, { lines: count });
    }
  }

  import(lines: AsyncIterable<string>, onProgress?: (r: ImportResult) => void): Promise<ImportResult> {
    return this.#call('import', {}, (d) => importLines(d, lines, onProgress));
  }

  reindex(): Promise<{ indexed: number }> {
    return this.#call('reindex', {}, async () => {
      assertRole(this.principal, 'admin', 'rebuild the index');
      return this.#store.reindex();
    });
  }

  stats(): Promise<StoreStats> {
    return this.#call('stats', {}, async () => {
      assertRole(this.principal, 'admin', 'read store statistics');
      return this.#store.stats();
    });
  }

  /** Reads the audit store. Needs the admin role; reading it never needs a memory grant. */
  audit(filter: AuditFilter = {}): Promise<AuditRecord[]> {
    return this.#call('audit', filter, async () => {
      assertRole(this.principal, 'admin', 'read the audit log');
      return this.#audit.query(filter);
    });
  }

  auditFailures(since?: string): Promise<FailureCount[]> {
    return this.#call('audit.failures', { since }, async () => {
      assertRole(this.principal, 'admin', 'read the audit log');
      return this.#audit.failureCounts(since);
    });
  }

  #deps(trace: Trace): Deps {
    return {
      store: this.#store,
      policy: this.#policy,
      principal: this.principal,
      ctx: this.context,
      trace,
      now: this.#now,
    };
  }

  async #call<T>(operation: string, args: unknown, fn: (deps: Deps) => Promise<T>): Promise<T> {
    const started = performance.now();
    const trace: Trace = { targets: new Set(), changes: [] };
    try {
      const result = await fn(this.#deps(trace));
      this.#record(operation, args, trace, started, null);
      return result;
    } catch (error) {
      const failure = asMemoryError(error);
      this.#record(operation, args, trace, started, failure);
      throw failure;
    }
  }

  #record(
    operation: string,
    args: unknown,
    trace: Trace,
    started: number,
    failure: MemoryError | null,
    extra?: Record<string, unknown>,
  ): void {
    writeAudit(
      this.#audit,
      this.#now,
      this.principal,
      this.context,
      operation,
      args,
      trace,
      performance.now() - started,
      failure,
      extra,
    );
  }
}

function writeAudit(
  sink: AuditSink,
  now: () => string,
  principal: Principal,
  ctx: CallContext,
  operation: string,
  args: unknown,
  trace: Trace,
  durationMs: number,
  failure: MemoryError | null,
  extra?: Record<string, unknown>,
): void {
  const targets = [...trace.targets];
  const preview = previewArgs(args);
  const record: AuditRecord = {
    id: newId('aud'),
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
    targets: targets.length > 200 ? [...targets.slice(0, 200), `+${targets.length - 200}`] : targets,
    argsHash: argsHash(args),
    argsPreview:
      extra === undefined
        ? preview
        : { ...(typeof preview === 'object' && preview !== null ? preview : {}), ...extra },
    outcome: failure === null ? 'ok' : 'error',
    failureClass: failure?.class ?? null,
    message: failure?.message ?? null,
    changes: trace.changes.slice(0, 200),
    durationMs: Math.round(durationMs * 1000) / 1000,
  };
  try {
    sink.write(record);
  } catch (error) {
    // The call already happened; losing its audit record must be visible to the operator, never silent.
    process.emitWarning(`memledger: audit write failed: ${(error as Error).message}`);
  }
}
