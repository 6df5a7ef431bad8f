/** whoami: who a session acts as and what it may do, so a surface can offer exactly those actions and no more. */
import { formatGrant, type PrincipalKind, principalLabel, type Role } from '../model/principal.ts';
import { hasRole, mayReadAudit } from '../policy/access.ts';
import type { Deps } from './deps.ts';

export interface WhoAmI {
  principal: string;
  kind: PrincipalKind;
  id: string;
  roles: Role[];
  /** Grants in their shorthand (`shared:rw`). */
  grants: string[];
  /** What the ledger will allow, by the same role rules it enforces (I7: verdicts and erasure need a human). */
  may: { read: boolean; write: boolean; review: boolean; erase: boolean; audit: boolean };
}

export async function whoami(deps: Deps): Promise<WhoAmI> {
  const p = deps.principal;
  const human = p.kind === 'human';
  return {
    principal: principalLabel(p),
    kind: p.kind,
    id: p.id,
    roles: [...p.roles],
    grants: p.grants.map(formatGrant),
    may: {
      read: hasRole(p, 'reader'),
      write: hasRole(p, 'writer'),
      review: human && hasRole(p, 'reviewer'),
      erase: human && hasRole(p, 'admin'),
      audit: mayReadAudit(p),
    },
  };
}
