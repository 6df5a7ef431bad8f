/**
 * export and import as JSONL. Export writes every memory the caller may read, in every state, with its events,
 * plus the rejections; import replays them through the same guard, grants, rejection check and gate as any write.
 */
import { z } from 'zod';
import { fingerprint } from '../guard/fingerprint.ts';
import { asMemoryError, type ErrorClass, MemoryError } from '../model/errors.ts';
import { EVENT_TYPES, type MemoryEvent } from '../model/event.ts';
import { KINDS, type Memory, memoryIdSchema, STATES, TRUST_LEVELS } from '../model/memory.ts';
import { scopeSchema } from '../model/scope.ts';
import { principalLabel } from '../model/principal.ts';
import { assertCan } from '../policy/access.ts';
import { decide } from '../policy/gate.ts';
import type { Rejection, StoreTx } from '../store/port.ts';
import { claimImported } from './claims.ts';
import type { Deps } from './deps.ts';
import { ImportInterrupted, type ImportOptions } from './import-options.ts';
import { parseInput } from './parse.ts';
import { checkContent } from './remember.ts';
import { readableScopes } from './scopes.ts';
import { maskMemory } from './visibility.ts';

export const EXPORT_FORMAT = 'memledger/v1';

export type ExportLine =
  | { type: 'header'; format: typeof EXPORT_FORMAT; exportedAt: string; exportedBy: string }
  | { type: 'memory'; memory: Memory; events: MemoryEvent[] }
  | { type: 'rejection'; rejection: Rejection };

/** Yields JSONL lines (without newlines), oldest memory first so an import can replay supersede links in order. */
export async function* exportLines(deps: Deps): AsyncGenerator<string> {
  const scopes = readableScopes(deps.principal);
  yield JSON.stringify({
    type: 'header',
    format: EXPORT_FORMAT,
    exportedAt: deps.now(),
    exportedBy: principalLabel(deps.principal),
  });
  const rejections = new Map<string, Memory>();
  for await (const memory of deps.store.iterateAll(scopes)) {
    const events = await deps.store.eventsFor([memory.id]);
    // Egress guard (I10): a secret planted below the write guard leaves masked, like every other read.
    yield JSON.stringify({ type: 'memory', memory: maskMemory(memory), events });
    if (memory.state === 'rejected') rejections.set(memory.id, memory);
  }
  for (const m of rejections.values()) {
    const r = await deps.store.rejectionFor(m.scope, m.fingerprint);
    if (r !== null && r.memoryId === m.id) yield JSON.stringify({ type: 'rejection', rejection: r });
  }
}

const provenanceSchema = z
  .object({
    principal: z.string().max(200),
    principalKind: z.enum(['human', 'agent', 'service']),
    surface: z.string().max(40),
  })
  .passthrough();

const memoryLineSchema = z
  .object({
    type: z.literal('memory'),
    memory: z
      .object({
        id: memoryIdSchema,
        scope: scopeSchema,
        kind: z.enum(KINDS),
        key: z.string().max(200).nullable(),
        body: z.string().max(8_000),
        value: z.unknown(),
        subjects: z.array(z.string().max(200)).max(32),
        validFrom: z.string().nullable(),
        validTo: z.string().nullable(),
        confidence: z.number().min(0).max(1),
        supersedes: memoryIdSchema.nullable(),
        editOf: memoryIdSchema.nullable(),
        fingerprint: z.string(),
        provenance: provenanceSchema,
        recordedAt: z.string(),
        state: z.enum(STATES),
        trust: z.enum(TRUST_LEVELS),
        supersededBy: memoryIdSchema.nullable(),
        activeFrom: z.string().nullable(),
        activeUntil: z.string().nullable(),
        confirmedBy: z.string().nullable(),
        rule: z.string().nullable(),
      })
      .strict(),
    events: z
      .array(
        z
          .object({
            id: z.string().regex(/^evt_/),
            type: z.enum(EVENT_TYPES),
            memoryId: memoryIdSchema,
            actor: z.string(),
            actorKind: z.enum(['human', 'agent', 'service']),
            at: z.string(),
            reason: z.string().nullable(),
            detail: z.record(z.string(), z.unknown()),
          })
          .strict(),
      )
      .default([]),
  })
  .strict();

