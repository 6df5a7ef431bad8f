/** The labelled evaluation file: memories with labels, scopes and times, and queries naming the labels they should find. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const time = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?$/,
    'an ISO-8601 date or UTC time',
  );
const label = z.string().min(1).max(120);
/** `human:dana`, `agent:claude-code`: who writes or reads, resolved through the ledger's policy. */
const principalRef = z.string().regex(/^(human|agent|service):[A-Za-z0-9][A-Za-z0-9._@+-]*$/);

const verdict = z.object({ at: time, by: principalRef.optional() }).strict();

export const evalMemorySchema = z
  .object({
    id: label,
    body: z.string().min(1),
    kind: z.string().default('fact'),
    scope: z.string(),
    key: z.string().optional(),
    value: z.json().optional(),
    subjects: z.array(z.string()).default([]),
    validFrom: time.optional(),
    validTo: time.optional(),
    /** When the ledger learned it: the ledger's clock reads this while the memory is written. */
    recorded: time,
    by: principalRef.default('human:eval'),
    confidence: z.number().min(0).max(1).optional(),
    source: z
      .object({ connector: z.string(), id: z.string().optional(), url: z.string().optional() })
      .strict()
      .optional(),
    /**
     * The conversation or session it was said in: written with this as the call's session id, so turns of one
     * conversation share a thread (their neighbours). Absent: a session of its own.
     */
    session: z.string().min(1).max(200).optional(),
    /** The label of the memory this one replaces (same scope); a same-key write replaces implicitly. */
    supersedes: label.optional(),
    /** A verdict on a held write. With `edits`, the edited version takes this label. */
    review: verdict
      .extend({
        action: z.enum(['approve', 'reject']),
        reason: z.string().optional(),
        edits: z
          .object({ body: z.string().min(1) })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
    confirm: verdict.optional(),
    retract: verdict
      .extend({ reason: z.string().min(1) })
      .strict()
      .optional(),
  })
  .strict();
export type EvalMemory = z.output<typeof evalMemorySchema>;

export const evalQuerySchema = z
  .object({
    id: label,
    category: z.string().min(1),
    text: z.string().min(1),
    /** Who asks; default `human:eval`, who may read every scope (so `scopes` decides). */
    as: principalRef.optional(),
    /** The scopes to search; empty or absent means every scope the asker may read. */
    scopes: z.array(z.string()).optional(),
    /** Empty: nothing should be found with confidence (a question whose premise is wrong). */
    expect: z.array(label),
    mustNot: z.array(label).default([]),
    asOf: time.optional(),
    validAt: time.optional(),
    /** The query's reference time ("yesterday" is the day before it); default the set's `now`. */
    at: time.optional(),
    /** The task text given to context assembly; defaults to `text`. */
    task: z.string().optional(),
    note: z.string().optional(),
  })
  .strict();
export type EvalQuery = z.output<typeof evalQuerySchema>;

export const evalSetSchema = z
  .object({
    name: z.string().min(1),
    description: z.string().optional(),
    /** The clock while queries run: after every memory's recorded time. */
    now: time,
    /** A policy document for the temporary home; the default policy when absent. */
    policy: z.json().optional(),
    memories: z.array(evalMemorySchema).min(1),
    queries: z.array(evalQuerySchema).min(1),
  })
  .strict()
  .superRefine((set, ctx) => {
    const labels = new Set<string>();
    for (const m of set.memories) {
      if (labels.has(m.id)) ctx.addIssue({ code: 'custom', message: `memory label ${m.id} is used twice` });
      labels.add(m.id);
      if (m.supersedes !== undefined && !labels.has(m.supersedes)) {
        ctx.addIssue({
          code: 'custom',
          message: `${m.id} supersedes ${m.supersedes}, which is not listed before it`,
        });
      }
    }
    const queryIds = new Set<string>();
    for (const q of set.queries) {
      if (queryIds.has(q.id)) ctx.addIssue({ code: 'custom', message: `query id ${q.id} is used twice` });
      queryIds.add(q.id);
      for (const l of [...q.expect, ...q.mustNot]) {
        if (!labels.has(l))
          ctx.addIssue({ code: 'custom', message: `query ${q.id} names unknown memory ${l}` });
      }
      if (q.expect.some((l) => q.mustNot.includes(l))) {
        ctx.addIssue({ code: 'custom', message: `query ${q.id} both expects and forbids the same memory` });
      }
    }
  });
export type EvalSet = z.output<typeof evalSetSchema>;

/** Parses a set from a `.json` document or `.jsonl` lines (`{"type":"set"|"memory"|"query", ...}`). */
export function parseEvalSet(text: string, name = 'set'): EvalSet {
  const document = name.endsWith('.jsonl') ? fromLines(text) : JSON.parse(text);
  const parsed = evalSetSchema.safeParse(document);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`${name} is not a valid evaluation set:\n  ${first.join('\n  ')}`);
  }
  return parsed.data;
}

export function readEvalSet(path: string): EvalSet {
  return parseEvalSet(readFileSync(path, 'utf8'), path);
}

function fromLines(text: string): unknown {
  const set: Record<string, unknown> = { memories: [], queries: [] };
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let record: { type?: string };
    try {
      record = JSON.parse(line);
    } catch {
      throw new Error(`line ${i + 1} is not JSON`);
    }
    const { type, ...rest } = record;
    if (type === 'set') Object.assign(set, rest);
    else if (type === 'memory') (set.memories as unknown[]).push(rest);
    else if (type === 'query') (set.queries as unknown[]).push(rest);
    else throw new Error(`line ${i + 1}: type must be set, memory or query`);
  });
  return set;
}

/** What a set file may say for one memory or query, before defaults: what generators write. */
export type EvalMemoryInput = z.input<typeof evalMemorySchema>;
export type EvalQueryInput = z.input<typeof evalQuerySchema>;
