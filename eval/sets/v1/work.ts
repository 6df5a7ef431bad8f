/**
 * The team's working record: incidents with cause and fix, promises made to customers and whether they were
 * kept, support tickets, the on-call rotation and leaves with valid times. Hand-written tables, combined.
 */
import { at, dateOf, type SetBuilder, spoken } from './builder.ts';
import { PEOPLE } from './team.ts';
import { PROJECTS } from './projects.ts';
import { CUSTOMERS } from './world.ts';

/** symptom, cause, fix, and the projects where that story is plausible. */
const INCIDENTS: [string, string, string, string[]][] = [
  [
    'returned 502s for about 40 minutes',
    'the database connection pool was exhausted by a slow report query',
    'raised the pool to 50 and moved reports to the read replica',
    ['billing-api', 'auth-gateway'],
  ],
  [
    'dropped events for 25 minutes',
    'a Kafka consumer group kept rebalancing after a deploy',
    'switched the partition assignment to cooperative-sticky',
    ['ingest', 'search-service'],
  ],
  [
    'had p99 latency above 4 seconds',
    'a migration dropped the index on the customer id column',
    'recreated the index concurrently and added a migration check',
    ['billing-api', 'search-service'],
  ],
  [
    'rejected SSO logins for an hour',
    'the identity provider rotated its signing key and we served a cached key set',
    'refetch the key set whenever an unknown key id arrives',
    ['auth-gateway', 'web-console'],
  ],
  [
    'had pods OOM-killed every few hours',
    'an unbounded in-memory cache of tenant settings',
    'replaced it with an LRU capped at 10,000 entries',
    ['ingest', 'search-service', 'auth-gateway', 'billing-api'],
  ],
  [
    'skipped the nightly job',
    'the cron schedule was in local time and the daylight saving change skipped 02:30',
    'all schedules are now written in UTC',
    ['billing-api', 'ingest', 'docs-site'],
  ],
  [
    'failed TLS handshakes for older clients',
    'the renewed certificate was deployed without its intermediate',
    'deploy the full chain and alert 30 days before expiry',
    ['auth-gateway', 'infra'],
  ],
  [
    'delivered duplicate webhooks',
    'retries were sent without an idempotency key',
    'added idempotency keys and a dedupe table keyed on them',
    ['billing-api', 'ingest'],
  ],
  [
    'filled the disk on the primary database',
    'WAL archiving stalled after the bucket policy changed',
    'fixed the bucket policy and alert at 70 percent disk',
    ['infra', 'billing-api'],
  ],
  [
    'exported CSV files with shifted timestamps',
    'timestamps were formatted in the server timezone',
    'exports are in UTC with an explicit offset',
    ['web-console', 'billing-api'],
  ],
  [
    'had a red main branch for a day',
    'a transitive dependency shipped a breaking patch release',
    'pinned it and made CI install from the lockfile only',
    ['web-console', 'docs-site', 'mobile-app', 'billing-api'],
  ],
  [
    'served stale results for two hours',
    'the indexer lagged after a partition was reassigned',
    'alert when indexing lag passes five minutes',
    ['search-service'],
  ],
  [
    'rate-limited a large customer by mistake',
    'the limit was per IP and the customer routes through one NAT gateway',
    'rate limits are now per API key',
    ['auth-gateway', 'ingest'],
  ],
  [
    'crashed on launch for Android 9 users',
    'a library called an API missing below API level 29',
    'guarded the call and added an Android 9 device to Test Lab',
    ['mobile-app'],
  ],
  [
    'stopped sending emails',
    'the SES sending quota ran out during a bulk import',
    'raised the quota and queue emails with backoff',
    ['billing-api', 'web-console'],
  ],
  [
    'generated some invoices twice',
    'two scheduler replicas ran the same invoice job',
    'the invoice run takes a Postgres advisory lock',
    ['billing-api'],
  ],
  [
    'showed zero revenue on the dashboard',
    'the currency rate table was empty after a failed sync',
    'fall back to the last good rates and alert on an empty table',
    ['web-console', 'billing-api'],
  ],
  [
    'hung during deploys',
    'the readiness probe pointed at an endpoint that had been removed',
    'probes use /healthz and CI checks the probe path',
    ['search-service', 'ingest', 'auth-gateway'],
  ],
  [
    'answered 429 to most mobile clients',
    'a retry storm from the app, retrying without jitter',
    'exponential backoff with jitter in every client',
    ['mobile-app', 'auth-gateway'],
  ],
  [
    'lost the Terraform state lock for an afternoon',
    'a crashed CI runner left the DynamoDB lock behind',
    'document force-unlock and time out Atlantis jobs after 30 minutes',
    ['infra'],
  ],
  [
    'returned 404 for half the docs pages',
    'a trailing-slash redirect rule looped after the host migration',
    'normalised trailing slashes in the redirects file',
    ['docs-site'],
  ],
  [
    'blanked the settings page for Safari users',
    'a structuredClone call that older Safari lacks',
    'polyfilled it and added Safari 15 to the Playwright matrix',
    ['web-console'],
  ],
  [
    'leaked debug logs with email addresses to Datadog',
    'a debug flag was left on in production',
    'debug logging is blocked by a CI check on production values',
    ['infra', 'ingest'],
  ],
  [
    'could not scale up during a traffic spike',
    'the autoscaler hit the account vCPU quota',
    'raised the quota and alert at 80 percent of it',
    ['infra', 'search-service'],
  ],
];

