/**
 * Grants and roles, checked in one place (I4, I7). Every read and write in the ledger asks here;
 * nothing else decides whether a principal may see or touch a scope.
 */
import { MemoryError } from '../model/errors.ts';
import { type Principal, type Role, principalLabel } from '../model/principal.ts';
import { scopeMatches } from '../model/scope.ts';

export type Access = 'read' | 'write';

export function can(principal: Principal, access: Access, scope: string): boolean {
  if (
    !principal.roles.includes(access === 'read' ? 'reader' : 'writer') &&
    !principal.roles.includes('admin')
  ) {
    return false;
  }
  return principal.grants.some(
    (g) => (access === 'read' ? g.read : g.write) && scopeMatches(g.scope, scope, principal.id),
  );
}

export function assertCan(principal: Principal, access: Access, scope: string): void {
  if (!can(principal, access, scope)) {
    throw new MemoryError('permission', `${principalLabel(principal)} may not ${access} scope ${scope}`, {
      details: { scope, access },
    });
  }
}

/** A role check. `admin` implies every role (the audit asks `mayReadAudit`, which holds agents' admin back). */
export function hasRole(principal: Principal, role: Role): boolean {
  return principal.roles.includes(role) || principal.roles.includes('admin');
}

/** Verdicts, claims and erasure: a human with the role, never an agent or a service (I7). */
export function assertHumanWithRole(principal: Principal, role: Role, action: string): void {
  if (principal.kind !== 'human') {
    throw new MemoryError(
      'permission',
      `only a human may ${action}; ${principalLabel(principal)} is ${principal.kind === 'agent' ? 'an agent' : 'a service'}`,
    );
  }
  if (!hasRole(principal, role)) {
    throw new MemoryError('permission', `${principalLabel(principal)} needs the ${role} role to ${action}`);
  }
}

export function assertRole(principal: Principal, role: Role, action: string): void {
  if (!hasRole(principal, role)) {
    throw new MemoryError('permission', `${principalLabel(principal)} needs the ${role} role to ${action}`);
  }
}

/**
 * Who reads the audit log (I8): a human with the admin role, or any principal with the auditor role. An agent's
 * or a service's `admin` does not: the audit records what agents did, and is read by people (or by a credential
 * made for exactly that). The auditor role grants nothing else, so it reads no memory by itself.
 */
export function mayReadAudit(principal: Principal): boolean {
  return (
    principal.roles.includes('auditor') || (principal.kind === 'human' && principal.roles.includes('admin'))
  );
}

export function assertAuditReader(principal: Principal): void {
  if (mayReadAudit(principal)) return;
  const label = principalLabel(principal);
  throw new MemoryError(
    'permission',
    principal.kind !== 'human' && principal.roles.includes('admin')
      ? `only a human admin or the auditor role may read the audit log; ${label} is ${principal.kind === 'agent' ? 'an agent' : 'a service'}`
      : `${label} needs the auditor role (or to be a human admin) to read the audit log`,
  );
}

/** Which scopes a read may touch: every scope, or the listed patterns. Requested scopes outside the grants are refused. */
export type ScopeFilter = { all: true } | { all: false; patterns: string[] };

export function readFilter(principal: Principal, requested?: readonly string[]): ScopeFilter {
  if (!hasRole(principal, 'reader')) {
    throw new MemoryError('permission', `${principalLabel(principal)} needs the reader role to read`);
  }
  if (requested !== undefined && requested.length > 0) {
    for (const scope of requested) assertCan(principal, 'read', scope);
    return { all: false, patterns: [...new Set(requested)] };
  }
  const readable = principal.grants.filter((g) => g.read).map((g) => g.scope.replace('{self}', principal.id));
  if (readable.includes('*')) return { all: true };
  return { all: false, patterns: [...new Set(readable)] };
}

/** Does a scope pass a filter? Used on every row a read returns, as the last word after any index narrowing. */
export function inFilter(filter: ScopeFilter, scope: string): boolean {
  return filter.all || filter.patterns.some((p) => scopeMatches(p, scope));
}
