/**
 * Summary chains: incremental summaries of one source (a scope's memories, one session or one subject in it).
 * Each summary is a memory of kind `summary` written through the one write path (I18), linked to the summary
 * before it and stating the inclusive cutoff it covers up to; the source memories stay. The next window starts
 * at the last live cutoff, never from the beginning; one live successor per summary and one live summary per
 * cutoff are unique indexes (migration 11), so two writers racing on one window cannot both land.
 */
import { assertNoSecrets } from '../../guard/limits.ts';
import {
  type CreateChainInput,
  createChainSchema,
  type SummaryAddInput,
  summaryAddSchema,
  type SummaryNextInput,
  summaryNextSchema,
} from '../../model/commitment.ts';
import { MemoryError } from '../../model/errors.ts';
import type { Memory, WriteResult } from '../../model/memory.ts';
import { principalLabel } from '../../model/principal.ts';
import { assertCan, assertRole, can, readFilter } from '../../policy/access.ts';
import type { SummaryChainRow, SummaryLinkRow } from '../../store/commitments-port.ts';
import type { StoreTx } from '../../store/port.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../parse.ts';
import { prepareWrite, writeInTx } from '../remember.ts';
import { hasSecret, maskProvenance } from '../visibility.ts';

/** How many source memories one summary may cover: past it, summarise in smaller windows. */
export const COVER_CAP = 2_000;

type Link = SummaryLinkRow & { state: Memory['state'] };

/** What is new in a chain since its last live cutoff, and the token naming that window. */
export interface SummaryWindow {
  chain: string;
  /** The summary this window follows (its `after` is that summary's cutoff), or null for the first. */
  previous: string | null;
  after: string | null;
  /** The recorded time of the last memory shown: pass it as `until` to cover exactly this window. */
  until: string | null;
  memories: Memory[];
  /** More source waits past `until`: summarise this window, then ask again. */
  more: boolean;
  token: string;
}

export interface SummaryAddResult extends WriteResult {
  chain: string;
  previous: string | null;
  after: string | null;
  cutoff: string;
  covered: number;
}

export interface ChainView {
  chain: SummaryChainRow;
  links: (Omit<Link, 'covers'> & { covered: number })[];
  /** The newest live summary's memory, when the caller may read it. */
  latest: Memory | null;
}

/** Defines a chain over a scope (optionally one session or subject in it). An owner needs the admin role. */
export async function createChain(deps: Deps, input: CreateChainInput): Promise<SummaryChainRow> {
  const f = parseInput(createChainSchema, input, 'summary chain');
  assertNoSecrets({ sessionId: f.sessionId, owner: f.owner });
  assertCan(deps.principal, 'write', f.scope);
  if (f.owner !== undefined) assertRole(deps.principal, 'admin', 'give a chain an owner');
  const row: SummaryChainRow = {
    name: f.name,
    scope: f.scope,
    sessionId: f.sessionId ?? null,
    subject: f.subject ?? null,
    owner: f.owner ?? null,
    createdBy: principalLabel(deps.principal),
    createdAt: deps.now(),
    sourceErasedAt: null,
  };
  await deps.store.transaction((tx) => tx.commitments.insertChain(row));
  return row;
}

/** The window after the chain's last live cutoff, at most `limit` memories, oldest first. */
export async function summaryNext(deps: Deps, input: SummaryNextInput): Promise<SummaryWindow> {
  const f = parseInput(summaryNextSchema, input, 'summary next');
  const chain = readable(deps, await deps.store.commitments.chain(f.chain), f.chain);
  const latest = latestLive(await deps.store.commitments.links(f.chain));
  const after = latest?.cutoff ?? null;
  const rows = await deps.store.commitments.source({ ...sourceOf(chain), after, limit: f.limit + 1 });
  let shown = rows.slice(0, f.limit);
  const more = rows.length > f.limit;
  if (more) {
    // A cutoff is a recorded time: a window must not end inside a run of equal times, or the next one (after
    // the cutoff) would skip the rest of the run.
    const edge = rows[f.limit]!.recordedAt;
    const trimmed = shown.filter((m) => m.recordedAt !== edge);
    if (trimmed.length > 0) shown = trimmed;
  }
  const until = shown.at(-1)?.recordedAt ?? null;
  for (const m of shown) deps.trace.targets.add(m.id);
  return {
    chain: f.chain,
    previous: latest?.memoryId ?? null,
    after,
    until,
    memories: shown.filter((m) => !hasSecret(m)).map(maskProvenance),
    more,
    token: windowToken(f.chain, latest?.memoryId ?? null, until),
  };
}

/**
 * Stores the next summary of a chain, covering (previous cutoff, until]: a `summary` memory through the write
 * path, then its link. With `token` (from `summaryNext`), the chain must not have moved since.
 */
