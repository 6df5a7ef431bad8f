/**
 * Syncing a feed: read its source from the checkpoint, mine each entry, write each candidate through the ledger
 * as the feed's agent principal, and commit the checkpoint after the batch's writes. A sync that fails halfway
 * resumes from the last committed checkpoint; whatever it wrote after that is recognised by source item id
 * (src/ledger/source-items.ts) and not written again, so running a sync twice changes nothing. Each sync is
 * audited as `feeds.sync` (I8), a failure with its class and the counts of what it read, wrote and failed.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { Ledger, LedgerSession } from '../ledger/ledger.ts';
import type { CallContext } from '../model/context.ts';
import { asMemoryError, type ErrorClass, MemoryError } from '../model/errors.ts';
import type { RememberInput, WriteResult } from '../model/memory.ts';
import { checkpointOf, type FeedConfig, parseFeedConfig } from './config.ts';
import { connectorFor } from './connectors/index.ts';
import { mineEntries } from './mine-entries.ts';
import { projectFor } from './project-scope.ts';
import type { Candidate, Checkpoint, Connector, Entry, FileCheckpoint, MinerState } from './types.ts';

/** Writes one candidate. The default writes through the ledger; tests put a failing one in to stop a sync halfway. */
export type Writer = (input: RememberInput, ctx: CallContext) => Promise<WriteResult>;

export interface SyncOptions {
  /** Only these files (absolute paths): the hook syncs the transcript that just ended. */
  only?: (path: string) => boolean;
  onProgress?: (progress: SyncProgress) => void;
  writer?: Writer;
}

export interface SyncProgress {
  feed: string;
  file: string;
  batches: number;
  entries: number;
  written: number;
}

export interface SyncCounts {
  /** Batches read (a file, or a chunk of a big file). */
  batches: number;
  entries: number;
  candidates: number;
  /** New memories (held, active or, for a claim rejected before, rejected: I5). */
  written: number;
  held: number;
  landed: number;
  rejected: number;
  /** The same claim was live already: evidence added to it instead of a copy. */
  corroborated: number;
  /** Source items read before (a re-run or a resumed sync): nothing written. */
  duplicates: number;
  /** Writes the ledger refused (a scope the principal may not write, a policy deny). */
  refused: number;
  /** Lines of a shape the connector does not know, or too long to read: passed over. */
  skipped: number;
  /** Lines that were not JSON: damaged source data, passed over and reported as `invalid_input`. */
  malformed: number;
  droppedNoise: number;
  droppedSecrets: number;
}

export interface SyncReport extends SyncCounts {
  feed: string;
  connector: string;
  /** Set when the sync failed: it stopped early, or it read everything but some of it was damaged. */
  error: string | null;
  /** `upstream` (the source: a folder gone, a file unreadable), `invalid_input` (damaged lines), `internal` (ours). */
  errorClass: ErrorClass | null;
  /** It stopped before the end; the checkpoint holds what was committed before, so the next sync resumes there. */
  stopped: boolean;
}

const ZERO: SyncCounts = {
  batches: 0,
  entries: 0,
  candidates: 0,
  written: 0,
  held: 0,
  landed: 0,
  rejected: 0,
  corroborated: 0,
  duplicates: 0,
  refused: 0,
  skipped: 0,
  malformed: 0,
  droppedNoise: 0,
  droppedSecrets: 0,
};
/** A batch that wrote nothing need not commit at once: a crash before the next commit only re-reads it. */
const COMMIT_EVERY = 25;

/**
 * Syncs one feed. `operator` keeps the feed's checkpoint (the admin who runs the sync); candidates are written
 * as the feed's principal. Throws nothing for a failure of the source or a write: the report carries it, and the
 * feed's `lastError` records it.
 */
