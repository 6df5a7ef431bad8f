/** Principals (who is calling) and grants (which scopes they may read or write). */
import { z } from 'zod';
import { MemoryError } from './errors.ts';
import { SCOPE_GLOB_PATTERN } from './scope.ts';

export const PRINCIPAL_KINDS = ['human', 'agent', 'service'] as const;
export type PrincipalKind = (typeof PRINCIPAL_KINDS)[number];
/**
 * `auditor` reads the audit log and nothing else: it implies no reader role and carries no grant, so it reads no
 * memory unless given those too. `admin` implies every other role, except that only a human admin reads the audit.
 */
export const ROLES = ['reader', 'writer', 'reviewer', 'admin', 'auditor'] as const;
export type Role = (typeof ROLES)[number];

export interface Grant {
  /** A scope pattern: `user:alice`, `project:*`, `agent:{self}`, `*`. */
  scope: string;
  read: boolean;
  write: boolean;
}

export interface Principal {
  kind: PrincipalKind;
  /** Unique within its kind: `alice`, `claude-code`. Rendered as `kind:id`. */
  id: string;
  roles: readonly Role[];
  grants: readonly Grant[];
}

export const PRINCIPAL_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/;

export const principalRefSchema = z
  .string()
  .regex(
    /^(human|agent|service):[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$/,
    'principal must be human:<id>, agent:<id> or service:<id>',
  );

export const principalLabel = (p: Pick<Principal, 'kind' | 'id'>): string => `${p.kind}:${p.id}`;

/** Parses `human:alice` into its parts. */
export function parsePrincipalRef(ref: string): { kind: PrincipalKind; id: string } {
  const parsed = principalRefSchema.safeParse(ref);
  if (!parsed.success) {
    throw new MemoryError(
      'invalid_input',
      `principal must look like agent:NAME, human:NAME or service:NAME, got ${JSON.stringify(ref.slice(0, 60))}`,
    );
  }
  const at = ref.indexOf(':');
  return { kind: ref.slice(0, at) as PrincipalKind, id: ref.slice(at + 1) };
}

/** Parses the grant shorthand `user:alice:rw`, `shared:r`, `project:*:w`. */
export function parseGrant(text: string): Grant {
  const at = text.lastIndexOf(':');
  const scope = text.slice(0, at);
  const mode = text.slice(at + 1);
  if (at <= 0 || !/^(r|w|rw)$/.test(mode) || !SCOPE_GLOB_PATTERN.test(scope)) {
    throw new MemoryError(
      'invalid_input',
      `grant must look like SCOPE:r, SCOPE:w or SCOPE:rw (e.g. user:alice:rw, project:*:r), got ${JSON.stringify(text.slice(0, 80))}`,
    );
  }
  return { scope, read: mode.includes('r'), write: mode.includes('w') };
}

export const formatGrant = (g: Grant): string => `${g.scope}:${g.read ? 'r' : ''}${g.write ? 'w' : ''}`;

export const grantSchema = z.string().transform((v, ctx) => {
  try {
    return parseGrant(v);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
    return z.NEVER;
  }
});