export async function summaryAdd(
  deps: Deps,
  input: SummaryAddInput & { token?: string },
): Promise<SummaryAddResult> {
  const { token, ...rest } = input;
  const f = parseInput(summaryAddSchema, rest, 'summary');
  const chain = readable(deps, await deps.store.commitments.chain(f.chain), f.chain);
  if (f.until > deps.now()) throw new MemoryError('invalid_input', 'until is in the future');
  return deps.store.transaction(async (tx) => {
    const links = await tx.commitments.links(f.chain);
    await dropUnlanded(deps, tx, links);
    const latest = latestLive(links);
    const previous = latest?.memoryId ?? null;
    if (token !== undefined && token !== windowToken(f.chain, previous, tokenUntil(token))) {
      throw new MemoryError(
        'conflict',
        `chain ${f.chain} moved since that window was read; ask for the next one`,
        {
          details: { chain: f.chain },
        },
      );
    }
    const after = latest?.cutoff ?? null;
    if (after !== null && f.until < after) {
      throw new MemoryError('invalid_input', `until is before chain ${f.chain}'s last cutoff ${after}`);
    }
    const covered = await tx.commitments.source({
      ...sourceOf(chain),
      after,
      until: f.until,
      limit: COVER_CAP + 1,
    });
    if (covered.length > COVER_CAP) {
      throw new MemoryError(
        'invalid_input',
        `that window covers more than ${COVER_CAP} memories; summarise it in smaller windows (summaries next)`,
      );
    }
    const fields = prepareWrite(
      deps,
      {
        body: f.body,
        scope: chain.scope,
        kind: 'summary',
        subjects: f.subjects,
        value: { chain: f.chain, previous, after, cutoff: f.until, covered: covered.length },
      },
      'summary',
    );
    const result = await writeInTx(deps, tx, fields);
    const out = { ...result, chain: f.chain, previous, after, cutoff: f.until, covered: covered.length };
    if (result.state === 'rejected') return out;
    if (result.corroborated === true) {
      throw new MemoryError('conflict', `that summary says what ${result.id} says already`, {
        details: { winner: result.id },
      });
    }
    await tx.commitments.insertLink({
      memoryId: result.id,
      chain: f.chain,
      previous,
      after,
      cutoff: f.until,
      covers: covered.map((m) => m.id),
      createdAt: deps.now(),
      staleAt: null,
    });
    return out;
  });
}

/** A chain, its links oldest first (the ids each covers counted), and its newest live summary. */
export async function summaryChain(deps: Deps, name: string): Promise<ChainView> {
  const chain = readable(deps, await deps.store.commitments.chain(name), name);
  const links = await deps.store.commitments.links(name);
  const latestLink = latestLive(links);
  const latest = latestLink === null ? null : await deps.store.getMemory(latestLink.memoryId);
  if (latest !== null) deps.trace.targets.add(latest.id);
  return {
    chain,
    links: links.map(({ covers, ...l }) => ({ ...l, covered: covers.length })),
    latest: latest === null || hasSecret(latest) ? null : maskProvenance(latest),
  };
}

/** The newest link still standing: not stale, its memory landed or waiting for review. */
export function latestLive<L extends Link>(links: readonly L[]): L | null {
  const live = links.filter((l) => l.staleAt === null && (l.state === 'active' || l.state === 'held'));
  return live.at(-1) ?? null;
}

/** Links whose summary never landed (rejected, retracted, erased) stop counting, so their place can be taken. */
async function dropUnlanded(deps: Deps, tx: StoreTx, links: Link[]): Promise<void> {
  const gone = links.filter((l) => l.staleAt === null && l.state !== 'active' && l.state !== 'held');
  if (gone.length === 0) return;
  const at = deps.now();
  await tx.commitments.markStale(
    gone.map((l) => l.memoryId),
    at,
  );
  for (const l of gone) l.staleAt = at;
}

/** A chain the caller may read, else `not_found` exactly like one that does not exist (I4). */
function readable(deps: Deps, chain: SummaryChainRow | null, name: string): SummaryChainRow {
  readFilter(deps.principal);
  if (chain === null || !can(deps.principal, 'read', chain.scope)) {
    throw new MemoryError('not_found', `no summary chain ${name}`);
  }
  if (chain.sourceErasedAt !== null) {
    throw new MemoryError('conflict', `chain ${name}'s subject was erased; it has no source left`, {
      details: { chain: name },
    });
  }
  return chain;
}

const sourceOf = (c: SummaryChainRow) => ({ scope: c.scope, sessionId: c.sessionId, subject: c.subject });

/** Names a window: the chain, the summary it follows and where it ends. Not a secret: a check of staleness. */
function windowToken(chain: string, previous: string | null, until: string | null): string {
  return `sw1.${Buffer.from(JSON.stringify([chain, previous, until])).toString('base64url')}`;
}

function tokenUntil(token: string): string | null {
  try {
    const parts = JSON.parse(Buffer.from(token.slice(4), 'base64url').toString()) as unknown[];
    return typeof parts[2] === 'string' ? parts[2] : null;
  } catch {
    throw new MemoryError('invalid_input', 'not a window token from summary next');
  }
}
