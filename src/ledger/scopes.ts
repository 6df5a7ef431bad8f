/** Turning a principal's read filter into the store's scope set: exact scopes and `kind:` prefixes. */
import { readFilter } from '../policy/access.ts';
import type { Principal } from '../model/principal.ts';
import type { ScopeSet } from '../store/port.ts';

export function readableScopes(principal: Principal, requested?: readonly string[]): ScopeSet {
  const filter = readFilter(principal, requested);
  if (filter.all) return { all: true };
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const p of filter.patterns) {
    if (p === '*') return { all: true };
    if (p.endsWith(':*')) prefixes.push(p.slice(0, -1));
    else exact.push(p);
  }
  return { all: false, exact, prefixes };
}

/** Where a write lands when the caller names no scope: its own (an agent's, a person's), a service's in shared. */
export function ownScope(p: Principal): string {
  if (p.kind === 'agent') return `agent:${p.id}`;
  if (p.kind === 'human') return `user:${p.id}`;
  return 'shared';
}
