/**
 * Policy management: the effective policy and where it came from, and an explanation of what the gate would
 * do with one write (I6): which principal entry, which grant, whether a claim holds the key, and which rule
 * decides. The decision itself is the gate's own `decide()`, so the explanation cannot drift from the gate.
 */
import { z } from 'zod';
import { type Kind, keySchema, kindSchema, type Memory } from '../model/memory.ts';
import { formatGrant, type Principal, principalLabel, principalRefSchema } from '../model/principal.ts';
import { scopeMatches, scopeSchema } from '../model/scope.ts';
import { can, hasRole, assertRole } from '../policy/access.ts';
import { decide, mismatch } from '../policy/gate.ts';
import { principalFromRef } from '../policy/identity.ts';
import type { Action, Policy } from '../policy/policy-file.ts';
import type { Deps } from './deps.ts';
import { parseInput } from './parse.ts';
import { mayName, withoutOwner } from './visibility.ts';

/** Where the ledger's policy came from: the home's file, the built-in default, or the opener's code. */
export interface PolicyOrigin {
  path: string | null;
  source: 'file' | 'default' | 'given';
}

export interface PolicyShow extends PolicyOrigin {
  /** The effective policy, defaults applied. */
  policy: Policy;
}

export const policyCheckInputSchema = z
  .object({
    /** Whose write to explain; the caller's own by default. Another principal's needs the reviewer role. */
    principal: principalRefSchema.optional(),
    scope: scopeSchema,
    kind: kindSchema.default('fact'),
    key: keySchema.optional(),
  })
  .strict();
export type PolicyCheckInput = z.input<typeof policyCheckInputSchema>;

export interface PolicyStep {
  step: 'principal' | 'grants' | 'ownership' | 'rule' | 'default';
  /** `ok` passed on, `skip` did not apply, `no match` a rule that does not apply; else the step decided. */
  outcome: 'ok' | 'skip' | 'no match' | Action;
  detail: string;
}

export interface PolicyCheck {
  principal: string;
  scope: string;
  kind: Kind;
  key: string | null;
  /** What a write like this would do now: land, wait for review, or be refused. */
  action: Action;
  /** The rule that decided: a rule's name, `ownership`, `default`, or `grants` when the write is not allowed at all. */
  rule: string;
  reason: string;
  /** The human whose claim holds the key, when one does. */
  owner: string | null;
  steps: PolicyStep[];
}

export function policyShow(origin: PolicyOrigin, policy: Policy): PolicyShow {
  return { ...origin, policy };
}

/**
 * @example await session.policyCheck({ principal: 'agent:claude-code', scope: 'shared', kind: 'fact', key: 'acme.plan' })
 * // → { action: 'hold', rule: 'ownership', owner: 'human:ann', steps: [...] }
 */
export async function policyCheck(deps: Deps, input: PolicyCheckInput): Promise<PolicyCheck> {
  const f = parseInput(policyCheckInputSchema, input, 'policy check');
  const caller = principalLabel(deps.principal);
  const self = f.principal === undefined || f.principal === caller;
  if (!self) assertRole(deps.principal, 'reviewer', "explain another principal's writes");
  const subject = self ? deps.principal : principalFromRef(f.principal!, deps.policy);
  const label = principalLabel(subject);
  const key = f.key ?? null;
  const base = { principal: label, scope: f.scope, kind: f.kind, key };
  const steps: PolicyStep[] = [principalStep(deps.policy, subject, self)];

  const refused = grantsStep(subject, f.scope, steps);
  if (refused !== null) {
    return { ...base, action: 'deny', rule: 'grants', reason: refused, owner: null, steps };
  }

  const slot = await lookUpSlot(deps, subject, self, f.scope, key, steps);
  const decided = decide(deps.policy, {
    principal: subject,
    scope: f.scope,
    kind: f.kind,
    key,
    replaces: slot.holder,
    claim: slot.claim,
  });
  // Checking its own write blind (a write-only grant), the caller hears what the write would do, never whose.
  const decision = mayName(deps.principal, f.scope) ? decided : withoutOwner(decided);
  if (decision.rule !== 'ownership') ruleSteps(deps.policy, { ...base, principal: subject }, steps);
  return {
    ...base,
    action: decision.action,
    rule: decision.rule,
    reason: decision.reason,
    owner: decision.owner ?? null,
    steps,
  };
}

