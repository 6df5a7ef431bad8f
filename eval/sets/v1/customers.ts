/**
 * Customer facts in the shared scope, keyed `<customer>.<field>` with a `company:` subject: plans, renewals,
 * contacts, residency, SSO, support, integration, billing and habits. Plans and contacts change during the
 * year, agents propose wrong values that stay held or get rejected, and contract terms carry valid times.
 */
import { at, dateOf, type SetBuilder, spoken } from './builder.ts';
import {
  CHANNELS,
  CONTACT_STYLE,
  CUSTOMERS,
  type Customer,
  FIRST,
  LAST,
  PAYMENT,
  PLANS,
  REGIONS,
  ROLES,
  SSO,
  SUPPORT,
} from './world.ts';

const OWNERS = ['Tom Nakamura', 'Sofia Lindqvist', 'Kwame Mensah', 'Elena Petrova'];

/** What the query generators need to know about each customer's history. */
export interface CustomerFacts {
  c: Customer;
  /** Plan versions in order: label, plan, day recorded. */
  plans: { label: string; plan: string; day: number }[];
  contacts: { label: string; name: string; day: number }[];
  /** Labels of proposals that were held or rejected, never active. */
  wrongProposals: string[];
  /** Contract terms with valid times: label and [from, to) day numbers. */
  terms: { label: string; from: number; to: number }[];
  labels: Record<string, string>;
}

export function buildCustomers(b: SetBuilder): CustomerFacts[] {
  return CUSTOMERS.map((c, i) => buildCustomer(b, c, i));
}

