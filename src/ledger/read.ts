/** Reads by id and by filter: get, history (the whole chain both ways), list and the review queue (I3, I4, I12). */
import { z } from 'zod';
import type { MemoryEvent } from '../model/event.ts';
import {
  KINDS,
  type Memory,
  memoryIdSchema,
  STATES,
  keySchema,
  LIMITS,
  subjectSchema,
} from '../model/memory.ts';
import { scopeSchema } from '../model/scope.ts';
import { isoTime } from '../model/time.ts';
import { assertRole, can, inFilter, readFilter } from '../policy/access.ts';
import type { Corroboration } from './corroborate.ts';
import { lazy } from './lazy-module.ts';
import type { Deps } from './deps.ts';
import { parseInput } from './parse.ts';
import { readableScopes } from './scopes.ts';
import {
  hasSecret,
  maskEvent,
  maskMemory,
  maskProvenance,
  parseMemoryId,
  visibleOr404,
} from './visibility.ts';

/** Claims and corroboration load with the first review list or history: a session start's reads need neither. */
const claims = lazy(() => import('./claims.ts'));
const corroborating = lazy(() => import('./corroborate.ts'));

export async function get(deps: Deps, id: string): Promise<Memory> {
  const memoryId = parseMemoryId(id);
  readFilter(deps.principal);
  const memory = visibleOr404(deps.principal, await deps.store.getMemory(memoryId), memoryId);
  deps.trace.targets.add(memoryId);
  return maskMemory(memory);
}

export interface History {
  /** Every version linked to the memory by supersede or edit, oldest first. */
  versions: Memory[];
  /** Every event on those versions, in time order: appended, held, approved, rejected, superseded, retracted, erased. */
  events: MemoryEvent[];
  /** The version that is current now, if any. */
  current: string | null;
  /** Independent support for the requested memory: the same claim written again by other sessions and agents. */
  corroboration: Corroboration;
}

export async function history(deps: Deps, id: string): Promise<History> {
  const memoryId = parseMemoryId(id);
  readFilter(deps.principal);
  visibleOr404(deps.principal, await deps.store.getMemory(memoryId), memoryId);
  const versions = (await deps.store.component(memoryId))
    .filter((m) => can(deps.principal, 'read', m.scope))
    .map(maskMemory);
  const events = (await deps.store.eventsFor(versions.map((v) => v.id))).map(maskEvent);
  deps.trace.targets.add(memoryId);
  const current = versions.find((v) => v.state === 'active')?.id ?? null;
  const asked = versions.find((v) => v.id === memoryId);
  const corroboration = (await corroborating()).corroborationOf(asked ?? versions[0]!, events);
  return { versions, events, current, corroboration };
}

export const listInputSchema = z
  .object({
    scopes: z.array(scopeSchema).max(50).optional(),
    kinds: z.array(z.enum(KINDS)).max(KINDS.length).optional(),
    states: z.array(z.enum(STATES)).max(STATES.length).optional(),
    subject: subjectSchema.optional(),
    key: keySchema.optional(),
    asOf: isoTime('asOf').optional(),
    validAt: isoTime('validAt').optional(),
    limit: z.number().int().min(1).max(LIMITS.limit).default(50),
    /** A cursor: only memories listed after this one (older). It must be a memory the caller may read. */
    before: memoryIdSchema.optional(),
  })
  .strict();
export type ListInput = z.input<typeof listInputSchema>;

/** list: newest first. Default is current memories only (I3); other states and as-of reads are explicit. */
export async function list(deps: Deps, input: ListInput = {}): Promise<Memory[]> {
  const f = parseInput(listInputSchema, input, 'list');
  const scopes = readableScopes(deps.principal, f.scopes);
  const filter = readFilter(deps.principal, f.scopes);
  // A cursor the caller may not read is `not_found`, exactly like one that never existed: answering with the
  // rows older than it would tell an unknown id from another scope's (I4). Not ignored either, which would
  // quietly restart a client's paging from the top.
  if (f.before !== undefined) visibleOr404(deps.principal, await deps.store.getMemory(f.before), f.before);
  const rows = await deps.store.list({ ...f, scopes, limit: f.limit });
  return rows.filter((m) => inFilter(filter, m.scope) && !hasSecret(m)).map(maskProvenance);
}

export const reviewListInputSchema = z
  .object({
    scopes: z.array(scopeSchema).max(50).optional(),
    limit: z.number().int().min(1).max(LIMITS.limit).default(100),
  })
  .strict();

/** A held write in the review queue, with whose field it touches (the key's claim), if anyone's. */
export type ReviewItem = Memory & { owner: string | null };

/** The review queue: held writes in scopes the reviewer may read, newest first. */
export async function reviewList(
  deps: Deps,
  input: z.input<typeof reviewListInputSchema> = {},
): Promise<ReviewItem[]> {
  const f = parseInput(reviewListInputSchema, input, 'review list');
  assertRole(deps.principal, 'reviewer', 'see the review queue');
  const scopes = readableScopes(deps.principal, f.scopes);
  const filter = readFilter(deps.principal, f.scopes);
  const rows = await deps.store.list({ scopes, states: ['held'], limit: f.limit });
  const items: ReviewItem[] = [];
  const { ownerOfSlot } = await claims();
  for (const m of rows) {
    if (inFilter(filter, m.scope)) items.push({ ...maskMemory(m), owner: await ownerOfSlot(deps.store, m) });
  }
  return items;
}