const rejectionLineSchema = z
  .object({
    type: z.literal('rejection'),
    rejection: z
      .object({
        scope: z.string(),
        fingerprint: z.string(),
        memoryId: memoryIdSchema,
        reason: z.string(),
        by: z.string(),
        at: z.string(),
      })
      .strict(),
  })
  .strict();

export interface ImportResult {
  lines: number;
  imported: number;
  /** Already present (same id): importing twice changes nothing. */
  skipped: number;
  held: number;
  rejected: number;
  failed: { line: number; class: ErrorClass; message: string }[];
}

const BATCH = 1000;

type Outcome = 'imported' | 'skipped' | 'held' | 'rejected';

/** Thrown inside a fast batch when a line failed after it had written: the batch is replayed line by line. */
class ReplayBatch extends Error {}

/**
 * Imports JSONL lines in batches of a thousand per transaction. A line that fails its checks is reported with
 * its number and writes nothing (every check runs before its first write). Should a line fail after writing,
 * the batch rolls back and is replayed with a savepoint per line, so nothing is ever half-written. An aborted
 * `signal` ends it between batches with `ImportInterrupted`: lines read into an unwritten batch are dropped.
 */
export async function importLines(
  deps: Deps,
  lines: AsyncIterable<string>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const { onProgress, signal } = options;
  const result: ImportResult = { lines: 0, imported: 0, skipped: 0, held: 0, rejected: 0, failed: [] };
  const first = options.fromLine ?? 1;
  let number = 0;
  let through = first - 1;
  let batch: { n: number; text: string }[] = [];
  const flush = async () => {
    const pending = batch;
    batch = [];
    let outcome: BatchOutcome;
    try {
      outcome = await deps.store.transaction((tx) => runBatch(deps, tx, pending, false));
    } catch (error) {
      if (!(error instanceof ReplayBatch)) throw error;
      outcome = await deps.store.transaction((tx) => runBatch(deps, tx, pending, true));
    }
    for (const o of outcome.landed) result[o]++;
    for (const f of outcome.failed) if (result.failed.length < 1000) result.failed.push(f);
    through = number;
    onProgress?.(result);
  };
  const interrupted = () =>
    new ImportInterrupted({ ...result, lines: through - first + 1 }, through, signal?.reason);
  for await (const raw of lines) {
    if (signal?.aborted) throw interrupted();
    number++;
    if (number < first) continue;
    result.lines++;
    const text = raw.trim();
    if (text !== '') batch.push({ n: number, text });
    if (batch.length >= BATCH) await flush();
  }
  if (signal?.aborted) throw interrupted();
  if (batch.length > 0) await flush();
  return result;
}

interface BatchOutcome {
  landed: Outcome[];
  failed: ImportResult['failed'];
}

async function runBatch(
  deps: Deps,
  tx: StoreTx,
  pending: { n: number; text: string }[],
  savepoints: boolean,
): Promise<BatchOutcome> {
  const out: BatchOutcome = { landed: [], failed: [] };
  // A batch is one transaction: its lines land together, so they share one import time (read once, not per line).
  const at = deps.now();
  const batchDeps: Deps = { ...deps, now: () => at };
  for (const { n, text } of pending) {
    const progress = { wrote: false };
    try {
      const o = savepoints
        ? await tx.savepoint(() => importLine(batchDeps, tx, text, progress))
        : await importLine(batchDeps, tx, text, progress);
      if (o !== null) out.landed.push(o);
    } catch (error) {
      if (!savepoints && progress.wrote) throw new ReplayBatch();
      const e = asMemoryError(error);
      out.failed.push({ line: n, class: e.class, message: e.message });
    }
  }
  return out;
}