/** Promises made to customers: what, and the words used when it was delivered. */
const PROMISES: [string, string][] = [
  ['a fix for the CSV export timezone bug', 'shipped the CSV export timezone fix'],
  ['SCIM group sync', 'turned on SCIM group sync'],
  ['a dedicated EU data region', 'migrated them to the dedicated EU region'],
  ['a 99.95 percent uptime SLA in the next contract', 'added the 99.95 percent SLA to their contract'],
  ['an audit log export to their SIEM', 'delivered the audit log export to their SIEM'],
  ['Python SDK support for batching', 'released batching in the Python SDK'],
  ['a walkthrough of the new permissions model', 'ran the permissions walkthrough with their admins'],
  ['custom invoice fields for their PO numbers', 'added custom invoice fields for PO numbers'],
  [
    'a security questionnaire answered by the end of the month',
    'sent back the completed security questionnaire',
  ],
  ['webhook retries with exponential backoff', 'enabled webhook retries with backoff for them'],
  ['higher API rate limits during their Black Friday peak', 'raised their rate limits for the peak'],
  ['a read-only role for their auditors', 'shipped the auditor read-only role'],
];

const TICKETS: [string, string][] = [
  [
    'users cannot log in after their SSO migration',
    'the redirect URL still pointed at the old tenant; corrected it',
  ],
  [
    'dashboards load slowly in the morning',
    'their dashboards query 13 months of raw events; suggested rollups',
  ],
  ['an invoice shows the wrong VAT rate', 'the billing address country was wrong; reissued the invoice'],
  [
    'events from the browser SDK are missing',
    'an ad blocker drops the SDK script; proposed a first-party proxy',
  ],
  [
    'they want to delete a former employee’s data',
    'ran the erasure for that person and sent the confirmation',
  ],
  ['API calls fail with 401 after key rotation', 'they rotated the key but kept the old one in a cron job'],
  ['the mobile app shows an old logo', 'the remote config cache had not expired; cleared it'],
  ['exported reports are missing a column', 'the column was hidden in the saved view, not removed'],
  [
    'they were charged for more seats than they use',
    'deactivated users still held seats; credited the difference',
  ],
  [
    'webhook deliveries time out',
    'their endpoint takes 20 seconds; advised to acknowledge first and process later',
  ],
  ['search does not find recent records', 'indexing lag during a backfill; it caught up within the hour'],
  ['two-factor codes arrive late', 'their SMS carrier delays messages; recommended an authenticator app'],
];

const SHIFT_PEOPLE = ['li', 'jonas', 'omar', 'raj', 'noah'];

export interface WorkFacts {
  incidents: { label: string; project: string; index: number }[];
  promises: { open: string; delivered?: string; customer: string; what: number }[];
  /** week number → label of that week's on-call memory. */
  oncall: string[];
  leaves: { label: string; person: string; from: number; to: number }[];
}

