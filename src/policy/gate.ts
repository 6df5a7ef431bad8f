/** The write gate (I6): allow, hold or deny each write before it lands, by ownership first and then the rules. */
import type { Kind, Memory } from '../model/memory.ts';
import { type Principal, principalLabel } from '../model/principal.ts';
import { scopeMatches } from '../model/scope.ts';
import type { Action, Policy, Rule } from './policy-file.ts';

export interface GateInput {
  principal: Principal;
  scope: string;
  kind: Kind;
  key: string | null;
  /** The memory this write would replace: the key's current holder or the explicit `supersedes` target. */
  replaces: Memory | null;
}

export interface GateDecision {
  action: Action;
  rule: string;
  reason: string;
  /** Set when the decision came from ownership: the human who owns the key. */
  owner?: string;
}

/** Who owns a memory's slot: the human who wrote or confirmed it, or nobody. */
export function ownerOf(memory: Memory): string | null {
  if (memory.provenance.principalKind === 'human') return memory.provenance.principal;
  if (memory.trust === 'confirmed') return memory.confirmedBy ?? 'a reviewer';
  return null;
}

export function decide(policy: Policy, input: GateInput): GateDecision {
  const { principal } = input;
  if (principal.kind !== 'human' && input.replaces !== null) {
    const owner = ownerOf(input.replaces);
    if (owner !== null) {
      const what = input.key === null ? `memory ${input.replaces.id}` : `key ${input.key}`;
      return {
        action: policy.ownership,
        rule: 'ownership',
        reason: `${what} is owned by ${owner}; a non-human write to it ${policy.ownership === 'hold' ? 'waits for review' : 'is denied'}`,
        owner,
      };
    }
  }
  const rule = policy.rules.find((r) => matches(r, input));
  if (rule === undefined) {
    return {
      action: policy.default,
      rule: 'default',
      reason: `no rule matched; the default is ${policy.default}`,
    };
  }
  return {
    action: rule.action,
    rule: rule.name,
    reason: rule.reason ?? `rule ${rule.name} says ${rule.action}`,
  };
}

function matches(rule: Rule, input: GateInput): boolean {
  const w = rule.when;
  if (w.principal !== undefined && !principalMatches(w.principal, principalLabel(input.principal)))
    return false;
  if (w.scope !== undefined && !scopeMatches(w.scope, input.scope, input.principal.id)) return false;
  if (w.kind !== undefined && !(Array.isArray(w.kind) ? w.kind.includes(input.kind) : w.kind === input.kind))
    return false;
  if (w.key !== undefined && (input.key === null || !globMatches(w.key, input.key))) return false;
  return true;
}

export function principalMatches(pattern: string, label: string): boolean {
  const [pk, pid] = pattern.split(':') as [string, string];
  const at = label.indexOf(':');
  const kind = label.slice(0, at);
  const id = label.slice(at + 1);
  return (pk === '*' || pk === kind) && (pid === '*' || pid === id);
}

/** `*` matches any run of characters; everything else is literal. */
export function globMatches(glob: string, text: string): boolean {
  const re = new RegExp(`^${glob.split('*').map(escapeRegex).join('.*')}$`);
  return re.test(text);
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
