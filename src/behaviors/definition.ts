/**
 * A behavior's definition: what an admin writes in a file (TOML or JSON) and the ledger keeps by version. A
 * trigger says when, the prompt says what matters, `reads` bounds what its windows show, `writes` bounds what
 * its runs may write. Validated with zod; unknown fields are refused so a typo never silently widens anything.
 */
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { MemoryError } from '../model/errors.ts';
import { kindSchema } from '../model/memory.ts';
import { SCOPE_GLOB_PATTERN } from '../model/scope.ts';
import { parseCron } from '../model/cron.ts';

export const BEHAVIOR_NAME = /^[a-z0-9][a-z0-9._-]{0,62}$/;

const scopePattern = z
  .string()
  .max(140)
  .regex(SCOPE_GLOB_PATTERN, 'a scope or scope pattern (shared, project:*, *)');
/** Key patterns: letters, digits and `. _ - :`, with `*` for any run of characters. */
const keyPattern = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:*-]+$/, 'a key pattern (acme.*)');

const timeZone = z
  .string()
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone (UTC, Europe/Berlin)');

const scheduleTrigger = z
  .object({
    type: z.literal('schedule'),
    cron: z
      .string()
      .max(120)
      .refine((c) => {
        try {
          parseCron(c);
          return true;
        } catch {
          return false;
        }
      }, 'a five-field cron expression (minute hour day-of-month month day-of-week)'),
    timezone: timeZone.default('UTC'),
  })
  .strict();

const eventTrigger = z
  .object({
    type: z.literal('event'),
    kinds: z.array(kindSchema).max(10).optional(),
    scopes: z.array(scopePattern).max(20).optional(),
    key: keyPattern.optional(),
    subject: z.string().min(1).max(200).optional(),
    /** Any of these words, case-insensitive, in the body. */
    words: z.array(z.string().min(1).max(60)).max(20).optional(),
  })
  .strict();

const commitmentTrigger = z
  .object({ type: z.literal('commitment'), scopes: z.array(scopePattern).max(20).optional() })
  .strict();

/**
 * A named read-only query over the views of the log the behavior's grants allow (`events`, `memories`,
 * `commitments`: see sources.ts); `limit` bounds the rows it hands the window.
 */
const sourceSchema = z
  .object({
    name: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, 'a source name: lower-case letters, digits, _ (up to 40)'),
    sql: z.string().trim().min(1).max(10_000),
    limit: z.number().int().min(1).max(500).optional(),
  })
  .strict();

export const behaviorDefinitionSchema = z
  .object({
    name: z.string().regex(BEHAVIOR_NAME, 'a behavior name: lower-case letters, digits, . _ - (up to 63)'),
    description: z.string().max(500).optional(),
    prompt: z.string().min(1).max(20_000),
    triggers: z
      .array(z.discriminatedUnion('type', [scheduleTrigger, eventTrigger, commitmentTrigger]))
      .min(1)
      .max(20),
    /** The scopes its windows may show (and the caller must also be able to read). */
    reads: z.object({ scopes: z.array(scopePattern).min(1).max(20) }).strict(),
    /** What its runs may write: kinds, scopes, and, when given, keys. */
    writes: z
      .object({
        kinds: z.array(kindSchema).min(1).max(10),
        scopes: z.array(scopePattern).min(1).max(20),
        keys: z.array(keyPattern).max(20).optional(),
      })
      .strict(),
    sources: z
      .array(sourceSchema)
      .max(10)
      .default([])
      .refine((all) => new Set(all.map((x) => x.name)).size === all.length, 'source names must be unique'),
    /** Events recorded less than this long ago wait for the next window (writes of one moment arrive together). */
    settleSeconds: z.number().int().min(0).max(3600).default(5),
    leaseSeconds: z.number().int().min(5).max(86_400).default(600),
    /** Events one window shows at most; the rest stay outstanding for the next. */
    maxEvents: z.number().int().min(1).max(500).default(100),
  })
  .strict();

export type BehaviorDefinition = z.output<typeof behaviorDefinitionSchema>;
export type BehaviorDefinitionInput = z.input<typeof behaviorDefinitionSchema>;
export type Trigger = BehaviorDefinition['triggers'][number];
export type BehaviorSource = BehaviorDefinition['sources'][number];

/** Reads a definition file's text: TOML, or JSON when the name ends in .json (or the text starts with `{`). */
export function parseDefinitionText(text: string, fileName = ''): unknown {
  const json = fileName.toLowerCase().endsWith('.json') || text.trimStart().startsWith('{');
  try {
    return json ? JSON.parse(text) : parseToml(text);
  } catch (error) {
    // The parser's message may quote the file's text; only its position is safe to repeat.
    const where = /line (\d+)/i.exec((error as Error).message)?.[0];
    throw new MemoryError(
      'invalid_input',
      `behavior file is not valid ${json ? 'JSON' : 'TOML'}${where === undefined ? '' : ` (${where})`}`,
    );
  }
}

/** Does a key fall under a key pattern (`*` any run of characters; keys compare case-insensitively)? */
export function keyMatches(pattern: string, key: string): boolean {
  const re = new RegExp(`^${pattern.replace(/[.+?^${}()|[\]-]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i');
  return re.test(key);
}
