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
  /**
   * The claim on the key, as the store holds it: a human's (the key is owned) or null (never claimed, or
   * released: the rules decide). Left undefined by a caller that did not look, and for a keyless write; then
   * ownership is derived from the replaced memory (`ownerOf`).
   */
  claim?: { owner: string } | null;
}

export interface GateDecision {
  action: Action;
  rule: string;
  reason: string;
  /** Set when the decision came from ownership: the human who owns the key. */
  owner?: string;
}

/**
 * Who owns a keyless memory: the human who wrote or confirmed it, or nobody. Keys are owned by claims.
 * `confirmedBy` counts as well as the trust: a doubt lowers trust, and must not hand a person's memory to agents.
 */
export function ownerOf(memory: Memory): string | null {
  if (memory.provenance.principalKind === 'human') return memory.provenance.principal;
  if (memory.trust === 'confirmed' || memory.confirmedBy !== null) return memory.confirmedBy ?? 'a reviewer';
  return null;
}

/** The owner the ownership step sees: the key's claim when it was looked up, else derived from what is replaced. */
export function ownerFor(input: Pick<GateInput, 'key' | 'replaces' | 'claim'>): string | null {
  if (input.claim !== undefined && input.key !== null) return input.claim?.owner ?? null;
  return input.replaces === null ? null : ownerOf(input.replaces);
}

export function decide(policy: Policy, input: GateInput): GateDecision {
  const { principal } = input;
  if (principal.kind !== 'human') {
    const owner = ownerFor(input);
    if (owner !== null) {
      const what = input.key === null ? `memory ${input.replaces?.id ?? '(none)'}` : `key ${input.key}`;
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

const matches = (rule: Rule, input: GateInput): boolean => mismatch(rule, input) === null;

/** Why a rule does not apply to a write, in words (the first condition that fails), or null when it applies. */
export function mismatch(rule: Rule, input: Omit<GateInput, 'replaces'>): string | null {
  const w = rule.when;
  const label = principalLabel(input.principal);
  if (w.principal !== undefined && !principalMatches(w.principal, label))
    return `principal ${w.principal} does not match ${label}`;
  if (w.scope !== undefined && !scopeMatches(w.scope, input.scope, input.principal.id))
    return `scope ${w.scope} does not match ${input.scope}`;
  if (w.kind !== undefined && !(Array.isArray(w.kind) ? w.kind.includes(input.kind) : w.kind === input.kind))
    return `kind ${[w.kind].flat().join('|')} does not match ${input.kind}`;
  // Keys are case-insensitive slots, so a rule's key pattern is too.
  if (
    w.key !== undefined &&
    (input.key === null || !globMatches(w.key.toLowerCase(), input.key.toLowerCase()))
  )
    return input.key === null
      ? `key ${w.key} needs a key; the write has none`
      : `key ${w.key} does not match ${input.key}`;
  return null;
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