function buildCustomer(b: SetBuilder, c: Customer, index: number): CustomerFacts {
  const r = b.rng;
  const base = { scope: 'shared', subjects: [`company:${c.slug}`] };
  const onboard = r.int(0, 90);
  const labels: Record<string, string> = {};
  const fact = (field: string, body: string, day: number, extra: object = {}): string => {
    const id = b.add({
      id: `cust-${c.slug}-${field}`,
      body,
      kind: 'fact',
      key: `${c.slug}.${field}`,
      recorded: at(day, r),
      by: r.pick(['human:kwame', 'human:tom', 'human:sofia', 'human:dana']),
      ...base,
      ...extra,
    });
    labels[field] = id;
    return id;
  };

  fact('profile', `${c.name} is a ${c.industry} company based in ${c.city}.`, onboard);

  // Plans: a first plan, then upgrades or downgrades for about a third of the customers.
  const plans: CustomerFacts['plans'] = [];
  let tier = r.int(0, 3);
  let seats = r.pick([10, 25, 40, 60, 120, 250]);
  const planLabel = b.add({
    id: `cust-${c.slug}-plan-1`,
    body: r.pick([
      `${c.name} is on the ${PLANS[tier]} plan with ${seats} seats.`,
      `${c.name} signed up for the ${PLANS[tier]} plan (${seats} seats) in ${spoken(onboard).split(' ')[0]}.`,
    ]),
    kind: 'fact',
    key: `${c.slug}.plan`,
    recorded: at(onboard, r),
    by: 'human:tom',
    validFrom: dateOf(onboard),
    ...base,
  });
  plans.push({ label: planLabel, plan: PLANS[tier]!, day: onboard });
  let day = onboard;
  const changes = index % 3 === 0 ? (index % 9 === 0 ? 2 : 1) : 0;
  for (let v = 2; v <= changes + 1; v++) {
    day += r.int(60, 120);
    const old = PLANS[tier]!;
    tier = Math.min(4, Math.max(0, tier + (r.next() < 0.8 ? 1 : -1)));
    if (PLANS[tier] === old) tier = tier === 4 ? 3 : tier + 1;
    seats = Math.round(seats * (r.next() < 0.8 ? 1.5 : 0.6));
    const up = PLANS.indexOf(PLANS[tier]!) > PLANS.indexOf(old as (typeof PLANS)[number]);
    const label = b.add({
      id: `cust-${c.slug}-plan-${v}`,
      body: r.pick([
        `${c.name} ${up ? 'upgraded' : 'downgraded'} from ${old} to the ${PLANS[tier]} plan; they now have ${seats} seats.`,
        `${c.name} moved to ${PLANS[tier]} at their mid-term review, ${seats} seats from ${spoken(day)}.`,
      ]),
      kind: 'fact',
      key: `${c.slug}.plan`,
      recorded: at(day, r),
      by: r.pick(['human:tom', 'human:sofia']),
      validFrom: dateOf(day),
      ...base,
    });
    plans.push({ label, plan: PLANS[tier]!, day });
  }

  const renewal = onboard + 365;
  fact(
    'renewal',
    `${c.name}'s contract renews on ${spoken(renewal)}; ${r.pick(OWNERS)} owns the renewal conversation.`,
    onboard + r.int(1, 10),
  );

  // Contacts: one person, replaced for about one customer in six.
  const contacts: CustomerFacts['contacts'] = [];
  const person = (): [string, string] => {
    const first = r.pick(FIRST);
    const last = r.pick(LAST);
    return [`${first} ${last}`, `${first.toLowerCase()}.${last.toLowerCase()}@${c.slug}.example`];
  };
  const [contact, email] = person();
  const role = r.pick(ROLES);
  const contactLabel = b.add({
    id: `cust-${c.slug}-contact-1`,
    body: `The main contact at ${c.name} is ${contact}, ${role} (${email}).`,
    kind: 'fact',
    key: `${c.slug}.contact`,
    recorded: at(onboard + 1, r),
    by: 'human:tom',
    ...base,
    subjects: [...base.subjects, `person:${email}`],
  });
  contacts.push({ label: contactLabel, name: contact, day: onboard + 1 });
  if (index % 6 === 1) {
    const [next, nextEmail] = person();
    const d = onboard + r.int(90, 200);
    const label = b.add({
      id: `cust-${c.slug}-contact-2`,
      body: `${contact} left ${c.name}; ${next} (${r.pick(ROLES)}, ${nextEmail}) is our main contact there now.`,
      kind: 'fact',
      key: `${c.slug}.contact`,
      recorded: at(d, r),
      by: 'human:kwame',
      ...base,
      subjects: [...base.subjects, `person:${nextEmail}`],
    });
    contacts.push({ label, name: next, day: d });
  }

  const [zone, region] = REGIONS[index % REGIONS.length]!;
  fact(
    'region',
    r.pick([
      `${c.name}'s data must stay in the ${zone}; their tenant is hosted in ${region}.`,
      `Data residency for ${c.name}: ${zone} only, tenant in ${region}.`,
    ]),
    onboard + 2,
  );
  const sso = r.pick(SSO);
  const scim = r.next() < 0.5;
  fact(
    'sso',
    `${c.name} signs in with ${sso} single sign-on${scim ? ' and provisions users with SCIM' : '; user provisioning is manual'}.`,
    onboard + r.int(3, 30),
  );
  const [support, target] = SUPPORT[Math.min(2, Math.floor(tier / 2))]!;
  fact('support', `${c.name} has ${support} support with a first response target of ${target}.`, onboard + 2);
  fact(
    'integration',
    `${c.name} sends about ${r.int(2, 400)} million events a month through ${r.pick(CHANNELS)}.`,
    onboard + r.int(5, 40),
  );
  fact('billing', `${c.name} ${r.pick(PAYMENT)}.`, onboard + 3);
  const style = r.pick(CONTACT_STYLE);
  b.add({
    id: `cust-${c.slug}-comms`,
    body: `${contact.split(' ')[0]} at ${c.name} ${style}.`,
    kind: 'preference',
    key: `${c.slug}.comms`,
    recorded: at(onboard + r.int(5, 60), r),
    by: 'human:kwame',
    ...base,
  });
  labels.comms = `cust-${c.slug}-comms`;

  // Agents propose values from transcripts; outside their own scope those wait for a person.
  const wrongProposals: string[] = [];
  if (index % 4 === 2) {
    const wrong = PLANS[(tier + 2) % 5]!;
    const d = Math.min(360, day + r.int(5, 40));
    const rejected = index % 8 === 2;
    wrongProposals.push(
      b.add({
        id: `cust-${c.slug}-plan-proposal`,
        body: `${c.name} is on the ${wrong} plan, per the support chat.`,
        kind: 'fact',
        key: `${c.slug}.plan`,
        recorded: at(d, r),
        by: 'agent:support-bot',
        source: { connector: 'support-chat', id: `chat-${c.slug}-${d}` },
        ...base,
        ...(rejected
          ? {
              review: {
                action: 'reject' as const,
                at: at(d + 1, r),
                by: 'human:kwame',
                reason: 'the chat misread the invoice',
              },
            }
          : {}),
      }),
    );
  }

  // Contract terms with valid times: the current term, and for some a signed renewal that starts later.
  const terms: CustomerFacts['terms'] = [];
  if (index % 5 === 0) {
    const from = onboard;
    const to = onboard + 365;
    terms.push({
      label: b.add({
        id: `cust-${c.slug}-term-1`,
        body: `${c.name} contract term ${dateOf(from)} to ${dateOf(to)}: ${plans[0]!.plan} plan at list price, auto-renewing.`,
        kind: 'fact',
        recorded: at(from, r),
        by: 'human:elena',
        validFrom: dateOf(from),
        validTo: dateOf(to),
        ...base,
      }),
      from,
      to,
    });
    const next = b.add({
      id: `cust-${c.slug}-term-2`,
      body: `${c.name} renewal signed: from ${dateOf(to)} to ${dateOf(to + 730)} a two-year term with a 12 percent discount.`,
      kind: 'fact',
      recorded: at(Math.min(350, to - r.int(20, 60)), r),
      by: 'human:elena',
      validFrom: dateOf(to),
      validTo: dateOf(to + 730),
      ...base,
    });
    terms.push({ label: next, from: to, to: to + 730 });
  }
  labels.contact = contacts.at(-1)!.label;
  labels.plan = plans.at(-1)!.label;
  return { c, plans, contacts, wrongProposals, terms, labels };
}
