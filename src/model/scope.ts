/** Scopes (`shared`, `user:<id>`, `agent:<id>`, `project:<id>`) and the patterns grants use to name them. */
import { z } from 'zod';

export const SCOPE_KINDS = ['shared', 'user', 'agent', 'project'] as const;
const SCOPE_ID = '[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}';
export const SCOPE_PATTERN = new RegExp(`^(shared|(user|agent|project):${SCOPE_ID})$`);
/** A grant's scope pattern: a scope, `kind:*`, `*`, or `agent:{self}` (resolved against the principal). */
export const SCOPE_GLOB_PATTERN = new RegExp(
  `^(\\*|shared|(user|agent|project):(\\*|\\{self\\}|${SCOPE_ID}))$`,
);

export const scopeSchema = z
  .string()
  .max(140)
  .regex(
    SCOPE_PATTERN,
    'scope must be shared, user:<id>, agent:<id> or project:<id> (id: letters, digits, . _ @ + -)',
  );

export type Scope = string;

/** Does a concrete scope fall under a pattern? `self` replaces `{self}`. */
export function scopeMatches(pattern: string, scope: string, self?: string): boolean {
  if (pattern === '*') return true;
  const resolved = self === undefined ? pattern : pattern.replace('{self}', self);
  if (resolved.endsWith(':*')) return scope.startsWith(resolved.slice(0, -1));
  return resolved === scope;
}
