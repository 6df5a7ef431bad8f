/** A session: every verb of the ledger for one principal and call context, each call audited once (I8). */
import { performance } from 'node:perf_hooks';
import type { AuditFilter, AuditRecord, FailureCount } from '../audit/record.ts';
import type { CallContext } from '../model/context.ts';
import { asMemoryError, type MemoryError } from '../model/errors.ts';
import type { Memory, RememberInput, WriteResult } from '../model/memory.ts';
import type { Principal } from '../model/principal.ts';
import { toIso } from '../model/time.ts';
import { assertAuditReader, assertRole } from '../policy/access.ts';
import type { Policy } from '../policy/policy-file.ts';
import type { StoreStats } from '../store/port.ts';
import type { CallAudit } from './audit-trail.ts';
import { CallRunner, type LedgerCore } from './call-runner.ts';
import type { Deps, Trace } from './deps.ts';
import type { EraseInput, EraseResult } from './erase.ts';
import type { Feed, FeedAddInput, FeedUpdateInput } from './feeds.ts';
import type { ErasePreview } from './erase-preview.ts';
import { get, type History, history, type ListInput, list, type ReviewItem, reviewList } from './read.ts';
import type { ReviewPulse, ReviewWatchInput, ReviewWatchOptions } from './review-watch.ts';
import type { SearchInput, SearchResult } from './search.ts';
import { parseInput } from './parse.ts';
import type { DoubtInput, TrustResult } from './doubt.ts';
import type { ImportResult } from './transfer/import.ts';
import type { ImportOptions } from './transfer/import-options.ts';
import type { ApproveInput, RejectInput, RejectionLiftResult, UnrejectInput } from './verdicts.ts';
import type { ClaimInput, ClaimResult } from './claims.ts';
import { lazy } from './lazy-module.ts';
import { type Correction, type CorrectionsInput, corrections } from './corrections.ts';
import { type ContextInput, type ContextResult, context } from './context/context.ts';
import type { PolicyCheck, PolicyCheckInput, PolicyOrigin, PolicyShow } from './policy-check.ts';
import type { WhoAmI } from './whoami.ts';
import type { NotifyOp, NotifyOps } from '../notify/admin.ts';
import { maskedArgs } from '../notify/target-url.ts';
import { CommitmentVerbs, SummaryVerbs } from './plans/verbs.ts';
import type {
  WorkspaceHost,
  WorkspaceSchemaInput,
  WorkspaceSchemaResult,
  WorkspaceSqlInput,
  WorkspaceSqlResult,
} from '../workspace/ops.ts';
import type { WorkspaceAdminVerbs } from '../workspace/admin.ts';
import { type BehaviorVerbs, behaviorVerbs } from '../behaviors/verbs.ts';

/**
 * Modules loaded on first use (lazy-module.ts). Reads a session start makes (get, list, context) load with the
 * ledger; writes, verdicts, search, claims, erasure, feeds, transfer and policy checks load when first called,
 * so a process that only reads its context (an agent's session hook) never evaluates them.
 */
const use = {
  search: lazy(() => import('./search.ts')),
  claims: lazy(() => import('./claims.ts')),
  importOptions: lazy(() => import('./transfer/import-options.ts')),
  remember: lazy(() => import('./remember.ts')),
  retract: lazy(() => import('./retract.ts')),
  verdicts: lazy(() => import('./verdicts.ts')),
  doubt: lazy(() => import('./doubt.ts')),
  erase: lazy(() => import('./erase.ts')),
  erasePreview: lazy(() => import('./erase-preview.ts')),
  workspaceAdmin: lazy(() => import('../workspace/admin.ts')),
  feeds: lazy(() => import('./feeds.ts')),
  exporting: lazy(() => import('./transfer/export.ts')),
  importing: lazy(() => import('./transfer/import.ts')),
  policy: lazy(() => import('./policy-check.ts')),
  whoami: lazy(() => import('./whoami.ts')),
  workspace: lazy(() => import('../workspace/ops.ts')),
  reviewWatch: lazy(() => import('./review-watch.ts')),
  notify: lazy(() => import('../notify/admin.ts')),
};

export type { LedgerCore };

