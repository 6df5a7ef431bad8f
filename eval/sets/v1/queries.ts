/**
 * Queries over the generated part of the set: exact lookups, knowledge updates, as-of and valid-at questions,
 * and scoped questions whose answer differs per scope. Phrasings are hand-written per field; the entities
 * they are asked about are drawn with the set's seeded random source.
 */
import type { AgentFacts } from './agents.ts';
import { at, dateOf, type SetBuilder } from './builder.ts';
import type { CustomerFacts } from './customers.ts';
import { PEOPLE } from './team.ts';
import { PROJECTS } from './projects.ts';
import type { WorkFacts } from './work.ts';

interface Facts {
  customers: CustomerFacts[];
  work: WorkFacts;
  agents: AgentFacts;
}

/** Field → how someone asks for it by name. `{n}` is the customer's name. */
const CUSTOMER_ASKS: Record<string, string[]> = {
  sso: ['{n} SSO provider', 'does {n} use SCIM provisioning'],
  region: ['{n} data residency region', 'where is the {n} tenant hosted'],
  support: ['{n} support tier and response target'],
  billing: ['how does {n} pay their invoices'],
  renewal: ['{n} contract renewal date', 'who owns the {n} renewal'],
  integration: ['{n} monthly event volume', 'how does {n} send us events'],
  comms: ['how does our contact at {n} like to communicate'],
  profile: ['what does {n} do and where are they based'],
};

/** Attribute → a question asked inside a project without naming it (the scope says which project). */
const PROJECT_ASKS: Record<string, string> = {
  tests: 'which test framework runs the tests here',
  packages: 'which package manager does this repository use',
  branches: 'how should I name a new git branch',
  ci: 'where does CI run for this repository',
  deploy: 'how does this get deployed to production',
  database: 'what database does this service store data in',
  logging: 'which logging library should I use',
  local: 'how do I run it locally',
  release: 'when do releases happen',
  owners: 'who owns this repository',
  lint: 'which lint tools check the code here',
  commits: 'commit message format',
  oncall: 'who is on call when this breaks',
  flags: 'how are feature flags handled',
  coverage: 'minimum test coverage required',
  migrations: 'how to change the schema safely with migrations',
  runtime: 'what language is it written in and what does it run on',
  errors: 'where are errors reported',
};

/** Attribute → how an agent asks about the person it is working for. */
const PERSON_ASKS: Record<string, string> = {
  editor: 'which editor and setup does the user prefer',
  review: 'what does the user expect in a code review',
  merge: 'preferred merge strategy for pull requests',
  channel: 'which channel should I use to reach the user',
  timezone: 'timezone of the user',
  meetings: 'meeting preferences',
};

export function generatedQueries(b: SetBuilder, facts: Facts): void {
  keyword(b, facts);
  updates(b, facts);
  temporal(b, facts);
  scoped(b, facts);
}

function keyword(b: SetBuilder, { customers, work }: Facts): void {
  const r = b.rng;
  r.sample(customers, 28).forEach((cf, i) => {
    const field = Object.keys(CUSTOMER_ASKS)[i % Object.keys(CUSTOMER_ASKS).length]!;
    const text = r.pick(CUSTOMER_ASKS[field]!).replace('{n}', cf.c.name);
    b.query({ id: `kw-cust-${i + 1}`, category: 'keyword', text, expect: [cf.labels[field]!] });
  });
  r.sample(work.incidents, 8).forEach((inc, i) => {
    b.query({
      id: `kw-inc-${i + 1}`,
      category: 'keyword',
      text: inc.label.toUpperCase(),
      expect: [inc.label],
    });
  });
  const tickets = b.memories.filter((m) => m.id.startsWith('ticket-'));
  r.sample(tickets, 4).forEach((t, i) => {
    b.query({
      id: `kw-ticket-${i + 1}`,
      category: 'keyword',
      text: `ticket #${t.id.slice(7)}`,
      expect: [t.id],
    });
  });
  r.sample(PEOPLE, 8).forEach((p, i) => {
    const attr = r.pick(['editor', 'merge', 'review', 'channel'] as const);
    const label = `user-${p.id}-${attr}`;
    b.query({
      id: `kw-person-${i + 1}`,
      category: 'keyword',
      text: `${p.name.split(' ')[0]} ${attr === 'channel' ? 'contact channel' : attr}`,
      expect: [b.has(`${label}-2`) ? `${label}-2` : label],
    });
  });
}