function principalStep(policy: Policy, p: Principal, self: boolean): PolicyStep {
  const label = principalLabel(p);
  const what = `roles ${p.roles.join(', ') || '(none)'}; grants ${p.grants.map(formatGrant).join(', ') || '(none)'}`;
  if (self)
    return {
      step: 'principal',
      outcome: 'ok',
      detail: `${label} (the caller, from its credential): ${what}`,
    };
  if (p.kind === 'human') {
    return {
      step: 'principal',
      outcome: 'ok',
      detail: `${label}: a human named here is taken with every role and scope; a token may give it fewer. ${what}`,
    };
  }
  const entry = policy.principals[label] === undefined ? `${p.kind}:*` : label;
  return {
    step: 'principal',
    outcome: 'ok',
    detail: `${label} from the policy's principals entry ${entry}: ${what}`,
  };
}

/** The grant check every write passes first (I4). Returns the refusal, or null and notes the grant that allows. */
function grantsStep(p: Principal, scope: string, steps: PolicyStep[]): string | null {
  const label = principalLabel(p);
  if (!hasRole(p, 'writer')) {
    const reason = `${label} lacks the writer role, so any write is refused`;
    steps.push({ step: 'grants', outcome: 'deny', detail: reason });
    return reason;
  }
  const grant = p.grants.find((g) => g.write && scopeMatches(g.scope, scope, p.id));
  if (grant === undefined || !can(p, 'write', scope)) {
    const reason = `no grant of ${label} allows writing ${scope}, so the write is refused`;
    steps.push({ step: 'grants', outcome: 'deny', detail: reason });
    return reason;
  }
  steps.push({
    step: 'grants',
    outcome: 'ok',
    detail: `grant ${formatGrant(grant)} allows writing ${scope}`,
  });
  return null;
}

/**
 * The key's current holder and claim, for the ownership step. Naming them needs a read grant on the scope:
 * whose key it is, and which memory holds it, is not for a write-only grant to learn (I4). Checking its own
 * write blind, the caller still gets the decision its write would get (it could learn that by writing), with
 * the holder and the owner left out; explaining another principal's write without a read grant skips the step.
 */
async function lookUpSlot(
  deps: Deps,
  subject: Principal,
  self: boolean,
  scope: string,
  key: string | null,
  steps: PolicyStep[],
): Promise<{ holder: Memory | null; claim: { owner: string } | null | undefined }> {
  const none = { holder: null, claim: undefined };
  if (subject.kind === 'human') {
    steps.push({ step: 'ownership', outcome: 'skip', detail: 'a human write is never held by ownership' });
    return none;
  }
  if (key === null) {
    steps.push({
      step: 'ownership',
      outcome: 'skip',
      detail: 'no key: ownership applies to keys (and to superseding a memory a human wrote or confirmed)',
    });
    return none;
  }
  const named = mayName(deps.principal, scope);
  if (!named && !self) {
    steps.push({ step: 'ownership', outcome: 'skip', detail: `not shown: the caller may not read ${scope}` });
    return none;
  }
  const [holder] = await deps.store.list({
    scopes: { all: false, exact: [scope], prefixes: [] },
    key,
    limit: 1,
  });
  const claim = await deps.store.claimFor(scope, key);
  if (!named) {
    steps.push({
      step: 'ownership',
      outcome: claim === null ? 'ok' : deps.policy.ownership,
      detail: `key ${key} in ${scope}: its claim and current value are not shown, the caller may not read ${scope}`,
    });
    return { holder: holder ?? null, claim };
  }
  const held = holder === undefined ? 'it has no current value' : `its current value is ${holder.id}`;
  if (claim === null) {
    steps.push({
      step: 'ownership',
      outcome: 'ok',
      detail: `key ${key} in ${scope} is not claimed (${held}); the rules decide`,
    });
  } else {
    steps.push({
      step: 'ownership',
      outcome: deps.policy.ownership,
      detail: `key ${key} in ${scope} is claimed by ${claim.owner} since ${claim.since} (${held}); the policy's ownership setting is ${deps.policy.ownership}`,
    });
  }
  return { holder: holder ?? null, claim };
}

function ruleSteps(
  policy: Policy,
  input: { principal: Principal; scope: string; kind: Kind; key: string | null },
  steps: PolicyStep[],
): void {
  for (const [i, rule] of policy.rules.entries()) {
    const why = mismatch(rule, input);
    if (why === null) {
      steps.push({
        step: 'rule',
        outcome: rule.action,
        detail: `rule ${i + 1} "${rule.name}" applies and says ${rule.action}${rule.reason === undefined ? '' : `: ${rule.reason}`}`,
      });
      return;
    }
    steps.push({ step: 'rule', outcome: 'no match', detail: `rule ${i + 1} "${rule.name}": ${why}` });
  }
  steps.push({
    step: 'default',
    outcome: policy.default,
    detail: `no rule applies; the default is ${policy.default}`,
  });
}
