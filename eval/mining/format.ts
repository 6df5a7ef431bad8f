/**
 * The mining set's file: fragments of real and written transcripts and notes, each line labelled with the
 * memories it should become (none for a line to drop), and strings no candidate may ever carry.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

export const MINED_KINDS = ['fact', 'preference', 'decision', 'note'] as const;

const expected = z.object({ body: z.string().min(1), kind: z.enum(MINED_KINDS) }).strict();
export type Expected = z.output<typeof expected>;

const line = z
  .object({
    /** A transcript line (one JSONL record), for the claude-code and codex connectors. */
    record: z.record(z.string(), z.unknown()).optional(),
    /** A line of a Markdown note, for the folder connector. */
    text: z.string().optional(),
    /** The memories this line should become; absent or empty: the line is to be dropped. */
    keep: z.array(expected).default([]),
    /** Why a line is dropped or kept the way it is, for a reader of the set. */
    why: z.string().optional(),
  })
  .strict()
  .refine((l) => (l.record === undefined) !== (l.text === undefined), 'a line has a record or a text');
export type MiningLine = z.output<typeof line>;

export const fragmentSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9][a-z0-9-]{1,80}$/),
    connector: z.enum(['claude-code', 'codex', 'folder']),
    /** `public`: cut from a public repository (source says where); `written`: written for this set. */
    origin: z.enum(['public', 'written']),
    source: z
      .object({
        repo: z.string(),
        path: z.string(),
        commit: z.string().regex(/^[0-9a-f]{40}$/),
        note: z.string().optional(),
      })
      .strict()
      .optional(),
    about: z.string().optional(),
    lines: z.array(line).min(1),
    /** Text that must not appear in any candidate (a secret the fragment holds). */
    forbid: z.array(z.string().min(8)).default([]),
  })
  .strict()
  .refine((f) => (f.origin === 'public') === (f.source !== undefined), 'public fragments name their source');
export type Fragment = z.output<typeof fragmentSchema>;
export type FragmentInput = z.input<typeof fragmentSchema>;

export const miningSetSchema = z
  .object({
    type: z.literal('mining'),
    name: z.string().min(1),
    description: z.string().optional(),
    fragments: z.array(fragmentSchema).min(1),
  })
  .strict()
  .superRefine((set, ctx) => {
    const ids = new Set<string>();
    for (const f of set.fragments) {
      if (ids.has(f.id)) ctx.addIssue({ code: 'custom', message: `fragment id ${f.id} is used twice` });
      ids.add(f.id);
    }
  });
export type MiningSet = z.output<typeof miningSetSchema>;

/** Is this parsed JSON document a mining set (rather than a retrieval set)? */
export const isMiningSet = (document: unknown): boolean =>
  typeof document === 'object' && document !== null && (document as { type?: unknown }).type === 'mining';

export function parseMiningSet(document: unknown, name = 'set'): MiningSet {
  const parsed = miningSetSchema.safeParse(document);
  if (!parsed.success) {
    const first = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`${name} is not a valid mining set:\n  ${first.join('\n  ')}`);
  }
  return parsed.data;
}

export function readMiningSet(path: string): MiningSet {
  return parseMiningSet(JSON.parse(readFileSync(path, 'utf8')), path);
}
