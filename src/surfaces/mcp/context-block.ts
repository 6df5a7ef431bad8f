/**
 * get_context and search_memory's corrections, as structured results: the library's context block as it is
 * (markdown framed as data, with the ids it shows), and the latest reviewer corrections of the caller's writes.
 */
import type { Correction, LedgerSession } from '../../index.ts';
import type { CorrectionOutput } from './output-schemas.ts';
import { oneLine } from './render.ts';

export interface ContextInput {
  task?: string;
  scopes: string[];
  budget?: number;
  referenceTime?: string;
}

/** The library's context for the calling agent; the MCP session is the session whose shown items are suppressed. */
export async function buildContext(session: LedgerSession, input: ContextInput) {
  const r = await session.context(input);
  return {
    markdown: r.markdown,
    // The block already shows each item's kind, scope and why; the ids are for a program that follows up.
    items: r.items.map((i) => ({ id: i.memory.id, pool: i.pool })),
    tokens: r.tokens,
    budget: r.budget,
    skipped: r.skipped,
    suppressed: r.suppressed,
    scopes: input.scopes,
  };
}

/** The latest corrections of the caller's writes in the searched scopes; a person's search has none. */
export async function correctionsFor(session: LedgerSession, scopes: string[]): Promise<CorrectionOutput[]> {
  if (session.principal.kind === 'human') return [];
  const found = await session.corrections({ scopes, limit: 5 });
  return found.map(correctionView);
}

/** The corrections a search returned with `withCorrections`, as correctionsFor shows them; a person's search has none. */
export function correctionsOf(session: LedgerSession, found: Correction[] | undefined): CorrectionOutput[] {
  if (session.principal.kind === 'human' || found === undefined) return [];
  return found.map(correctionView);
}

export const CORRECTIONS_NEXT =
  'Reviewers corrected earlier proposals of yours (corrections, latest per key): follow them, and do not save again what they rejected or replaced.';

function correctionView(c: Correction): CorrectionOutput {
  const out: CorrectionOutput = {
    action: c.action,
    scope: c.scope,
    kind: c.kind,
    proposal_id: c.proposalId,
    by: c.by,
    at: c.at,
  };
  if (c.key !== null) out.key = c.key;
  if (c.correctedId !== null) out.corrected_id = c.correctedId;
  // Only while the edited version is current (I3): a replaced one is no longer what the reviewer says now.
  if (c.corrected !== null) out.corrected_body = oneLine(c.corrected.body);
  if (c.reason !== null) out.reason = oneLine(c.reason);
  return out;
}
