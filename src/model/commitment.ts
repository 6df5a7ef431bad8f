/** Commitments (prospective memory) and summary chains: their vocabulary and the zod schemas of their inputs. */
import { z } from 'zod';
import {
  keySchema,
  LIMITS,
  type Memory,
  memoryIdSchema,
  rememberFieldsSchema,
  subjectSchema,
} from './memory.ts';
import { principalRefSchema } from './principal.ts';
import { scopeSchema } from './scope.ts';
import { isoTime } from './time.ts';
import { lazySchema } from './lazy-schema.ts';

export const COMMITMENT_STATUSES = ['open', 'doing', 'done', 'cancelled'] as const;
export type CommitmentStatus = (typeof COMMITMENT_STATUSES)[number];
/** Statuses a commitment is still to be acted on in: the only ones context and triggers surface. */
export const LIVE_STATUSES: readonly CommitmentStatus[] = ['open', 'doing'];

/** A cron schedule: five fields (minute hour day-of-month month day-of-week) read in an IANA time zone. */
export const scheduleSchema = lazySchema(() =>
  z
    .object({
      cron: z.string().min(9).max(100),
      tz: z.string().min(1).max(64).default('UTC'),
    })
    .strict(),
);

/**
 * What surfaces a commitment besides its due time: a time, a schedule, or a semantic trigger (words that all
 * appear, a subject named, a key written) in a new memory or a context task.
 */
export const triggersSchema = lazySchema(() =>
  z
    .object({
      at: isoTime('triggers.at').optional(),
      schedule: scheduleSchema.optional(),
      words: z.array(z.string().min(1).max(100)).max(20).optional(),
      subjects: z.array(subjectSchema).max(LIMITS.subjects).optional(),
      keys: z.array(keySchema).max(20).optional(),
    })
    .strict(),
);
export type Triggers = z.output<typeof triggersSchema>;

export const addCommitmentSchema = lazySchema(() =>
  z
    .object({
      body: rememberFieldsSchema.shape.body,
      scope: scopeSchema,
      /** Who is to do it; the caller by default. */
      owner: principalRefSchema.optional(),
      due: isoTime('due').optional(),
      triggers: triggersSchema.optional(),
      subjects: z.array(subjectSchema).max(LIMITS.subjects).default([]),
    })
    .strict(),
);
export type AddCommitmentInput = z.input<typeof addCommitmentSchema>;

/** The structure a commitment memory carries in its value: immutable content, erased with it (I9). */
export interface CommitmentPlan {
  owner: string;
  due: string | null;
  triggers: Triggers;
}

/**
 * A commitment memory's plan; a plain `commitment` memory written without one has none. Here beside its type,
 * not in ledger/plans/commitments.ts: the context block's pool reads plans, and importing the verbs' module
 * would evaluate the whole write path in every process that only reads (a session hook).
 */
export function planOf(memory: Pick<Memory, 'value'>): CommitmentPlan {
  const v = memory.value as Partial<CommitmentPlan> | null;
  const triggers = v !== null && typeof v === 'object' && typeof v.triggers === 'object' ? v.triggers : {};
  return {
    owner: typeof v?.owner === 'string' ? v.owner : '',
    due: v?.due ?? null,
    triggers: triggers ?? {},
  };
}

export const updateCommitmentSchema = lazySchema(() =>
  z.object({ id: memoryIdSchema, status: z.enum(COMMITMENT_STATUSES) }).strict(),
);
export type UpdateCommitmentInput = z.input<typeof updateCommitmentSchema>;

export const listCommitmentsSchema = lazySchema(() =>
  z
    .object({
      scopes: z.array(scopeSchema).max(50).optional(),
      statuses: z.array(z.enum(COMMITMENT_STATUSES)).max(4).optional(),
      dueBefore: isoTime('dueBefore').optional(),
      owner: principalRefSchema.optional(),
      limit: z.number().int().min(1).max(LIMITS.limit).default(50),
    })
    .strict(),
);
export type ListCommitmentsInput = z.input<typeof listCommitmentsSchema>;

export const CHAIN_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const chainNameSchema = z
  .string()
  .regex(
    CHAIN_NAME,
    'a chain name is 1-64 lowercase letters, digits, . _ -, starting with a letter or digit',
  );

/** A chain's source: a scope's memories, narrowed to one session or one subject if asked. */
export const createChainSchema = lazySchema(() =>
  z
    .object({
      name: chainNameSchema,
      scope: scopeSchema,
      sessionId: z.string().min(1).max(LIMITS.sourceField).optional(),
      subject: subjectSchema.optional(),
      /** The behavior that owns it (`behavior:NAME`), filled by the behaviors part; null for a person's chain. */
      owner: z.string().min(1).max(200).optional(),
    })
    .strict()
    .refine((v) => v.sessionId === undefined || v.subject === undefined, {
      message: 'a chain follows a scope, one session in it, or one subject in it: not both',
    }),
);
export type CreateChainInput = z.input<typeof createChainSchema>;

export const summaryNextSchema = lazySchema(() =>
  z
    .object({ chain: chainNameSchema, limit: z.number().int().min(1).max(LIMITS.limit).default(100) })
    .strict(),
);
export type SummaryNextInput = z.input<typeof summaryNextSchema>;

export const summaryAddSchema = lazySchema(() =>
  z
    .object({
      chain: chainNameSchema,
      until: isoTime('until'),
      body: rememberFieldsSchema.shape.body,
      subjects: z.array(subjectSchema).max(LIMITS.subjects).default([]),
    })
    .strict(),
);
export type SummaryAddInput = z.input<typeof summaryAddSchema>;