/** Every verb of the ledger, for one principal. Each call writes one audit record. */
export class LedgerSession {
  readonly principal: Principal;
  /** Where the calls come from (surface, session, run, client): stamped into provenance and audit. */
  readonly callContext: CallContext;
  /** The open store's parts and the audited call around every verb (call-runner.ts). */
  readonly #runner: CallRunner;
  readonly #policy: Policy;
  readonly #policyOrigin: PolicyOrigin;
  /** The ledger's agent workspaces (src/workspace), when it was given a WorkspaceFiles. */
  workspaces: WorkspaceHost | undefined;

  /** `core` is the open store's parts, or, for a store still opening, how to wait for them. */
  constructor(
    core: LedgerCore | (() => Promise<LedgerCore>),
    policy: Policy,
    principal: Principal,
    context: CallContext,
    now: () => string,
    policyOrigin: PolicyOrigin = { path: null, source: 'given' },
  ) {
    this.#policyOrigin = policyOrigin;
    this.#policy = policy;
    this.principal = principal;
    this.callContext = context;
    this.#runner = new CallRunner(core, { policy, principal, context, now });
  }

  remember(input: RememberInput): Promise<WriteResult> {
    return this.#call('remember', input, async (d) => (await use.remember()).remember(d, input));
  }
  search(input: SearchInput): Promise<SearchResult> {
    return this.#call('search', input, async (d) => (await use.search()).search(d, input));
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
    return this.#call('retract', input, async (d) => (await use.retract()).retract(d, input));
  }
  confirm(input: { id: string }): Promise<WriteResult> {
    return this.#call('confirm', input, async (d) => (await use.verdicts()).confirm(d, input));
  }
  reviewList(input: { scopes?: string[]; limit?: number } = {}): Promise<ReviewItem[]> {
    return this.#call('review.list', input, (d) => reviewList(d, input));
  }
  approve(input: ApproveInput): Promise<WriteResult> {
    return this.#call('review.approve', input, async (d) => (await use.verdicts()).approve(d, input));
  }
  /** Rejects a held write (or, with `expect: 'active'`, a current memory); the claim stays rejected (I5). */
  reject(input: RejectInput): Promise<WriteResult> {
    return this.#call('review.reject', input, async (d) => (await use.verdicts()).reject(d, input));
  }
  /** Lifts the rejection of the claim a rejected memory says, on purpose, so it may land again. */
  unreject(input: UnrejectInput): Promise<RejectionLiftResult> {
    return this.#call('review.unreject', input, async (d) => (await use.verdicts()).unreject(d, input));
  }
  /** Lowers an active memory's trust to unverified (it stays visible, ranked lower); never raises it. */
  doubt(input: DoubtInput): Promise<TrustResult> {
    return this.#call('doubt', input, async (d) => (await use.doubt()).doubt(d, input));
  }
  /** A human reviewer puts a doubted memory's trust back to what it was before the doubt (I7). */
  restoreTrust(input: DoubtInput): Promise<TrustResult> {
    return this.#call('trust.restore', input, async (d) => (await use.doubt()).restoreTrust(d, input));
  }
  /** Erases by subject (every version about it) or by provenance (a principal's, a session's or a source's writes). */
  erase(input: EraseInput): Promise<EraseResult> {
    return this.#call('erase', input, async (d) => (await use.erase()).erase(d, input));
  }

