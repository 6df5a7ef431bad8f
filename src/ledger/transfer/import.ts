/**
 * import: JSONL lines in, in batches of a thousand per transaction (a restore's: as many as the store asks).
 * Two modes.
 * - ingest (anyone with a write grant): every memory is a new write by the importer, with its own provenance,
 *   through the guard, the rejection check, the gate and corroboration (I7, I14, I18). A memory line of an export
 *   is written as a claim its source home held (only its current and held memories); a plain line
 *   `{"body": …}` brings a memory from anywhere. Lines carrying other people's verdicts (rejections, claims,
 *   erasures) or a home's plans (commitments, summary chains, behaviors) are refused, each with its reason.
 * - restore (a human with the admin role): another home's history as it was (restore.ts) and its plans
 *   (restore-plans.ts, restore-behaviors.ts).
 * A line that fails its checks writes nothing and is reported with its number; the others go on.
 */
import { asMemoryError, type ErrorClass, MemoryError } from '../../model/errors.ts';
import { principalLabel } from '../../model/principal.ts';
import { assertHumanWithRole } from '../../policy/access.ts';
import { ReplayLineByLine, type StoreTx } from '../../store/port.ts';
import type { Deps } from '../deps.ts';
import {
  claimLineSchema,
  erasureLineSchema,
  headerLineSchema,
  type MemoryLine,
  memoryLineSchema,
  plainLineSchema,
  rejectionLineSchema,
  VERDICT_LINES,
} from './import-lines.ts';
import { ImportInterrupted, type ImportOptions, importModeSchema } from './import-options.ts';
import { PLAN_LINES } from './carry-lines.ts';
import { restorePlan } from './restore-plan-line.ts';
import { parseInput } from '../parse.ts';
import { prepareWrite, writeInTx } from '../remember.ts';
import { batchHint } from './batch-hint.ts';
import { type RestoreRun, restoreClaim, restoreErasure, restoreMemory, restoreRejection } from './restore.ts';
import { ownScope } from '../scopes.ts';

export interface ImportResult {
  lines: number;
  /** Landed active (ingest), or restored (restore). */
  imported: number;
  /** Already present, or not a current memory of the file (ingest), or a header. */
  skipped: number;
  held: number;
  rejected: number;
  /** The same claim was live already: the line corroborated it instead of adding a copy. */
  corroborated: number;
  failed: { line: number; class: ErrorClass; message: string }[];
}

const BATCH = 1000;
/**
 * A batch also ends once its lines hold this many characters: a line may be up to 4 MiB, and a batch of 5,000
 * (a restore on Postgres) of such lines would otherwise all be held at once. Ordinary lines never reach it.
 */
const BATCH_CHARS = 32 * 1024 * 1024;

type Outcome = 'imported' | 'skipped' | 'held' | 'rejected' | 'corroborated';

/** Thrown inside a fast batch when a line failed after it had written: the batch is replayed line by line. */
class ReplayBatch extends ReplayLineByLine {}

/**
 * Imports lines in batches. Every check of a line runs before its first write; should a line still fail after
 * writing, the batch rolls back and is replayed with a savepoint per line, so nothing is ever half-written. An
 * aborted `signal` ends it between batches with `ImportInterrupted`: lines read into an unwritten batch are
 * dropped. Line numbers are the input's, also when it starts at `fromLine`.
 */
