/**
 * Background the team accumulates: release notes per project, customer call notes and sprint retros. Mostly
 * distractors that share vocabulary with the facts queries look for, as a real ledger's history does.
 */
import { at, type SetBuilder, spoken } from './builder.ts';
import { CUSTOMERS } from './world.ts';

const CHANGES: Record<string, string[]> = {
  'billing-api': [
    'proration for mid-cycle seat changes',
    'credit notes in the invoice PDF',
    'retry of failed card payments after three days',
    'VAT reverse-charge wording for EU business customers',
    'a faster invoice listing endpoint with cursor paging',
    'usage-based pricing for event volume overages',
    'a fix for duplicate dunning emails',
    'currency rounding per line item instead of per invoice',
  ],
  'web-console': [
    'a dark mode toggle in user settings',
    'saved views on the events explorer',
    'keyboard shortcuts for the query editor',
    'a redesigned billing page with invoice downloads',
    'role management for workspace admins',
    'CSV export from every table',
    'an onboarding checklist for new workspaces',
    'faster dashboard loading with cached tiles',
  ],
  ingest: [
    'gzip request bodies on the HTTP endpoint',
    'a dead-letter topic for malformed events',
    'per-tenant throughput quotas',
    'schema validation against the registry',
    'batch compaction to cut ClickHouse parts',
    'gRPC streaming ingestion',
    'backpressure signals to the SDKs',
    'replay of events from the archive bucket',
  ],
  'mobile-app': [
    'offline mode for dashboards',
    'push notifications for alert thresholds',
    'biometric unlock',
    'a widget for the home screen',
    'tablet layouts',
    'deep links into saved views',
    'a crash fix on the login screen',
    'accessibility labels on every chart',
  ],
  infra: [
    'Graviton instances for the ingest cluster',
    'a second NAT gateway per availability zone',
    'automated RDS minor version upgrades',
    'VPC flow logs to the security account',
    'spot instances for CI runners',
    'a new staging account',
    'KMS keys per environment',
    'private endpoints for S3',
  ],
  'docs-site': [
    'a versioned API reference',
    'a quickstart for the Python SDK',
    'a migration guide from v4 to v5',
    'runnable code samples',
    'a glossary page',
    'dark mode',
    'a page on data residency',
    'the webhook event catalogue',
  ],
  'search-service': [
    'typo tolerance for short queries',
    'per-tenant synonym lists',
    'faceted filters on event properties',
    'a new BM25 tuning for short fields',
    'highlighting of matched terms',
    'a query cache for repeated dashboard searches',
    'prefix search for event names',
    'tenant-tier index routing',
  ],
  'auth-gateway': [
    'SCIM 2.0 user provisioning',
    'WebAuthn passkeys',
    'session revocation on password change',
    'per-workspace IP allow lists',
    'SAML support alongside OIDC',
    'shorter session lifetimes for admin roles',
    'audit events for every login',
    'device trust checks for admins',
  ],
};

const TOPICS: [string, string][] = [
  ['pricing for the next contract year', 'send a renewal quote'],
  ['how to model multi-region data', 'share the residency guide'],
  ['exporting raw events to their warehouse', 'demo the Snowflake sync'],
  ['an outage they noticed last week', 'send the incident report'],
  ['adding 50 more seats', 'update the order form'],
  ['SSO for their contractors', 'check whether guest accounts can skip SSO'],
  ['API rate limits for a backfill', 'raise limits for the backfill window'],
  ['GDPR deletion requests', 'document the erasure workflow for them'],
  ['the mobile app roadmap', 'share the public roadmap link'],
  ['a custom dashboard for their executives', 'build a template dashboard'],
];

const RETRO: [string, string, string][] = [
  [
    'the release went out on time',
    'too many pull requests waited over two days for review',
    'reviewers pick up pull requests each morning',
  ],
  [
    'the incident response was calm',
    'alerts fired in three channels at once',
    'route alerts to one channel per service',
  ],
  ['the new onboarding flow shipped', 'scope grew mid-sprint', 'freeze scope after planning'],
  ['flaky tests went down', 'staging was broken for two days', 'assign a staging owner each week'],
  ['pairing helped new hires', 'estimates were far off', 'split tickets larger than three days'],
  ['customer bugs were fixed quickly', 'the roadmap changed twice', 'product shares changes in writing'],
];

export function buildHistory(b: SetBuilder): void {
  const r = b.rng;
  for (const [project, changes] of Object.entries(CHANGES)) {
    let minor = r.int(2, 9);
    for (let i = 0; i < 18; i++) {
      const d = 8 + i * 19 + r.int(0, 10);
      minor++;
      const items = r.sample(changes, 2);
      b.add({
        id: `release-${project}-${i + 1}`,
        body: `Released ${project} 3.${minor}.0 on ${spoken(d)}: ${items[0]} and ${items[1]}.`,
        kind: 'episode',
        scope: `project:${project}`,
        recorded: at(d, r),
        by: r.pick(['human:dana', 'human:omar', 'human:priya', 'human:li']),
      });
    }
  }
  CUSTOMERS.forEach((c, i) => {
    const [topic, follow] = TOPICS[(i * 3) % TOPICS.length]!;
    const d = r.int(30, 355);
    b.add({
      id: `call-${c.slug}`,
      body: `Call with ${c.name} on ${spoken(d)}: they asked about ${topic}. Follow-up: ${follow}.`,
      kind: 'note',
      scope: 'shared',
      subjects: [`company:${c.slug}`],
      recorded: at(d, r),
      by: r.pick(['human:tom', 'human:sofia']),
    });
  });
  for (let sprint = 1; sprint <= 26; sprint++) {
    const [good, bad, action] = RETRO[(sprint * 5) % RETRO.length]!;
    b.add({
      id: `retro-${sprint}`,
      body: `Sprint ${sprint} retro: ${good}; ${bad}. Action: ${action}.`,
      kind: 'summary',
      scope: 'shared',
      recorded: at(sprint * 14, r),
      by: 'human:dana',
    });
  }
}
