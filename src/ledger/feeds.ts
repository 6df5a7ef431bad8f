/**
 * Feed definitions as ledger calls: add, list, get, save progress, remove. A feed is configuration of the data
 * directory (what to read, as whom, into which scope), so every call needs the admin role and is audited (I8).
 * Reading transcripts and mining them is src/feeds; this file only keeps the definitions and checkpoints.
 */
import { z } from 'zod';
import { assertNoSecrets } from '../guard/limits.ts';
import { maskSecrets } from '../guard/secrets.ts';
import { MemoryError } from '../model/errors.ts';
import { assertRole } from '../policy/access.ts';
import type { FeedRow, FeedUpdate } from '../store/feeds-port.ts';
import type { Deps } from './deps.ts';
import { parseInput } from './parse.ts';

export type Feed = FeedRow;

export const FEED_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
const feedName = z
  .string()
  .regex(FEED_NAME_PATTERN, 'a feed name is lower-case letters, digits and . _ - (at most 64)');
/** Configuration and checkpoints are small JSON documents; anything bigger is a bug upstream, refused early. */
const boundedJson = (what: string, max: number) =>
  z.record(z.string(), z.unknown()).refine((v) => {
    try {
      return JSON.stringify(v).length <= max;
    } catch {
      return false;
    }
  }, `${what} must be JSON of at most ${max} bytes`);

export const feedAddSchema = z
  .object({
    name: feedName,
    connector: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, 'a connector is a short lower-case name'),
    config: boundedJson('config', 8_000).default({}),
  })
  .strict();
export type FeedAddInput = z.input<typeof feedAddSchema>;

export const feedUpdateSchema = z
  .object({
    name: feedName,
    checkpoint: boundedJson('checkpoint', 4_000_000).optional(),
    stats: z.record(z.string(), z.number()).optional(),
    lastSyncAt: z.string().nullable().optional(),
    lastError: z.string().max(2_000).nullable().optional(),
  })
  .strict();
export type FeedUpdateInput = z.input<typeof feedUpdateSchema>;

export async function feedAdd(deps: Deps, input: FeedAddInput): Promise<Feed> {
  assertRole(deps.principal, 'admin', 'add a feed');
  const f = parseInput(feedAddSchema, input, 'feed');
  assertNoSecrets({ config: f.config });
  const row: FeedRow = {
    name: f.name,
    connector: f.connector,
    config: f.config as Record<string, unknown>,
    checkpoint: {},
    stats: {},
    createdAt: deps.now(),
    lastSyncAt: null,
    lastError: null,
  };
  await deps.store.feeds.insert(row);
  return row;
}

export async function feedList(deps: Deps): Promise<Feed[]> {
  assertRole(deps.principal, 'admin', 'list feeds');
  return deps.store.feeds.list();
}

export async function feedGet(deps: Deps, name: string): Promise<Feed> {
  assertRole(deps.principal, 'admin', 'read a feed');
  const parsed = parseInput(feedName, name, 'feed name');
  const row = await deps.store.feeds.get(parsed);
  if (row === null)
    throw new MemoryError('not_found', `no feed named ${parsed} (memledger feeds list shows them)`);
  return row;
}

/** Saves a feed's progress: its checkpoint after a file or batch committed, its totals, its last error. */
export async function feedUpdate(deps: Deps, input: FeedUpdateInput): Promise<void> {
  assertRole(deps.principal, 'admin', 'update a feed');
  const { name, ...change } = parseInput(feedUpdateSchema, input, 'feed update');
  // The last error is the sync's own report of a failure: masked, not refused, so the failure is still kept (I10).
  if (typeof change.lastError === 'string') change.lastError = maskSecrets(change.lastError);
  await deps.store.feeds.update(name, change as FeedUpdate);
}

export async function feedRemove(deps: Deps, name: string): Promise<{ removed: boolean }> {
  assertRole(deps.principal, 'admin', 'remove a feed');
  const parsed = parseInput(feedName, name, 'feed name');
  return { removed: await deps.store.feeds.remove(parsed) };
}
