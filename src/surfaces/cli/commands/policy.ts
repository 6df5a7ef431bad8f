/** `memledger policy show | check`: the effective write policy, and why a given write would land, wait or fail. */
import type { PolicyCheck, PolicyShow } from '../../../ledger/policy-check.ts';
import { MemoryError } from '../../../model/errors.ts';
import { formatGrant } from '../../../model/principal.ts';
import { defined, optString } from '../args.ts';
import { defineCommand } from '../command.ts';
import { clean, fields, table } from '../render.ts';

export const policyShow = defineCommand<PolicyShow>({
  name: 'policy show',
  summary: 'show the effective write policy and the file it comes from',
  usage: `memledger policy show
  The policy in force (defaults filled in): non-human principals with their roles and grants, the rules in
  the order they are tried, what happens to an agent's write to a claimed key, and the default. An invalid
  policy.json is refused with the place and the problem of each error.`,
  run: (ctx) => ctx.session().policyShow(),
  render(r) {
    const p = r.policy;
    const where = r.path === null ? '(given by the program that opened the ledger)' : clean(r.path);
    const principals = Object.entries(p.principals).map(([who, id]) => [
      who,
      id.roles.join(', '),
      id.grants.map(formatGrant).join(', '),
    ]);
    const rules = p.rules.map((rule, i) => [
      String(i + 1),
      rule.name,
      Object.entries(rule.when)
        .map(([k, v]) => `${k} ${[v].flat().join('|')}`)
        .join(', ') || '(always)',
      rule.action,
    ]);
    return [
      fields(
        [
          ['policy', `${where} (${r.source})`],
          [
            'ownership',
            `${p.ownership}: an agent's write to a key a person claimed is ${p.ownership === 'hold' ? 'held for review' : 'refused'}`,
          ],
          ['default', `${p.default} when no rule applies`],
        ],
        '',
      ),
      '',
      'principals:',
      principals.length === 0
        ? '  (none: only humans may act)'
        : table([{ header: 'principal' }, { header: 'roles' }, { header: 'grants', flex: true }], principals),
      '',
      'rules (the first that applies decides):',
      rules.length === 0
        ? '  (none)'
        : table(
            [
              { header: '#', right: true },
              { header: 'name' },
              { header: 'when', flex: true },
              { header: 'action' },
            ],
            rules,
          ),
      '',
    ].join('\n');
  },
});

export const policyCheck = defineCommand<PolicyCheck>({
  name: 'policy check',
  summary: 'explain what the gate would do with a write: which grant, claim and rule decide, and why',
  usage: `memledger policy check --scope S [--kind K] [--key K] [--as P]
  Explains a write by P (default: you; e.g. --as agent:claude-code) of kind K (default fact) to scope S,
  optionally to key K: the principal's grants, whether a person's claim holds the key, and each rule in
  order until one applies. Nothing is written.`,
  options: { scope: { type: 'string' }, kind: { type: 'string' }, key: { type: 'string' } },
  run(ctx, _args, values) {
    const scope = optString(values, 'scope');
    if (scope === undefined) {
      throw new MemoryError('invalid_input', 'policy check needs --scope S, e.g. --scope shared');
    }
    const input = defined({ scope, kind: optString(values, 'kind'), key: optString(values, 'key') });
    return ctx.session().policyCheck(input as { scope: string });
  },
  render(r) {
    const target = `${r.kind} in ${r.scope}${r.key === null ? '' : ` (key ${r.key})`}`;
    const verdict = { allow: 'LANDS', hold: 'IS HELD FOR REVIEW', deny: 'IS REFUSED' }[r.action];
    // Every step in full: an explanation cut to the terminal's width would hide the part that matters.
    const steps = r.steps.map((s) => `  ${s.step.padEnd(9)}  ${s.outcome.padEnd(8)}  ${clean(s.detail)}`);
    return [
      `a write by ${r.principal} of a ${target} ${verdict} (${r.rule})`,
      `  ${clean(r.reason)}`,
      '',
      'steps:',
      ...steps,
      '',
    ].join('\n');
  },
});