export async function syncFeed(
  ledger: Ledger,
  operator: LedgerSession,
  name: string,
  options: SyncOptions = {},
): Promise<SyncReport> {
  const started = performance.now();
  const feed = await operator.feedGet(name);
  const counts: SyncCounts = { ...ZERO };
  const report = async (failure: MemoryError | null, stopped: boolean): Promise<SyncReport> => {
    const done: SyncReport = {
      feed: name,
      connector: feed.connector,
      ...counts,
      error: failure === null ? null : `${failure.class}: ${failure.message}`.slice(0, 2_000),
      errorClass: failure?.class ?? null,
      stopped,
    };
    await ledger.recordSurfaceCall({
      principal: operator.principal,
      context: operator.callContext,
      operation: 'feeds.sync',
      args: { name },
      ...(failure === null ? {} : { error: failure }),
      durationMs: performance.now() - started,
      extra: auditCounts(done),
    });
    return done;
  };
  let checkpoint: Checkpoint = checkpointOf(feed.checkpoint);
  let pending = 0;
  const commit = async () => {
    if (pending === 0) return;
    await operator.feedUpdate({ name, checkpoint: { ...checkpoint }, stats: totals(feed.stats, counts) });
    pending = 0;
  };
  try {
    const connector = connectorFor(feed.connector);
    const config = parseFeedConfig(feed.config);
    const write = options.writer ?? ledgerWriter(ledger, config.principal ?? connector.principal);
    const scopes = new ScopeCache(config);
    // A folder that never existed holds nothing yet (the tool was never used); one that held files is gone.
    const read = Object.keys(checkpoint.files).length;
    if (read > 0 && !existsSync(config.path)) {
      throw new MemoryError(
        'upstream',
        `the feed's folder ${config.path} is gone (${read} file(s) were read from it before); restore it or remove the feed`,
      );
    }
    // An error waiting for its fix is carried across the chunks of one file during this sync only: the checkpoint
    // keeps offsets, never text, so nothing of a transcript outlives an erasure there.
    const waiting = new Map<string, MinerState>();
    for await (const batch of connector.read(config.path, checkpoint, { only: options.only })) {
      const mined = mineEntries(
        batch.entries,
        batch.restarted === true ? {} : (waiting.get(batch.file) ?? {}),
      );
      let wrote = false;
      counts.entries += batch.entries.length;
      counts.droppedNoise += mined.dropped.noise;
      counts.droppedSecrets += mined.dropped.secrets;
      for (const { entry, candidate } of mined.proposals) {
        counts.candidates++;
        const input = candidateInput(connector, candidate, entry, scopes.scopeFor(entry), batch.path);
        const result = await writeOne(write, input, contextFor(entry, connector), counts);
        wrote ||= result !== null && result.duplicate !== true;
      }
      counts.batches++;
      counts.skipped += batch.skipped;
      counts.malformed += batch.malformed ?? 0;
      waiting.set(batch.file, mined.state);
      checkpoint = { files: { ...checkpoint.files, [batch.file]: fileCheckpoint(batch.checkpoint) } };
      pending++;
      if (wrote || pending >= COMMIT_EVERY) await commit();
      options.onProgress?.({
        feed: name,
        file: batch.file,
        batches: counts.batches,
        entries: counts.entries,
        written: counts.written,
      });
    }
    await commit();
    // Damaged lines were passed over (reading them again cannot mend them), but the sync says so.
    const damaged =
      counts.malformed === 0
        ? null
        : new MemoryError(
            'invalid_input',
            `${counts.malformed} line(s) of the source were not JSON and were passed over; the rest was read`,
          );
    await operator.feedUpdate({
      name,
      lastSyncAt: new Date().toISOString(),
      lastError: damaged === null ? null : `${damaged.class}: ${damaged.message}`,
      stats: totals(feed.stats, counts),
    });
    return report(damaged, false);
  } catch (error) {
    const failure = asMemoryError(error);
    try {
      await commit(); // batches finished before the failure keep their progress
      await operator.feedUpdate({ name, lastError: `${failure.class}: ${failure.message}`.slice(0, 2_000) });
    } catch {
      // the failure itself is reported below; a store too broken to record it is reported the same way
    }
    return report(failure, true);
  }
}

/** What a sync's audit record keeps: counts only, never a path or a line. */
function auditCounts(r: SyncReport): Record<string, number | boolean> {
  return {
    read: r.entries,
    written: r.written,
    failed: r.malformed,
    refused: r.refused,
    duplicates: r.duplicates,
    skipped: r.skipped,
    stopped: r.stopped,
  };
}

