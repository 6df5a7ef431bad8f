/** erasePreview: what `erase` would remove, found the same way erase finds it, without changing anything (I9). */
import type { Memory } from '../model/memory.ts';
import { assertHumanWithRole, can } from '../policy/access.ts';
import type { Deps } from './deps.ts';
import { type EraseInput, eraseInputSchema, type SelectorKind, selected, selectorKind } from './erase.ts';
import { parseInput } from './parse.ts';
import { summariesReached } from './plans/summary-erasure.ts';
import { maskMemory } from './visibility.ts';
import type { WorkspaceErasureMatch } from '../workspace/erase-rows.ts';

export interface ErasePreview {
  /** The subject asked about, when the erasure is by subject. */
  subject?: string;
  selector: SelectorKind;
  /** Every version erase would blank, oldest first; versions outside the read grants are counted, not shown. */
  memories: Memory[];
  /** How many versions erase would blank, shown or not. */
  total: number;
  /** Versions in scopes this principal may not read. */
  hidden: number;
  /** Scopes holding a version this principal may not write: erase would be refused until someone who may does it. */
  blockedScopes: string[];
  /** Versions already erased by an earlier erasure (nothing left to remove). */
  alreadyErased: number;
  /** By subject: the workspace rows erase would delete, by workspace and table (counts, never rows). */
  workspaceRows?: WorkspaceErasureMatch[];
}

/** Collects exactly the set erase collects, inside a transaction so it is one consistent snapshot; writes nothing. */
export async function erasePreview(deps: Deps, input: EraseInput): Promise<ErasePreview> {
  const selector = parseInput(eraseInputSchema, input, 'erasure preview');
  assertHumanWithRole(deps.principal, 'admin', 'preview an erasure');
  const versions = await deps.store.transaction(async (tx) => {
    const found = await selected(tx, selector);
    // The summaries erase takes with them (plans/summary-erasure.ts), found the same way.
    const live = found.filter((m) => m.state !== 'erased');
    return [...found, ...(await summariesReached(tx, live, selector.subject)).erase];
  });
  versions.sort((a, b) => (a.recordedAt < b.recordedAt ? -1 : a.recordedAt > b.recordedAt ? 1 : 0));
  const live = versions.filter((v) => v.state !== 'erased');
  const shown = live.filter((v) => can(deps.principal, 'read', v.scope));
  for (const v of shown) deps.trace.targets.add(v.id);
  return {
    ...(selector.subject === undefined ? {} : { subject: selector.subject }),
    selector: selectorKind(selector),
    memories: shown.map(maskMemory),
    total: live.length,
    hidden: live.length - shown.length,
    blockedScopes: [
      ...new Set(live.filter((v) => !can(deps.principal, 'write', v.scope)).map((v) => v.scope)),
    ],
    alreadyErased: versions.length - live.length,
    ...(selector.subject === undefined || deps.workspaces === undefined
      ? {}
      : {
          workspaceRows: await (await import('../workspace/erase-rows.ts')).findInWorkspaces(
            deps.workspaces,
            selector.subject,
          ),
        }),
  };
}