export async function importLines(
  deps: Deps,
  lines: AsyncIterable<string>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { onProgress, signal, fromLine, ...rest } = options;
  const settings = parseInput(importModeSchema, rest, 'import options');
  if (settings.mode === 'restore') {
    assertHumanWithRole(deps.principal, 'admin', "restore another home's verdicts, claims and history");
  }
  const run: ImportRun = {
    mode: settings.mode,
    defaultScope: settings.defaultScope ?? ownScope(deps.principal),
    oncePerSource: settings.oncePerSource === true,
    restore: {
      stamp: { by: principalLabel(deps.principal), at: deps.now(), file: settings.file ?? null },
      pendingCorrections: new Map(),
    },
  };
  const result: ImportResult = {
    lines: 0,
    imported: 0,
    skipped: 0,
    held: 0,
    rejected: 0,
    corroborated: 0,
    failed: [],
  };
  // A store a network away may take a restore in bigger transactions: each COMMIT waits for its WAL flush.
  const size = run.mode === 'restore' ? (deps.store.restoreBatch ?? BATCH) : BATCH;
  const first = fromLine ?? 1;
  let number = 0;
  let through = first - 1;
  let batch: { n: number; text: string }[] = [];
  let held = 0;
  const flush = async () => {
    const pending = batch;
    batch = [];
    held = 0;
    let outcome: BatchOutcome;
    try {
      outcome = await deps.store.transaction((tx) => runBatch(deps, tx, run, pending, false));
    } catch (error) {
      // A store may wrap what its transaction threw (a MemoryError whose cause is the replay).
      if (
        !(error instanceof ReplayLineByLine) &&
        !((error as { cause?: unknown }).cause instanceof ReplayLineByLine)
      )
        throw error;
      outcome = await deps.store.transaction((tx) => runBatch(deps, tx, run, pending, true));
    }
    for (const o of outcome.landed) result[o]++;
    for (const f of outcome.failed) if (result.failed.length < 1000) result.failed.push(f);
    through = number;
    onProgress?.(result);
  };
  const interrupted = () =>
    new ImportInterrupted({ ...result, lines: through - first + 1 }, through, signal?.reason);
  for await (const raw of lines) {
    if (signal?.aborted === true) throw interrupted();
    number++;
    if (number < first) continue;
    result.lines++;
    const text = raw.trim();
    if (text !== '') {
      batch.push({ n: number, text });
      held += text.length;
    }
    if (batch.length >= size || held >= BATCH_CHARS) await flush();
  }
  if (signal?.aborted === true) throw interrupted();
  if (batch.length > 0) await flush();
  return result;
}

interface ImportRun {
  mode: 'ingest' | 'restore';
  defaultScope: string;
  oncePerSource: boolean;
  restore: RestoreRun;
}

interface BatchOutcome {
  landed: Outcome[];
  failed: ImportResult['failed'];
}

async function runBatch(
  deps: Deps,
  tx: StoreTx,
  run: ImportRun,
  pending: { n: number; text: string }[],
  savepoints: boolean,
): Promise<BatchOutcome> {
  const out: BatchOutcome = { landed: [], failed: [] };
  // A batch is one transaction: its lines land together, so they share one import time (read once, not per line).
  const at = deps.now();
  const batchDeps: Deps = { ...deps, now: () => at };
  const docs = pending.map(({ text }) => parseLine(text));
  // A store a network away looks the batch's ids and rejections up at once (a round trip per batch, not per line).
  if (run.mode === 'restore' && tx.preload !== undefined) await tx.preload(batchHint(docs));
  for (const [i, { n }] of pending.entries()) {
    const doc = docs[i];
    const progress = { wrote: false };
    const tracked = trackWrites(tx, progress);
    try {
      const o = savepoints
        ? await tx.savepoint(() => importLine(batchDeps, tracked, run, doc))
        : await importLine(batchDeps, tracked, run, doc);
      out.landed.push(o);
    } catch (error) {
      if (!savepoints && progress.wrote) throw new ReplayBatch();
      const e = asMemoryError(error);
      out.failed.push({ line: n, class: e.class, message: e.message });
    }
  }
  return out;
}

const NOT_JSON = Symbol('not JSON');

function parseLine(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

async function importLine(deps: Deps, tx: StoreTx, run: ImportRun, doc: unknown): Promise<Outcome> {
  if (doc === NOT_JSON) throw new MemoryError('invalid_input', 'line is not valid JSON');
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    throw new MemoryError('invalid_input', 'line is not a JSON object');
  }
  const type = (doc as { type?: unknown }).type;
  if (type === undefined) return ingestPlain(deps, tx, run, doc);
  if (type === 'header') {
    parseInput(headerLineSchema, doc, 'header line');
    return 'skipped';
  }
  if (type === 'memory') {
    const line = parseInput(memoryLineSchema, doc, 'memory line');
    return run.mode === 'restore' ? restoreMemory(deps, tx, line, run.restore) : ingestMemory(deps, tx, line);
  }
  if (typeof type === 'string' && VERDICT_LINES.has(type)) {
    if (run.mode !== 'restore') {
      throw new MemoryError(
        'permission',
        `a ${type} line carries another person's ${type === 'erasure' ? 'erasure' : type === 'claim' ? 'claim on a key' : 'verdict'}; only a human admin's restore (import --restore) may bring it`,
      );
    }
    return (await restoreVerdict(tx, type, doc)) ? 'imported' : 'skipped';
  }
  if (typeof type === 'string' && PLAN_LINES.has(type)) {
    if (run.mode !== 'restore') {
      throw new MemoryError(
        'permission',
        `a ${type} line carries another home's ${PLAN_CARRIES[type as keyof typeof PLAN_CARRIES]}; only a human admin's restore (import --restore) may bring it`,
      );
    }
    return (await restorePlan(tx, type, doc)) ? 'imported' : 'skipped';
  }
  throw new MemoryError(
    'invalid_input',
    'line type must be header, memory, rejection, claim, erasure, commitment, chain, summary, behavior, run or fire (or none, for a plain line)',
  );
}

