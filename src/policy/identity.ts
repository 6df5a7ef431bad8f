/** Resolving principals: the local operator, and non-human principals whose roles and grants come from the policy. */
import { userInfo } from 'node:os';
import { MemoryError } from '../model/errors.ts';
import { type Principal, parsePrincipalRef, ROLES } from '../model/principal.ts';
import type { Policy } from './policy-file.ts';

/** The OS user at a terminal: a human operator with every role and every scope. */
export function localOperator(): Principal {
  let name = 'operator';
  try {
    name = userInfo().username.replace(/[^A-Za-z0-9._@+-]/g, '') || 'operator';
  } catch {
    // no passwd entry (some containers): keep the fallback name
  }
  return { kind: 'human', id: name, roles: [...ROLES], grants: [{ scope: '*', read: true, write: true }] };
}

/**
 * A principal named in configuration or by a program using the library (`agent:claude-code`). Agents and
 * services get their roles and grants from the policy file. A named human gets the operator's powers: that
 * is for in-process callers that already are trusted code; the CLI never passes a person's name here, it
 * accepts `human:NAME` only for the local user and otherwise needs that person's token (surfaces/cli/caller.ts).
 */
export function principalFromRef(ref: string, policy: Policy): Principal {
  const { kind, id } = parsePrincipalRef(ref);
  if (kind === 'human') {
    return { kind, id, roles: [...ROLES], grants: [{ scope: '*', read: true, write: true }] };
  }
  const identity = policy.principals[`${kind}:${id}`] ?? policy.principals[`${kind}:*`];
  if (identity === undefined) {
    throw new MemoryError(
      'permission',
      `${kind}:${id} is not known to the policy (add "${kind}:${id}" or "${kind}:*" under principals)`,
    );
  }
  return { kind, id, roles: [...identity.roles], grants: [...identity.grants] };
}