  /** Admin verbs on agent workspaces: list, show, export (an audited download), reset. Admin humans only. */
  workspaceAdmin<V extends keyof WorkspaceAdminVerbs>(
    verb: V,
    input: WorkspaceAdminVerbs[V][0],
  ): Promise<WorkspaceAdminVerbs[V][1]> {
    return this.#call(`workspace.${verb}`, input, async (d) =>
      (await use.workspaceAdmin()).runWorkspaceAdmin(d, verb, input),
    );
  }

  /** Feed definitions and checkpoints (src/feeds reads and mines; these keep its place). Admin only. */
  feedAdd(input: FeedAddInput): Promise<Feed> {
    return this.#call('feeds.add', input, async (d) => (await use.feeds()).feedAdd(d, input));
  }
  feedList(): Promise<Feed[]> {
    return this.#call('feeds.list', {}, async (d) => (await use.feeds()).feedList(d));
  }
  feedGet(name: string): Promise<Feed> {
    return this.#call('feeds.get', { name }, async (d) => (await use.feeds()).feedGet(d, name));
  }
  feedUpdate(input: FeedUpdateInput): Promise<void> {
    return this.#call('feeds.update', { name: input.name }, async (d) =>
      (await use.feeds()).feedUpdate(d, input),
    );
  }
  feedRemove(name: string): Promise<{ removed: boolean }> {
    return this.#call('feeds.remove', { name }, async (d) => (await use.feeds()).feedRemove(d, name));
  }

  /** Notification targets and the delivery log (src/notify/admin.ts): a human admin's; the audit keeps no URL path. */
  notify<O extends NotifyOp>(op: O, input: NotifyOps[O][0]): Promise<NotifyOps[O][1]> {
    return this.#call(`notify.${op}`, maskedArgs(input), async (d) =>
      (await use.notify()).runNotifyOp(d, op, input),
    );
  }

  /** A reviewer takes ownership of a key: agent writes to it are then held or denied (I6, I7). */
  claim(input: ClaimInput): Promise<ClaimResult> {
    return this.#call('claim', input, async (d) => (await use.claims()).claim(d, input));
  }
  /** A reviewer releases a key's claim: agent writes to it are then decided by the rules alone. */
  release(input: ClaimInput): Promise<ClaimResult> {
    return this.#call('release', input, async (d) => (await use.claims()).release(d, input));
  }
  /** The latest reviewer correction per key (or kind) of an agent's writes; the calling agent's by default. */
  corrections(input: CorrectionsInput = {}): Promise<Correction[]> {
    return this.#call('corrections', input, (d) => corrections(d, input));
  }
  /** The context block for a task: corrections, pinned rules, open commitments, then relevant memories. */
  context(input: ContextInput = {}): Promise<ContextResult> {
    return this.#call('context', input, (d) => context(d, input));
  }
  /** The effective policy and the file it came from. */
  policyShow(): Promise<PolicyShow> {
    return this.#call('policy.show', {}, async () =>
      (await use.policy()).policyShow(this.#policyOrigin, this.#policy),
    );
  }
  /** What the gate would do with a write, and why: principal, grant, ownership, then the rules. */
  policyCheck(input: PolicyCheckInput): Promise<PolicyCheck> {
    return this.#call('policy.check', input, async (d) => (await use.policy()).policyCheck(d, input));
  }
  /** What `erase` would remove for a subject, without removing it. Admin only, like erase. */
  erasePreview(input: EraseInput): Promise<ErasePreview> {
    return this.#call('erase.preview', input, async (d) => (await use.erasePreview()).erasePreview(d, input));
  }
  /** Commitments (prospective memory) and summary chains (plans/verbs.ts): each call audited like the rest. */
  get commitments(): CommitmentVerbs {
    return new CommitmentVerbs((op, args, fn) => this.#call(op, args, fn));
  }
  get summaries(): SummaryVerbs {
    return new SummaryVerbs((op, args, fn) => this.#call(op, args, fn));
  }
  /** Runs a batch of SQL in the calling agent's workspace (an admin names the agent): one transaction (I16). */
  workspaceSql(input: WorkspaceSqlInput): Promise<WorkspaceSqlResult> {
    return this.#call('workspace.sql', input, async (d, audit) =>
      (await use.workspace()).workspaceSql(d, this.workspaces, input, audit),
    );
  }
  /** The workspace's schema prompt: mounts with their notes, then the agent's tables, within a byte budget. */
  workspaceSchema(input: WorkspaceSchemaInput = {}): Promise<WorkspaceSchemaResult> {
    return this.#call('workspace.schema', input, async (d, audit) =>
      (await use.workspace()).workspaceSchema(d, this.workspaces, input, audit),
    );
  }
  /** Behaviors, their runs and the scheduler's tick (src/behaviors), each verb audited like every other. */
  get behaviors(): BehaviorVerbs {
    return behaviorVerbs((operation, args, fn) => this.#call(operation, args, fn));
  }
  /** Who this session acts as and what it may do. */
  whoami(): Promise<WhoAmI> {
    return this.#call('whoami', {}, async (d) => (await use.whoami()).whoami(d));
  }

  /**
   * Pulses of the review queue: the first is an audited call, refused like the review list without the
   * reviewer role; then one pulse per interval until `maxMs`, read under the same grants but not audited again.
   * With `credential`, each tick first asks it whether the caller's credential still holds; once it throws, the
   * watch ends with that error and one more audit record of `review.watch`, the refusal.
   */
  async *reviewWatch(
    input: ReviewWatchInput = {},
    watch: ReviewWatchOptions = {},
  ): AsyncGenerator<ReviewPulse> {
    const { reviewPulse, reviewTicks, reviewWatchInputSchema } = await use.reviewWatch();
    const first = await this.#call('review.watch', input, async (d) => {
      const options = parseInput(reviewWatchInputSchema, input, 'review watch');
      // Listening before the first read: no write after it goes unnoticed until the next interval.
      const feed = d.store.changes;
      await feed?.start();
      const changes = feed === undefined ? undefined : { feed, seen: feed.seen };
      return { options, changes, pulse: await reviewPulse(d, null) };
    });
    yield first.pulse;
    const quiet = () => this.#runner.deps({ targets: new Set(), changes: [] });
    const tick = async (last: ReviewPulse) => {
      if (watch.credential !== undefined)
        await this.#runner.stillValid(watch.credential, 'review.watch', input);
      return reviewPulse(quiet(), last);
    };
    yield* reviewTicks(tick, first.pulse, first.options, first.changes);
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
    const hash = await this.#runner.hash();
    try {
      this.#runner.guardContext();
      const { exportLines } = await use.exporting();
      for await (const line of exportLines(this.#runner.deps(trace))) {
        count++;
        yield line;
      }
    } catch (error) {
      failure = asMemoryError(error);
      throw failure;
    } finally {
      await this.#runner.record(hash, 'export', {}, trace, started, failure, { lines: count });
    }
  }

  /**
   * Imports JSONL lines: new writes by this principal (ingest, the default), or, for a human admin, a restore of
   * another home's history (`mode: 'restore'`). `options.signal` stops it after the batch in flight with
   * `ImportInterrupted` (class `upstream`, its details name the line to resume from); the audit record keeps the
   * counts either way.
   */
  import(lines: AsyncIterable<string>, options: ImportOptions = {}): Promise<ImportResult> {
    const { onProgress: _, signal: __, ...args } = options;
    return this.#call('import', args, async (d, audit) => {
      const { checkImportOptions, ImportInterrupted, importCounts } = await use.importOptions();
      checkImportOptions(options);
      const { importLines } = await use.importing();
      const onProgress = (r: ImportResult) => {
        audit.progress(importCounts(r));
        options.onProgress?.(r);
      };
      try {
        const result = await importLines(d, lines, { ...options, onProgress });
        audit.progress(importCounts(result));
        return result;
      } catch (error) {
        if (error instanceof ImportInterrupted) audit.progress(importCounts(error.result));
        throw error;
      }
    });
  }

  reindex(): Promise<{ indexed: number }> {
    return this.#call('reindex', {}, async (d) => {
      assertRole(this.principal, 'admin', 'rebuild the index');
      return d.store.reindex();
    });
  }

  stats(): Promise<StoreStats> {
    return this.#call('stats', {}, async () => {
      assertRole(this.principal, 'admin', 'read store statistics');
      return this.#runner.store.stats();
    });
  }

  /** Reads the audit store: a human admin or the auditor role (`mayReadAudit`); it never needs a memory grant. */
  audit(filter: AuditFilter = {}): Promise<AuditRecord[]> {
    return this.#call('audit', filter, async () => {
      assertAuditReader(this.principal);
      return this.#runner.auditSink.query({ ...filter, since: sinceTime(filter.since) });
    });
  }

  auditFailures(since?: string): Promise<FailureCount[]> {
    return this.#call('audit.failures', { since }, async () => {
      assertAuditReader(this.principal);
      return this.#runner.auditSink.failureCounts(sinceTime(since));
    });
  }

  #call<T>(operation: string, args: unknown, fn: (deps: Deps, audit: CallAudit) => Promise<T>): Promise<T> {
    return this.#runner.call(operation, args, fn);
  }
}

/** Audit times compare as text, so `since` is canonicalised like every other time (2024-02-30 is refused). */
const sinceTime = (since: string | undefined): string | undefined =>
  since === undefined ? undefined : toIso(since, 'since');
