/**
 * The lines of `memledger/v3` that carry a home's plans beside its memories: a commitment's lifecycle row, a
 * summary chain and its links, a behavior with its versions, its runs and its fired windows. Only a restore
 * brings them (each is a person's decision or a behavior's record of work), checked here field by field.
 */
import { z } from 'zod';
import { COMMITMENT_STATUSES, chainNameSchema } from '../../model/commitment.ts';
import { LIMITS, memoryIdSchema, subjectSchema } from '../../model/memory.ts';
import { principalRefSchema } from '../../model/principal.ts';
import { scopeSchema } from '../../model/scope.ts';
import { isoTime } from '../../model/time.ts';
import { BEHAVIOR_NAME } from '../../behaviors/definition.ts';

const time = isoTime('time');
const actor = z.string().max(200);
const runId = z.string().regex(/^run_[0-9a-z]{1,40}$/);
const fireId = z.string().regex(/^fire_[0-9a-z]{1,40}$/);
/** What a run is shown: events of the log and fired windows. */
const itemId = z.string().regex(/^(evt|fire)_[0-9a-z]{1,40}$/);
const behaviorName = z.string().regex(BEHAVIOR_NAME, 'a behavior name');
/** Ids a file may list in one row: as many as an import batch holds ten times over. */
const MANY = 10_000;

export const commitmentLineSchema = z
  .object({
    type: z.literal('commitment'),
    commitment: z
      .object({
        memoryId: memoryIdSchema,
        scope: scopeSchema,
        owner: principalRefSchema,
        status: z.enum(COMMITMENT_STATUSES),
        dueAt: time.nullable(),
        remindAt: time.nullable(),
        scheduled: z.boolean(),
        semantic: z.boolean(),
        createdAt: time,
        statusAt: time,
        statusBy: actor,
        completedAt: time.nullable(),
      })
      .strict(),
  })
  .strict();
export type CommitmentLine = z.output<typeof commitmentLineSchema>;

export const chainLineSchema = z
  .object({
    type: z.literal('chain'),
    chain: z
      .object({
        name: chainNameSchema,
        scope: scopeSchema,
        sessionId: z.string().min(1).max(LIMITS.sourceField).nullable(),
        subject: subjectSchema.nullable(),
        owner: z.string().min(1).max(200).nullable(),
        createdBy: actor,
        createdAt: time,
        sourceErasedAt: time.nullable(),
      })
      .strict(),
  })
  .strict();
export type ChainLine = z.output<typeof chainLineSchema>;

export const summaryLineSchema = z
  .object({
    type: z.literal('summary'),
    summary: z
      .object({
        memoryId: memoryIdSchema,
        chain: chainNameSchema,
        previous: memoryIdSchema.nullable(),
        after: time.nullable(),
        cutoff: time,
        covers: z.array(memoryIdSchema).max(MANY),
        createdAt: time,
        staleAt: time.nullable(),
      })
      .strict(),
  })
  .strict();
export type SummaryLine = z.output<typeof summaryLineSchema>;

const versionSchema = z
  .object({
    version: z.number().int().min(1).max(1_000_000),
    // Checked as a definition by the restore (src/behaviors/definition.ts), like `behaviors add` checks it.
    definition: z.record(z.string(), z.unknown()),
    createdBy: actor,
    createdAt: time,
  })
  .strict();

export const behaviorLineSchema = z
  .object({
    type: z.literal('behavior'),
    behavior: z
      .object({
        name: behaviorName,
        /** The current version: the newest, as `behaviors add` makes it. */
        version: z.number().int().min(1).max(1_000_000),
        disabledAt: time.nullable(),
        versions: z.array(versionSchema).min(1).max(1000),
      })
      .strict(),
  })
  .strict();
export type BehaviorLine = z.output<typeof behaviorLineSchema>;

/** A run as exported: everything but its nonce, the secret half of its token, which never leaves a home. */
export const runLineSchema = z
  .object({
    type: z.literal('run'),
    run: z
      .object({
        id: runId,
        behavior: behaviorName,
        version: z.number().int().min(1).max(1_000_000),
        state: z.enum(['leased', 'finished', 'failed']),
        shown: z.array(itemId).max(MANY),
        leaseUntil: time,
        depth: z.number().int().min(0).max(1000),
        chain: z.array(behaviorName).max(1000),
        outputs: z.array(memoryIdSchema).max(MANY),
        startedBy: actor,
        startedAt: time,
        endedAt: time.nullable(),
        failure: z.string().max(200).nullable(),
      })
      .strict(),
  })
  .strict();
export type RunLine = z.output<typeof runLineSchema>;

export const fireLineSchema = z
  .object({
    type: z.literal('fire'),
    fire: z
      .object({
        id: fireId,
        behavior: behaviorName,
        trigger: z.enum(['schedule', 'commitment']),
        windowKey: z.string().min(1).max(300),
        at: time,
        memoryId: memoryIdSchema.nullable(),
        firedAt: time,
      })
      .strict(),
  })
  .strict();
export type FireLine = z.output<typeof fireLineSchema>;

/** The plan lines, all restore-only: a plain import refuses each by its line number. */
export const PLAN_LINES = new Set(['commitment', 'chain', 'summary', 'behavior', 'run', 'fire']);