export function buildWork(b: SetBuilder): WorkFacts {
  const r = b.rng;
  const incidents: WorkFacts['incidents'] = [];
  let number = 1040;
  INCIDENTS.forEach(([symptom, cause, fix, projects], index) => {
    for (const project of projects) {
      const d = r.int(10, 355);
      const title = PROJECTS.find((p) => p.id === project)!.title;
      number += r.int(1, 9);
      const by = r.pick(['human:li', 'human:jonas', 'human:omar', 'agent:claude-code']);
      const label = b.add({
        id: `inc-${number}`,
        body: `INC-${number} (${spoken(d)}): the ${title} ${symptom}. Cause: ${cause}. Fix: ${fix}.`,
        kind: 'episode',
        scope: `project:${project}`,
        subjects: [`incident:inc-${number}`],
        recorded: at(d + 1, r),
        by,
        // An agent's write-up outside its own scope waits for a person, who approves it the next day.
        ...(by.startsWith('agent:')
          ? { review: { action: 'approve' as const, at: at(d + 2, r), by: 'human:li' } }
          : {}),
      });
      incidents.push({ label, project, index });
    }
  });

  const promises: WorkFacts['promises'] = [];
  CUSTOMERS.forEach((c, i) => {
    if (i % 2 === 1) return;
    const what = (i * 7) % PROMISES.length;
    const [promise, done] = PROMISES[what]!;
    const d = r.int(20, 300);
    const due = d + r.int(14, 60);
    const owner = r.pick(PEOPLE).name;
    const open = b.add({
      id: `promise-${c.slug}`,
      body: `We promised ${c.name} ${promise} by ${spoken(due)}; ${owner} is accountable.`,
      kind: 'commitment',
      scope: 'shared',
      subjects: [`company:${c.slug}`],
      recorded: at(d, r),
      by: r.pick(['human:tom', 'human:sofia', 'human:kwame']),
    });
    const entry: WorkFacts['promises'][number] = { open, customer: c.slug, what };
    if (i % 4 === 0 && due < 350) {
      entry.delivered = b.add({
        id: `promise-${c.slug}-done`,
        body: `Done: we ${done} for ${c.name} on ${spoken(due - 2)}, before the promised date.`,
        kind: 'episode',
        scope: 'shared',
        subjects: [`company:${c.slug}`],
        supersedes: open,
        recorded: at(due - 2, r),
        by: 'human:kwame',
      });
    }
    promises.push(entry);
  });

  let ticket = 30_112;
  CUSTOMERS.forEach((c, i) => {
    const count = i % 2 === 0 ? 2 : 1;
    for (let n = 0; n < count; n++) {
      const [problem, resolution] = TICKETS[(i * 5 + n * 3) % TICKETS.length]!;
      ticket += r.int(3, 40);
      const d = r.int(5, 360);
      b.add({
        id: `ticket-${ticket}`,
        body: `Ticket #${ticket} from ${c.name}: ${problem}. Resolution: ${resolution}.`,
        kind: 'episode',
        scope: 'shared',
        subjects: [`company:${c.slug}`],
        recorded: at(d, r),
        by: 'agent:support-bot',
        source: { connector: 'zendesk', id: String(ticket) },
        review: { action: 'approve', at: at(d + 1, r), by: 'human:kwame' },
      });
    }
  });

  // The SRE on-call rotation, one memory per week, valid for that week only.
  const oncall: string[] = [];
  for (let week = 0; week < 52; week++) {
    const from = week * 7;
    const who = PEOPLE.find((p) => p.id === SHIFT_PEOPLE[week % SHIFT_PEOPLE.length])!;
    const backup = PEOPLE.find((p) => p.id === SHIFT_PEOPLE[(week + 2) % SHIFT_PEOPLE.length])!;
    oncall.push(
      b.add({
        id: `oncall-week-${week + 1}`,
        body: `${who.name} is primary on-call for production from ${spoken(from)} to ${spoken(from + 7)}, with ${backup.name} as secondary.`,
        kind: 'fact',
        scope: 'shared',
        subjects: [`person:${who.id}@fernhill.dev`],
        validFrom: dateOf(from),
        validTo: dateOf(from + 7),
        recorded: at(Math.max(0, from - 10), r),
        by: 'human:li',
      }),
    );
  }

  const leaves: WorkFacts['leaves'] = [];
  const LEAVES: [string, number, number, string][] = [
    ['priya', 190, 290, 'parental leave; Amara covers UI reviews'],
    ['omar', 80, 94, 'vacation; Jonas covers billing-api reviews'],
    ['li', 120, 134, 'vacation; Noah is the SRE escalation contact'],
    ['kwame', 240, 250, 'conference travel; escalations go to Sofia'],
    ['yuki', 300, 330, 'sabbatical; Jonas owns ingest alone'],
    ['raj', 150, 160, 'vacation; billing releases pause'],
    ['mateo', 60, 75, 'vacation; app store submissions pause'],
    ['noah', 210, 217, 'pen-test week; security reviews are delayed'],
    ['sofia', 330, 345, 'vacation; Elena signs off copy changes'],
    ['ines', 100, 110, 'vacation; docs changes wait unless urgent'],
  ];
  for (const [person, from, to, detail] of LEAVES) {
    const p = PEOPLE.find((x) => x.id === person)!;
    leaves.push({
      label: b.add({
        id: `leave-${person}-${from}`,
        body: `${p.name} is away from ${spoken(from)} to ${spoken(to)} (${detail}).`,
        kind: 'fact',
        scope: 'shared',
        subjects: [`person:${person}@fernhill.dev`],
        validFrom: dateOf(from),
        validTo: dateOf(to + 1),
        recorded: at(from - r.int(10, 40), r),
        by: 'human:dana',
      }),
      person,
      from,
      to,
    });
  }
  return { incidents, promises, oncall, leaves };
}