function updates(b: SetBuilder, { customers, work }: Facts): void {
  const r = b.rng;
  const changed = customers.filter((c) => c.plans.length > 1);
  changed.forEach((cf, i) => {
    const text = r.pick(['which plan is {n} on', '{n} current plan and seats', 'what plan does {n} pay for']);
    b.query({
      id: `upd-plan-${i + 1}`,
      category: 'knowledge-update',
      text: text.replace('{n}', cf.c.name),
      expect: [cf.plans.at(-1)!.label],
      mustNot: [...cf.plans.slice(0, -1).map((p) => p.label), ...cf.wrongProposals],
    });
  });
  customers
    .filter((c) => c.contacts.length > 1)
    .forEach((cf, i) => {
      b.query({
        id: `upd-contact-${i + 1}`,
        category: 'knowledge-update',
        text: `who is our main contact at ${cf.c.name}`,
        expect: [cf.contacts.at(-1)!.label],
        mustNot: cf.contacts.slice(0, -1).map((c) => c.label),
      });
    });
  for (const p of PROJECTS) {
    for (const attr of Object.keys(p.changes ?? {})) {
      b.query({
        id: `upd-proj-${p.id}-${attr}`,
        category: 'knowledge-update',
        text: `${p.id} ${PROJECT_ASKS[attr]}`,
        expect: [`proj-${p.id}-${attr}-2`],
        mustNot: [`proj-${p.id}-${attr}`],
      });
    }
  }
  for (const p of PEOPLE) {
    for (const attr of Object.keys(p.changes ?? {})) {
      b.query({
        id: `upd-person-${p.id}-${attr}`,
        category: 'knowledge-update',
        text: `${p.name.split(' ')[0]} ${PERSON_ASKS[attr] ?? attr}`.replace(/the user/g, 'they'),
        expect: [`user-${p.id}-${attr}-2`],
        mustNot: [`user-${p.id}-${attr}`],
      });
    }
  }
  work.promises
    .filter((p) => p.delivered !== undefined)
    .slice(0, 8)
    .forEach((p, i) => {
      const cf = customers.find((c) => c.c.slug === p.customer)!;
      b.query({
        id: `upd-promise-${i + 1}`,
        category: 'knowledge-update',
        text: `status of what we promised ${cf.c.name}`,
        expect: [p.delivered!],
        mustNot: [p.open],
      });
    });
  const HAND: [string, string, string[]][] = [
    ['what time is the daily standup', 'rev-standup-2', ['rev-standup-1']],
    ['staging environment URL', 'rev-staging-url-2', ['rev-staging-url-1']],
    ['which error tracking tool do services report to', 'rev-error-tracker-2', ['rev-error-tracker-1']],
    ['CI minutes budget', 'rev-ci-minutes-2', ['rev-ci-minutes-1']],
    ['support hours coverage', 'rev-support-hours-2', ['rev-support-hours-1']],
    ['how often do we release', 'rev-release-train-2', ['rev-release-train-1']],
    [
      'which Node version do TypeScript services use',
      'rev-node-version-3',
      ['rev-node-version-1', 'rev-node-version-2'],
    ],
    ['paging tool for on-call', 'rev-pager-2', ['rev-pager-1']],
    ['tool for wireframes', 'rev-design-tool-2', ['rev-design-tool-1']],
    ['who owns the Acme Logistics account', 'rev-acme-renewal-owner-2', ['rev-acme-renewal-owner-1']],
    ['where is the annual offsite', 'rev-office-2', ['rev-office-1']],
    ['billing database size and growth', 'rev-db-size-2', ['rev-db-size-1']],
    ['maximum batch size for the ingestion API', 'rev-max-payload-2', ['rev-max-payload-1']],
    ['how long is the free trial', 'fact-free-trial', ['retracted-free-trial']],
    ['do we have a SOC 2 report', 'fact-soc2-type2', ['retracted-soc2-type1']],
  ];
  HAND.forEach(([text, expect, mustNot], i) => {
    b.query({ id: `upd-team-${i + 1}`, category: 'knowledge-update', text, expect: [expect], mustNot });
  });
}