/** A current or held memory of an export, as a new write by the importer; history and verdicts stay behind. */
async function ingestMemory(deps: Deps, tx: StoreTx, line: MemoryLine): Promise<Outcome> {
  const m = line.memory;
  if (m.state !== 'active' && m.state !== 'held') return 'skipped';
  const fields = prepareWrite(
    deps,
    {
      body: m.body,
      kind: m.kind,
      scope: m.scope,
      ...(m.key === null ? {} : { key: m.key }),
      ...(m.value === null ? {} : { value: m.value }),
      subjects: m.subjects,
      ...(m.validFrom === null ? {} : { validFrom: m.validFrom }),
      ...(m.validTo === null ? {} : { validTo: m.validTo }),
      confidence: m.confidence,
      // The line's id where it came from: importing the same file again lands nothing twice.
      source: { connector: 'import', id: m.id },
    },
    'memory line',
  );
  return outcomeOf(await writeInTx(deps, tx, fields, { onceForItem: true }));
}

async function ingestPlain(deps: Deps, tx: StoreTx, run: ImportRun, doc: object): Promise<Outcome> {
  const line = parseInput(plainLineSchema, doc, 'plain line');
  const fields = prepareWrite(deps, { ...line, scope: line.scope ?? run.defaultScope }, 'plain line');
  return outcomeOf(await writeInTx(deps, tx, fields, { onceForItem: run.oncePerSource }));
}

function outcomeOf(r: { state: string; corroborated?: boolean; duplicate?: boolean }): Outcome {
  if (r.duplicate === true) return 'skipped';
  if (r.corroborated === true) return 'corroborated';
  return r.state === 'active' ? 'imported' : r.state === 'held' ? 'held' : 'rejected';
}

/** Restores a rejection, claim or erasure line; false when this home had it already. */
async function restoreVerdict(tx: StoreTx, type: string, doc: unknown): Promise<boolean> {
  if (type === 'rejection')
    return restoreRejection(tx, parseInput(rejectionLineSchema, doc, 'rejection line').rejection);
  if (type === 'claim') return restoreClaim(tx, parseInput(claimLineSchema, doc, 'claim line').claim);
  return restoreErasure(tx, parseInput(erasureLineSchema, doc, 'erasure line').erasure);
}

/** What a line may call without writing; anything else counts as a write, so a new method errs on the safe side. */
const READS = new Set([
  'getMemory',
  'claimFor',
  'currentHolder',
  'findRejection',
  'liveClaims',
  'sourceItem',
  'hasEvent',
  'component',
  'memoriesAboutSubject',
  'memoriesByProvenance',
  'rejectionsOf',
  'eventsOf',
  'savepoint',
  // Writes only what earlier lines held back (a line failing after it has written nothing of its own).
  'settle',
]);

/** What each plan line carries, as a refusal names it. */
const PLAN_CARRIES = {
  commitment: "commitment lifecycle (people's moves)",
  chain: 'summary chain',
  summary: 'summary chain',
  behavior: 'behavior record',
  run: 'behavior record',
  fire: 'behavior record',
} as const;

/** Reads of the sub-ports (`commitments`, `behaviors`) a plan line makes; their other calls write. */
const SUB_READS = new Set([
  'commitment',
  'chain',
  'links',
  'source',
  'linksCovering',
  'behavior',
  'version',
  'candidates',
  'unconsumedFires',
  'liveRuns',
  'runsByIds',
  'runs',
  'getRun',
  'fires',
  'linked',
]);

/** The transaction as a line sees it: any write sets `progress.wrote`, so a failure after it replays the batch. */
function trackWrites(tx: StoreTx, progress: { wrote: boolean }): StoreTx {
  return tracked(tx, READS, progress);
}

function tracked<T extends object>(target: T, reads: ReadonlySet<string>, progress: { wrote: boolean }): T {
  return new Proxy(target, {
    get(t, name) {
      // Read on the target itself: a getter or method may use its private fields.
      const value = Reflect.get(t, name, t);
      if (name === 'commitments' || name === 'behaviors')
        return tracked(value as object, SUB_READS, progress);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        if (typeof name !== 'string' || !reads.has(name)) progress.wrote = true;
        return value.apply(t, args);
      };
    },
  });
}
