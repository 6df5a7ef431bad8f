/**
 * get_context and search_memory's corrections, rendered for an agent: the library's context block as it is
 * (markdown framed as data, with its items for programs), and the latest reviewer corrections in words.
 */
import type { ContextResult, Correction, LedgerSession } from '../../index.ts';
import { oneLine } from './render.ts';

export interface ContextInput {
  task?: string;
  scopes?: string[];
  budget?: number;
}

export interface ContextBlock {
  text: string;
  data: Record<string, unknown>;
}

/** The library's context for the calling agent; the MCP session is the session whose shown items are suppressed. */
export async function buildContext(session: LedgerSession, input: ContextInput): Promise<ContextBlock> {
  const r: ContextResult = await session.context(input);
  return {
    text: r.markdown,
    data: {
      items: r.items.map((i) => ({
        id: i.memory.id,
        pool: i.pool,
        kind: i.memory.kind,
        scope: i.memory.scope,
        tokens: i.tokens,
        why: i.why,
      })),
      tokens: r.tokens,
      budget: r.budget,
      skipped: r.skipped,
      suppressed: r.suppressed,
      // The names this tool's result had before context assembly moved into the library.
      budget_tokens: r.budget,
      estimated_tokens: r.tokens,
    },
  };
}

/** The latest corrections of the caller's writes in the searched scopes, or nothing to add. */
export async function correctionsFor(
  session: LedgerSession,
  scopes: string[] | undefined,
): Promise<{ text: string; data: Record<string, unknown>[] }> {
  if (session.principal.kind === 'human') return { text: '', data: [] };
  const found = await session.corrections({ scopes, limit: 5 });
  if (found.length === 0) return { text: '', data: [] };
  const lines = [
    '',
    'Corrections a reviewer made to your earlier proposals (latest per key; do not repeat them):',
  ];
  for (const c of found) lines.push(`- ${describe(c)}`);
  return {
    text: lines.join('\n'),
    data: found.map((c) => ({
      id: c.id,
      scope: c.scope,
      key: c.key,
      kind: c.kind,
      action: c.action,
      proposal_id: c.proposalId,
      corrected_id: c.correctedId,
      corrected_body: c.corrected?.body ?? null,
      reason: c.reason,
      by: c.by,
      at: c.at,
    })),
  };
}

function describe(c: Correction): string {
  const slot = c.key === null ? `a ${c.kind} in ${c.scope}` : `key ${c.key} in ${c.scope}`;
  const when = `${c.by}, ${c.at.slice(0, 10)}`;
  if (c.action === 'rejected') {
    return `${slot}: rejected (${when}): ${oneLine(c.reason ?? 'no reason recorded')} [proposal ${c.proposalId}]`;
  }
  const now =
    c.corrected === null ? 'since replaced' : `now: ${oneLine(c.corrected.body)} [${c.corrected.id}]`;
  const note = c.reason === null ? '' : ` (note: ${oneLine(c.reason)})`;
  return `${slot}: edited (${when}); ${now}${note} [proposal ${c.proposalId}]`;
}