/** Writes one candidate, counting what happened. Refusals are counted and passed over; other failures stop the sync. */
async function writeOne(
  write: Writer,
  input: RememberInput,
  ctx: CallContext,
  counts: SyncCounts,
): Promise<WriteResult | null> {
  let result: WriteResult;
  try {
    result = await write(input, ctx);
  } catch (error) {
    const failure = asMemoryError(error);
    if (failure.class === 'permission' || failure.class === 'invalid_input') {
      counts.refused++;
      return null;
    }
    throw failure;
  }
  if (result.duplicate === true) counts.duplicates++;
  else if (result.corroborated === true) counts.corroborated++;
  else {
    counts.written++;
    if (result.state === 'held') counts.held++;
    else if (result.state === 'active') counts.landed++;
    else if (result.state === 'rejected') counts.rejected++;
  }
  return result;
}

function ledgerWriter(ledger: Ledger, principalRef: string): Writer {
  const principal = ledger.principal(principalRef);
  const sessions = new Map<string, LedgerSession>();
  return (input, ctx) => {
    const key = `${ctx.sessionId}\u0000${ctx.runId ?? ''}\u0000${ctx.client ?? ''}`;
    let session = sessions.get(key);
    if (session === undefined) {
      session = ledger.as(principal, ctx);
      sessions.set(key, session);
    }
    return session.remember(input);
  };
}

/** Provenance of a mined write: the transcript's session, the subagent as the run, the agent's client. */
function contextFor(entry: Entry, connector: Connector): CallContext {
  const ctx: CallContext = {
    surface: 'feed',
    tool: 'feeds.sync',
    sessionId: entry.sessionId,
    client: entry.client ?? connector.kind,
  };
  if (entry.agentId !== undefined) ctx.runId = entry.agentId;
  return ctx;
}

function candidateInput(
  connector: Connector,
  candidate: Candidate,
  entry: Entry,
  scope: string,
  path: string,
): RememberInput {
  // One entry can hold several claims: the item is the entry and the claim, so each lands once.
  const claim = createHash('sha256')
    .update(`${candidate.kind}\u0000${candidate.body}`)
    .digest('hex')
    .slice(0, 12);
  let itemId = `${entry.id}#${claim}`;
  if (itemId.length > 400)
    itemId = `${createHash('sha256').update(entry.id).digest('hex').slice(0, 32)}#${claim}`;
  const url = pathToFileURL(path).href;
  return {
    body: candidate.body,
    kind: candidate.kind,
    scope,
    // Erasure works by subject (I9): naming the session lets a person erase everything mined from one transcript.
    subjects: [sessionSubject(entry.sessionId)],
    confidence: candidate.confidence,
    source: {
      connector: connector.kind,
      id: itemId,
      ...(url.length <= 500 ? { url } : {}),
      note: `mined: ${candidate.rule}`,
    },
  };
}

/** `session:<id>`, within the subject grammar (no spaces, at most 200 characters). */
export function sessionSubject(sessionId: string): string {
  const id = sessionId.replace(/\s+/g, '-');
  const subject = `session:${id}`;
  return subject.length <= 200
    ? subject
    : `session:${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
}

/** Working directory → project scope, once per directory per sync (it reads .git/config). */
class ScopeCache {
  readonly #config: FeedConfig;
  readonly #byDir = new Map<string, string>();

  constructor(config: FeedConfig) {
    this.#config = config;
  }

  scopeFor(entry: Entry): string {
    if (this.#config.scope !== undefined) return this.#config.scope;
    const dir = entry.cwd ?? this.#config.path;
    const key = `${dir}\u0000${entry.repositoryUrl ?? ''}`;
    let scope = this.#byDir.get(key);
    if (scope === undefined) {
      scope = projectFor(dir, entry.repositoryUrl).scope;
      this.#byDir.set(key, scope);
    }
    return scope;
  }
}

function fileCheckpoint(read: FileCheckpoint): FileCheckpoint {
  const out: FileCheckpoint = { offset: read.offset, head: read.head };
  if (read.hash !== undefined) out.hash = read.hash;
  if (read.meta !== undefined && Object.keys(read.meta).length > 0) out.meta = read.meta;
  return out;
}

function totals(before: Record<string, number>, run: SyncCounts): Record<string, number> {
  const out: Record<string, number> = { ...before };
  for (const [k, v] of Object.entries(run)) out[k] = (out[k] ?? 0) + v;
  out.syncs = (before.syncs ?? 0) + 1;
  return out;
}
