/** A feed's configuration: where its source is, which scope its candidates go to, and whom they are written as. */
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import { parseInput } from '../ledger/parse.ts';
import { principalRefSchema } from '../model/principal.ts';
import { scopeSchema } from '../model/scope.ts';
import type { Checkpoint } from './types.ts';

export const feedConfigSchema = z
  .object({
    /** The folder read: ~/.claude/projects, ~/.codex/sessions, or a notes folder. Absolute. */
    path: z.string().min(1).max(1_000).refine(isAbsolute, 'path must be absolute'),
    /** Every candidate goes here; without it, each goes to the project of the session's working directory. */
    scope: scopeSchema.optional(),
    /** Who the candidates are written as (roles and grants from the policy). */
    principal: principalRefSchema.optional(),
  })
  .strict();
export type FeedConfig = z.output<typeof feedConfigSchema>;

export function parseFeedConfig(config: unknown): FeedConfig {
  const parsed = parseInput(feedConfigSchema, config, 'feed config');
  return { ...parsed, path: resolve(parsed.path) };
}

/** A stored checkpoint as the engine uses it; anything unreadable starts over (items are deduplicated anyway). */
export function checkpointOf(stored: Record<string, unknown>): Checkpoint {
  const files = stored.files;
  if (typeof files !== 'object' || files === null || Array.isArray(files)) return { files: {} };
  return { files: { ...(files as Checkpoint['files']) } };
}