function temporal(b: SetBuilder, { customers, work }: Facts): void {
  const r = b.rng;
  const day = (label: string): number => {
    const m = b.memories.find((x) => x.id === label)!;
    return (Date.parse(m.recorded) - Date.parse('2024-10-01T00:00:00Z')) / 86_400_000;
  };
  customers
    .filter((c) => c.plans.length > 1)
    .slice(0, 16)
    .forEach((cf, i) => {
      const v = i % 3 === 2 && cf.plans.length > 2 ? 1 : 0;
      const [before, after] = [cf.plans[v]!, cf.plans[v + 1]!];
      const mid = Math.round((day(before.label) + day(after.label)) / 2);
      b.query({
        id: `tmp-plan-${i + 1}`,
        category: 'temporal',
        text: `${cf.c.name} plan`,
        asOf: at(mid, r),
        expect: [before.label],
        mustNot: cf.plans.filter((p) => p !== before).map((p) => p.label),
        note: 'what we believed then: the later plan was not recorded yet',
      });
    });
  customers
    .filter((c) => c.contacts.length > 1)
    .slice(0, 5)
    .forEach((cf, i) => {
      const mid = Math.round((day(cf.contacts[0]!.label) + day(cf.contacts[1]!.label)) / 2);
      b.query({
        id: `tmp-contact-${i + 1}`,
        category: 'temporal',
        text: `main contact at ${cf.c.name}`,
        asOf: at(mid, r),
        expect: [cf.contacts[0]!.label],
        mustNot: [cf.contacts[1]!.label],
      });
    });
  const HAND: [string, number, string, string][] = [
    ['when is standup', 100, 'rev-standup-1', 'rev-standup-2'],
    ['staging URL', 150, 'rev-staging-url-1', 'rev-staging-url-2'],
    ['error tracking service', 100, 'rev-error-tracker-1', 'rev-error-tracker-2'],
    ['Node version for TypeScript services', 200, 'rev-node-version-2', 'rev-node-version-3'],
    ['paging tool', 60, 'rev-pager-1', 'rev-pager-2'],
    ['release cadence', 120, 'rev-release-train-1', 'rev-release-train-2'],
    ['free trial length', 100, 'retracted-free-trial', 'fact-free-trial'],
  ];
  HAND.forEach(([text, d, expect, mustNot], i) => {
    b.query({
      id: `tmp-team-${i + 1}`,
      category: 'temporal',
      text,
      asOf: at(d, r),
      expect: [expect],
      mustNot: [mustNot],
    });
  });
  for (let i = 0; i < 8; i++) {
    const week = 3 + i * 6;
    b.query({
      id: `tmp-oncall-${i + 1}`,
      category: 'temporal',
      text: r.pick([
        'who is on call for production',
        'primary on-call this week',
        'who do I page for a production issue',
      ]),
      validAt: `${dateOf(week * 7 + 3)}T12:00:00Z`,
      expect: [work.oncall[week]!],
      mustNot: [work.oncall[week - 1]!, work.oncall[week + 1]!],
    });
  }
  work.leaves.slice(0, 6).forEach((l, i) => {
    const p = PEOPLE.find((x) => x.id === l.person)!;
    b.query({
      id: `tmp-leave-${i + 1}`,
      category: 'temporal',
      text: `is ${p.name.split(' ')[0]} away`,
      validAt: `${dateOf(Math.round((l.from + l.to) / 2))}T12:00:00Z`,
      expect: [l.label],
    });
  });
  customers
    .filter((c) => c.terms.length === 2)
    .slice(0, 5)
    .forEach((cf, i) => {
      const [current, next] = cf.terms as [CustomerFacts['terms'][0], CustomerFacts['terms'][0]];
      const later = i % 2 === 1;
      const t = later ? next.from + 60 : current.from + 100;
      b.query({
        id: `tmp-term-${i + 1}`,
        category: 'temporal',
        text: `${cf.c.name} contract term and discount`,
        validAt: `${dateOf(t)}T12:00:00Z`,
        expect: [later ? next.label : current.label],
        mustNot: [later ? current.label : next.label],
      });
    });
}

function scoped(b: SetBuilder, { agents }: Facts): void {
  const r = b.rng;
  const attrs = Object.keys(PROJECT_ASKS);
  PROJECTS.forEach((p, pi) => {
    for (let j = 0; j < 3; j++) {
      const attr = attrs[(pi * 5 + j * 7) % attrs.length]!;
      const current = b.has(`proj-${p.id}-${attr}-2`) ? `proj-${p.id}-${attr}-2` : `proj-${p.id}-${attr}`;
      const others = r
        .sample(
          PROJECTS.filter((o) => o.id !== p.id),
          3,
        )
        .map((o) => `proj-${o.id}-${attr}`);
      b.query({
        id: `scope-proj-${p.id}-${attr}`,
        category: 'multi-scope',
        text: PROJECT_ASKS[attr]!,
        as: 'agent:claude-code',
        scopes: [`project:${p.id}`, 'shared', 'agent:claude-code'],
        expect: [current],
        mustNot: others,
      });
    }
  });
  r.sample(PEOPLE, 10).forEach((p, i) => {
    const attr = Object.keys(PERSON_ASKS)[i % Object.keys(PERSON_ASKS).length]!;
    const label = b.has(`user-${p.id}-${attr}-2`) ? `user-${p.id}-${attr}-2` : `user-${p.id}-${attr}`;
    const others = r
      .sample(
        PEOPLE.filter((o) => o.id !== p.id),
        3,
      )
      .map((o) => `user-${o.id}-${attr}`);
    b.query({
      id: `scope-user-${p.id}-${attr}`,
      category: 'multi-scope',
      text: PERSON_ASKS[attr]!,
      scopes: [`user:${p.id}`, 'shared'],
      expect: [label],
      mustNot: others,
    });
  });
  // An agent reading with its own grants: its notes, never the other agent's, never a user's.
  const flaky = [...agents.notes].filter(([k]) => k.endsWith('|flaky:0'));
  for (const agent of ['codex', 'claude-code']) {
    const mine = flaky.filter(([k]) => k.startsWith(`${agent}|`));
    r.sample(mine, 4).forEach(([k, label], i) => {
      const project = k.split('|')[1]!;
      const other = agents.notes.get(`${agent === 'codex' ? 'claude-code' : 'codex'}|${project}|flaky:0`);
      b.query({
        id: `scope-agent-${agent}-${i + 1}`,
        category: 'multi-scope',
        text: `flaky tests in ${project}`,
        as: `agent:${agent}`,
        expect: [label, agents.notes.get(`${agent}|${project}|flaky:1`)!],
        mustNot: other === undefined ? [] : [other],
      });
    });
  }
}
