/** Memories: the records of the log, their lifecycle vocabulary, and the zod schemas of the inputs that create them. */
import { z } from 'zod';
import { MEMORY_ID_PATTERN } from './ids.ts';
import { jsonValueSchema } from './json.ts';
import { lazySchema } from './lazy-schema.ts';
import { scopeSchema } from './scope.ts';
import { hasVisibleText, INVISIBLE_BODY_MESSAGE } from './text.ts';
import { isoTime } from './time.ts';

export const KINDS = [
  'fact',
  'preference',
  'decision',
  'note',
  'episode',
  'commitment',
  'correction',
  'summary',
] as const;
export type Kind = (typeof KINDS)[number];
/** Derived from events, never written by hand. Decides whether a memory is visible. */
export const STATES = ['held', 'active', 'superseded', 'retracted', 'rejected', 'erased'] as const;
export type State = (typeof STATES)[number];
/** Decides rank, not membership. */
export const TRUST_LEVELS = ['confirmed', 'accepted', 'unverified'] as const;
export type Trust = (typeof TRUST_LEVELS)[number];

export const LIMITS = {
  body: 8_000,
  value: 16_000,
  key: 200,
  subject: 200,
  subjects: 32,
  query: 1_000,
  reason: 1_000,
  sourceField: 500,
  limit: 200,
} as const;

export const memoryIdSchema = z
  .string()
  .max(64)
  .regex(MEMORY_ID_PATTERN, 'not a memory id (expected mem_ followed by 22 characters)');
export const keySchema = z
  .string()
  .max(LIMITS.key)
  .regex(
    /^[A-Za-z0-9][A-Za-z0-9._:/-]*$/,
    'key must start with a letter or digit and hold only letters, digits and . _ : / -',
  );
export const subjectSchema = z
  .string()
  .max(LIMITS.subject)
  .regex(
    /^[a-z][a-z0-9_-]*:\S+$/,
    'subject must look like type:identifier, e.g. person:alice@example.com or company:acme',
  );
export const kindSchema = z.enum(KINDS);

/** Where a memory came from outside the call: a connector and its item id, a URL. Stamped into provenance. */
export const sourceSchema = z
  .object({
    connector: z.string().max(LIMITS.sourceField).optional(),
    id: z.string().max(LIMITS.sourceField).optional(),
    url: z.string().max(LIMITS.sourceField).optional(),
    note: z.string().max(LIMITS.sourceField).optional(),
  })
  .strict();
export type Source = z.infer<typeof sourceSchema>;

const jsonValue: z.ZodType<unknown> = jsonValueSchema;

/** The fields of a write, before the checks across fields (`rememberInputSchema` adds them). Built on first use. */
export const rememberFieldsSchema = lazySchema(() =>
  z
    .object({
      body: z
        .string()
        .min(1, 'body must not be empty')
        .max(LIMITS.body, `body is longer than ${LIMITS.body} characters`)
        .refine(hasVisibleText, INVISIBLE_BODY_MESSAGE),
      kind: kindSchema.default('fact'),
      scope: scopeSchema,
      key: keySchema.optional(),
      value: jsonValue.optional(),
      subjects: z.array(subjectSchema).max(LIMITS.subjects).default([]),
      validFrom: isoTime('validFrom').optional(),
      validTo: isoTime('validTo').optional(),
      confidence: z.number().min(0).max(1).default(1),
      source: sourceSchema.optional(),
      supersedes: memoryIdSchema.optional(),
    })
    .strict(),
);

/** Valid time must run forwards. */
export const validOrder = <
  S extends z.ZodType<{ validFrom?: string | undefined; validTo?: string | undefined }>,
>(
  schema: S,
): S =>
  schema.refine((v) => v.validFrom === undefined || v.validTo === undefined || v.validFrom < v.validTo, {
    message: 'validFrom must be before validTo',
    path: ['validTo'],
  });

export const rememberInputSchema = lazySchema(() => validOrder(rememberFieldsSchema));
export type RememberInput = z.input<typeof rememberInputSchema>;
export type RememberFields = z.output<typeof rememberInputSchema>;

/** Who wrote a memory and through what: stamped from the call context, never from arguments (I14). */
export interface Provenance {
  principal: string;
  principalKind: 'human' | 'agent' | 'service';
  onBehalfOf?: string;
  surface: string;
  runId?: string;
  sessionId?: string;
  client?: string;
  tokenId?: string;
  source?: Source;
}

export interface Memory {
  id: string;
  scope: string;
  kind: Kind;
  key: string | null;
  body: string;
  value: unknown;
  subjects: string[];
  validFrom: string | null;
  validTo: string | null;
  confidence: number;
  supersedes: string | null;
  /** For a reviewer's edited version: the held proposal it was edited from. */
  editOf: string | null;
  fingerprint: string;
  provenance: Provenance;
  recordedAt: string;
  // lifecycle: derived from events
  state: State;
  trust: Trust;
  supersededBy: string | null;
  activeFrom: string | null;
  activeUntil: string | null;
  /**
   * Valid time as the versions of a key imply it (I12): `validFrom`, else the `validTo` of the version this one
   * supersedes; and `validTo`, else the `validFrom` of the successor that superseded it.
   */
  validStart: string | null;
  validEnd: string | null;
  /** The human who confirmed or approved it, when one did. */
  confirmedBy: string | null;
  /** The policy rule that held or landed it. */
  rule: string | null;
}

/** What every write returns. `reason` says why a write was held or rejected, in words an agent can act on. */
export interface WriteResult {
  id: string;
  state: State;
  reason?: string;
  supersedes?: string | null;
  /** The same claim was live already: the write corroborated that memory (`id`) instead of adding another. */
  corroborated?: boolean;
  /** A feed's source item was recorded before: nothing was written, `id` is the memory it produced then. */
  duplicate?: boolean;
  /** Nothing changed: the memory was already in the state asked for (a retract of a retracted memory). */
  unchanged?: boolean;
}
