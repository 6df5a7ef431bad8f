/**
 * The lines `import` reads, as zod schemas: an export's lines (header, memory with its events, rejection, claim,
 * erasure) and plain ingest lines (`{"body": …}`) that bring memories from anywhere.
 */
import { z } from 'zod';
import { EVENT_TYPES } from '../../model/event.ts';
import { jsonValueSchema } from '../../model/json.ts';
import {
  KINDS,
  LIMITS,
  keySchema,
  memoryIdSchema,
  rememberFieldsSchema,
  STATES,
  TRUST_LEVELS,
  validOrder,
} from '../../model/memory.ts';
import { principalRefSchema } from '../../model/principal.ts';
import { scopeSchema } from '../../model/scope.ts';
import { isoTime } from '../../model/time.ts';
import { IMPORT_FORMATS } from './export.ts';

/** Times are checked and canonicalised like every time a caller gives (I11); an export's are canonical already. */
const time = isoTime('time');
const actor = z.string().max(200);
const actorKind = z.enum(['human', 'agent', 'service']);

export const headerLineSchema = z
  .object({
    type: z.literal('header'),
    format: z.enum(IMPORT_FORMATS),
    exportedAt: time.optional(),
    exportedBy: actor.optional(),
  })
  .strict();

const provenanceSchema = z
  .object({ principal: principalRefSchema, principalKind: actorKind, surface: z.string().max(40) })
  .passthrough();

export const eventSchema = z
  .object({
    id: z.string().regex(/^evt_[0-9a-z]{1,40}$/),
    type: z.enum(EVENT_TYPES),
    memoryId: memoryIdSchema,
    actor,
    actorKind,
    at: time,
    reason: z.string().max(LIMITS.reason).nullable(),
    detail: z.record(z.string(), z.unknown()),
  })
  .strict();

export const memoryLineSchema = z
  .object({
    type: z.literal('memory'),
    memory: z
      .object({
        id: memoryIdSchema,
        scope: scopeSchema,
        kind: z.enum(KINDS),
        key: keySchema.nullable(),
        body: z.string().max(LIMITS.body),
        value: jsonValueSchema.nullable(),
        subjects: z.array(z.string().max(LIMITS.subject)).max(LIMITS.subjects),
        validFrom: time.nullable(),
        validTo: time.nullable(),
        // Absent in memledger/v1 files: the importer derives them as a write would.
        validStart: time.nullable().optional(),
        validEnd: time.nullable().optional(),
        confidence: z.number().min(0).max(1),
        supersedes: memoryIdSchema.nullable(),
        editOf: memoryIdSchema.nullable(),
        // Never trusted: recomputed from the text, since rejections are keyed on it.
        fingerprint: z.string().max(128),
        provenance: provenanceSchema,
        recordedAt: time,
        state: z.enum(STATES),
        trust: z.enum(TRUST_LEVELS),
        supersededBy: memoryIdSchema.nullable(),
        activeFrom: time.nullable(),
        activeUntil: time.nullable(),
        confirmedBy: actor.nullable(),
        rule: z.string().max(200).nullable(),
      })
      .strict(),
    events: z.array(eventSchema).max(10_000).default([]),
  })
  .strict();
export type MemoryLine = z.output<typeof memoryLineSchema>;

const liftSchema = z.object({ at: time, by: actor, reason: z.string().max(LIMITS.reason) }).strict();

export const rejectionLineSchema = z
  .object({
    type: z.literal('rejection'),
    rejection: z
      .object({
        scope: scopeSchema,
        memoryId: memoryIdSchema,
        reason: z.string().max(LIMITS.reason),
        by: actor,
        at: time,
        lifted: liftSchema.nullable().default(null),
        // memledger/v1 wrote the identity; it is recomputed, never trusted.
        fingerprint: z.string().max(128).optional(),
      })
      .strict(),
  })
  .strict();

export const claimLineSchema = z
  .object({
    type: z.literal('claim'),
    claim: z
      .object({
        scope: scopeSchema,
        key: keySchema,
        owner: principalRefSchema,
        since: time,
        memoryId: memoryIdSchema,
      })
      .strict(),
  })
  .strict();

export const erasureLineSchema = z
  .object({
    type: z.literal('erasure'),
    erasure: z
      .object({
        id: z.string().regex(/^era_[0-9a-z]{1,40}$/),
        selector: z.enum(['subject', 'principal', 'session', 'source']),
        memoryIds: z.array(memoryIdSchema).max(100_000),
        by: actor,
        at: time,
      })
      .strict(),
  })
  .strict();

/**
 * A plain line: a memory from anywhere, written as the importer's own (its provenance, its gate). The scope may
 * be left out (the import's default scope); a plain line cannot supersede by id, since ids are this home's.
 */
export const plainLineSchema = validOrder(
  rememberFieldsSchema.omit({ supersedes: true }).extend({ scope: scopeSchema.optional() }),
);

/** The line types only a restore may bring: each carries someone's verdict, claim or erasure. */
export const VERDICT_LINES = new Set(['rejection', 'claim', 'erasure']);