async function importLine(
  deps: Deps,
  tx: StoreTx,
  text: string,
  progress: { wrote: boolean },
): Promise<Outcome | null> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new MemoryError('invalid_input', 'line is not valid JSON');
  }
  const type = (doc as { type?: unknown } | null)?.type;
  if (type === 'header') return null;
  if (type === 'rejection') {
    const { rejection } = parseInput(rejectionLineSchema, doc, 'rejection line');
    assertCan(deps.principal, 'write', rejection.scope);
    if ((await tx.getMemory(rejection.memoryId)) !== null) await tx.insertRejection(rejection);
    return null;
  }
  const line = parseInput(memoryLineSchema, doc, 'memory line');
  const m = line.memory;
  if (m.state === 'erased') return 'skipped';
  checkContent({
    body: m.body,
    value: m.value,
    key: m.key ?? undefined,
    subjects: m.subjects,
    source: undefined,
  });
  assertCan(deps.principal, 'write', m.scope);
  return landImported(deps, tx, m as Memory, line.events as MemoryEvent[], progress);
}

async function landImported(
  deps: Deps,
  tx: StoreTx,
  m: Memory,
  events: MemoryEvent[],
  progress: { wrote: boolean },
): Promise<Outcome> {
  if ((await tx.getMemory(m.id)) !== null) return 'skipped';
  for (const link of [m.supersedes, m.editOf]) {
    if (link !== null && (await tx.getMemory(link)) === null) {
      throw new MemoryError(
        'invalid_input',
        `memory ${m.id} links to ${link}, which is neither in this home nor earlier in the file`,
      );
    }
  }
  // The fingerprint is recomputed, never trusted from the file: it is what rejections are keyed on.
  const fp = fingerprint({ scope: m.scope, key: m.key, kind: m.kind, body: m.body, value: m.value });
  const memory: Memory = {
    ...m,
    fingerprint: fp,
    provenance: {
      ...m.provenance,
      importedBy: principalLabel(deps.principal),
      importedAt: deps.now(),
    } as Memory['provenance'],
  };
  let outcome: 'imported' | 'held' | 'rejected' = 'imported';
  const live = memory.state === 'active' || memory.state === 'held';
  if (live && (await tx.findRejection(m.scope, fp)) !== null) {
    Object.assign(memory, {
      state: 'rejected',
      activeUntil: memory.activeFrom === null ? null : deps.now(),
      rule: 'rejection-stands',
    });
    outcome = 'rejected';
  } else if (live) {
    const replaces = m.key === null ? null : await tx.currentHolder(m.scope, m.key);
    const decision = decide(deps.policy, {
      principal: deps.principal,
      scope: m.scope,
      kind: m.kind,
      key: m.key,
      replaces,
      claim: m.key === null ? undefined : await tx.claimFor(m.scope, m.key),
    });
    if (decision.action === 'deny')
      throw new MemoryError('permission', `import of ${m.id} denied by policy (${decision.rule})`);
    if (decision.action === 'hold' && memory.state === 'active') {
      Object.assign(memory, { state: 'held', activeFrom: null, rule: decision.rule });
      outcome = 'held';
    }
    if (memory.state === 'active' && replaces !== null && replaces.id !== m.supersedes) {
      throw new MemoryError(
        'conflict',
        `key ${m.key} in ${m.scope} is already held by ${replaces.id} in this home`,
        { details: { winner: replaces.id } },
      );
    }
  }
  // insertMemory is one statement: if it fails, SQLite has undone it and this line wrote nothing.
  await tx.insertMemory(memory);
  progress.wrote = true;
  for (const e of events) {
    if (e.memoryId === m.id && !(await tx.hasEvent(e.id))) await tx.insertEvent(e);
  }
  await claimImported(tx, memory, events);
  deps.trace.targets.add(m.id);
  return outcome;
}
