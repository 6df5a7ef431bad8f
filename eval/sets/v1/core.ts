/**
 * Hand-written memories: the team's conventions and decisions with their reasons, customer particulars,
 * incidents, people and promises, plus hand-written revisions and retractions. Most paraphrase queries
 * are written against these.
 */
import type { EvalMemoryInput } from '../../format.ts';
import { at, type SetBuilder } from './builder.ts';

type Kind = 'fact' | 'preference' | 'decision' | 'note' | 'episode' | 'commitment' | 'correction' | 'summary';
/** label, scope, kind, day, body, and optional fields (key, subjects, supersedes, by, valid time...). */
type Row = [string, string, Kind, number, string, Partial<EvalMemoryInput>?];

const S = 'shared';
const co = (slug: string) => ({ subjects: [`company:${slug}`] });

// biome-ignore format: one memory per line reads as the table it is
const ROWS: Row[] = [
  // Team-wide conventions, with the reason they exist.
  ['conv-friday-deploys', S, 'decision', 12, 'No production deploys after 14:00 UTC on Fridays: nobody is around to watch a rollout over the weekend.', { key: 'team.deploy-window' }],
  ['conv-pr-size', S, 'decision', 15, 'Pull requests should stay under 400 changed lines; bigger ones get split because reviews of huge diffs miss bugs.'],
  ['conv-two-approvals', S, 'decision', 18, 'Changes to money, auth or data deletion need two approving reviews before merge.'],
  ['conv-adr', S, 'decision', 20, 'Architecture decisions are written as ADRs in the architecture repository, numbered, and never edited after acceptance; a new ADR supersedes an old one.'],
  ['conv-utc', S, 'decision', 22, 'All timestamps are stored and logged in UTC; convert to local time only in the UI.'],
  ['conv-feature-flags-cleanup', S, 'decision', 25, 'Feature flags must be removed within 30 days of full rollout; stale flags are listed in the Monday engineering sync.'],
  ['conv-secrets', S, 'decision', 28, 'Credentials live in AWS Secrets Manager and are injected at runtime; never put them in .env files committed to git.'],
  ['conv-dependency-updates', S, 'decision', 30, 'Renovate opens dependency updates on Mondays; patch updates auto-merge when CI passes, minor and major need a human.'],
  ['conv-error-codes', S, 'decision', 34, 'Public API errors use stable machine-readable codes like invoice_not_found; the message text may change, the code may not.'],
  ['conv-api-versioning', S, 'decision', 36, 'The public API is versioned by date in the Fernhill-Version header; breaking changes only ship in a new dated version.'],
  ['conv-postmortems', S, 'decision', 40, 'Every incident that pages someone gets a blameless postmortem within five working days.'],
  ['conv-customer-names', S, 'decision', 42, 'Never put customer names in public GitHub issues or commit messages; use the account id instead.'],
  ['conv-test-data', S, 'decision', 45, 'Tests must not use production data; use the synthetic fixtures from the fixtures package.'],
  ['conv-logging-pii', S, 'decision', 47, 'Logs must not contain email addresses, names or IP addresses; hash them with the shared redact helper.'],
  ['conv-oncall-handover', S, 'decision', 50, 'On-call handover happens Monday at 10:00 UTC in the reliability channel with open alerts listed.'],
  ['conv-changelog', S, 'decision', 55, 'Every customer-visible change needs a line in CHANGELOG.md under Unreleased before it merges.'],
  ['conv-db-migrations', S, 'decision', 58, 'Database migrations must be reversible or come with a written rollback plan in the pull request.'],
  ['conv-code-freeze', S, 'decision', 60, 'There is a code freeze during the last week of each quarter for the finance close; only fixes for incidents merge.'],
  ['conv-naming-services', S, 'decision', 62, 'New services are named after what they do, in kebab-case, never after people or mythology.'],
  ['conv-slack-threads', S, 'preference', 64, 'The team answers questions in threads, not in the main channel, so conversations stay findable.'],
  ['conv-meeting-notes', S, 'preference', 66, 'Meeting notes go into the shared Notion space within a day, with decisions in bold.'],
  ['conv-docs-with-code', S, 'decision', 70, 'Docs for a feature ship in the same release as the feature; the docs pull request is linked from the feature pull request.'],
  ['conv-support-rotation', S, 'decision', 72, 'One engineer per week is on support duty and triages escalated tickets within four hours.'],
  ['conv-accessibility', S, 'decision', 75, 'The web console targets WCAG 2.1 AA; new components need keyboard navigation and screen reader labels.'],
  ['conv-perf-budget', S, 'decision', 78, 'The web console has a performance budget: 200 KB of JavaScript on first load and an LCP under 2.5 seconds.'],
  ['conv-english', S, 'preference', 80, 'Code, comments and commit messages are written in English even though the team is spread over nine countries.'],
  ['conv-laptops', S, 'fact', 82, 'Engineering laptops are MacBook Pros with 32 GB of memory, managed by Kandji; Linux laptops are allowed on request.'],
  ['conv-vacation', S, 'fact', 84, 'Time off is requested in BambooHR at least two weeks ahead and added to the shared team calendar.'],
  ['conv-interviews', S, 'decision', 86, 'Engineering interviews use a paid take-home task capped at three hours instead of live coding.'],
  ['conv-expenses', S, 'fact', 88, 'Conference tickets and books are covered from the 1,500 EUR yearly learning budget per person.'],

  // Architecture decisions with reasons.
  ['dec-postgres-over-mongo', S, 'decision', 14, 'We chose Postgres over MongoDB for billing because invoices need transactions across several tables.', { key: 'arch.billing-datastore' }],
  ['dec-clickhouse', S, 'decision', 24, 'Event analytics moved to ClickHouse because Postgres could not aggregate a billion rows per tenant fast enough for dashboards.'],
  ['dec-kafka', S, 'decision', 26, 'Kafka sits between ingestion and storage so a ClickHouse outage does not lose events; topics keep seven days.'],
  ['dec-monorepo-no', S, 'decision', 32, 'We decided against a monorepo: the mobile, Go and TypeScript toolchains fought each other in CI and builds got slow.'],
  ['dec-graphql-no', S, 'decision', 38, 'The public API stays REST, not GraphQL, because customers integrate from scripts and curl examples matter more than flexible queries.'],
  ['dec-stripe', S, 'decision', 44, 'Payments run through Stripe Billing; we keep our own invoice records because Stripe cannot express our usage-based overages.'],
  ['dec-launchdarkly', S, 'decision', 48, 'We pay for LaunchDarkly instead of building flags ourselves: percentage rollouts and audit history were worth it.'],
  ['dec-opensearch', S, 'decision', 52, 'Search uses OpenSearch rather than Elasticsearch because of the licence change and the AWS managed offering.'],
  ['dec-rust-search', S, 'decision', 56, 'The search service was rewritten in Rust to cut p99 latency; the Python version spent most time in JSON serialisation.'],
  ['dec-native-mobile', S, 'decision', 68, 'The mobile app is native on both platforms after the React Native prototype struggled with chart animations.'],
  ['dec-sso-only-enterprise', S, 'decision', 74, 'SSO is included only in the Business and Enterprise plans; Starter and Team customers asking for it are offered an upgrade.'],
  ['dec-data-retention', S, 'decision', 90, 'Raw events are retained for 13 months by default; Enterprise customers can buy longer retention.'],
  ['dec-region-eu', S, 'decision', 95, 'EU customers get a tenant in Frankfurt by default because most of them require data to stay in the EU.'],
  ['dec-webhooks-signing', S, 'decision', 98, 'Outgoing webhooks are signed with HMAC-SHA256 and a timestamp so receivers can reject replays older than five minutes.'],
  ['dec-uuid-v7', S, 'decision', 100, 'New tables use UUIDv7 primary keys: they sort by creation time, which keeps B-tree inserts local.'],
  ['dec-no-orm', 'project:billing-api', 'decision', 102, 'billing-api writes SQL by hand with a thin query helper instead of an ORM because invoice queries need window functions the ORM mangled.'],
  ['dec-vite', 'project:web-console', 'decision', 104, 'web-console moved from Create React App to Vite because dev server start-up went from 40 seconds to under two.'],
  ['dec-argo', 'project:ingest', 'decision', 106, 'ingest deploys through Argo CD so the cluster state is always what git says, after a manual kubectl change caused an outage.'],
  ['dec-terraform-cloud-no', 'project:infra', 'decision', 108, 'infra stays on Atlantis instead of Terraform Cloud because per-resource pricing would cost more than the whole AWS bill for staging.'],
  ['dec-redis-sessions', 'project:auth-gateway', 'decision', 110, 'auth-gateway keeps sessions server-side in Redis rather than in JWTs so a session can be revoked instantly.'],

  // Customer particulars a support agent or seller would need.
  ['cust-acme-weekly-report', S, 'preference', 40, 'Acme Logistics wants the weekly usage report as a PDF attachment, not a link, because their mail gateway strips links.', co('acme-logistics')],
  ['cust-acme-dock-scheduling', S, 'fact', 92, 'Acme Logistics uses our events to time dock scheduling at their Rotterdam warehouse, so ingestion delays hit their operations directly.', co('acme-logistics')],
  ['cust-brightline-hipaa', S, 'fact', 45, 'Brightline Health signed a BAA with us; their tenant must never be used for demos or debugging with real data.', co('brightline-health')],
  ['cust-corvid-api-heavy', S, 'fact', 60, 'Corvid Analytics calls the query API about two million times a day from their own dashboards; they are our heaviest API user.', co('corvid-analytics')],
  ['cust-dunmore-fiscal-year', S, 'fact', 61, 'Dunmore Foods runs a fiscal year starting in July, so their budget approvals happen in May and June.', co('dunmore-foods')],
  ['cust-evergreen-audit', S, 'fact', 63, 'Evergreen Credit Union is audited every March and needs our SOC 2 report and pen-test summary by mid-February.', co('evergreen-cu')],
  ['cust-fable-launch', S, 'note', 120, 'Fable Games launches a new title in November and expects event volume to triple for two weeks.', co('fable-games')],
  ['cust-granite-legal-review', S, 'fact', 65, 'Granite Insurance routes every contract change through their legal team, which takes about six weeks.', co('granite-insurance')],
  ['cust-harbor-german', S, 'preference', 67, 'Harbor Freightworks asks for invoices and support replies in German.', co('harbor-freightworks')],
  ['cust-ionic-champion', S, 'fact', 69, 'Our internal champion at Ionic Energy is their head of data; the CFO is sceptical about the cost.', co('ionic-energy')],
  ['cust-juniper-summer', S, 'fact', 71, 'Juniper Schools has almost no traffic in July and August; they asked to pause billing over the summer.', co('juniper-schools')],
  ['cust-kestrel-airgap', S, 'fact', 73, 'Kestrel Aerospace wanted an on-premises install; we declined and they accepted a dedicated single-tenant cloud deployment.', co('kestrel-aero')],
  ['cust-lumen-black-friday', S, 'note', 150, 'Lumen Retail sees ten times normal traffic on Black Friday; they want a named engineer on standby that day.', co('lumen-retail')],
  ['cust-meridian-ip-allowlist', S, 'fact', 76, 'Meridian Bank only allows API calls from their two egress IP ranges; adding a range takes them a change ticket.', co('meridian-bank')],
  ['cust-northwind-churn-risk', S, 'note', 160, 'Northwind Travel is a churn risk: they are evaluating a competitor after the April outage.', co('northwind-travel')],
  ['cust-orchard-validation', S, 'fact', 79, 'Orchard Pharma requires computer system validation paperwork for every release they adopt, so they pin to quarterly versions.', co('orchard-pharma')],
  ['cust-quarry-paywall', S, 'fact', 81, 'Quarry Media uses our events to decide when readers hit their paywall, so latency above a second costs them subscriptions.', co('quarry-media')],
  ['cust-redwood-retention', S, 'fact', 83, 'Redwood Legal needs seven years of retention for litigation holds and pays for extended retention.', co('redwood-legal')],
  ['cust-sable-pentest', S, 'fact', 85, 'Sable Security runs their own penetration test against our API every year and shares the findings with us.', co('sable-security')],
  ['cust-tandem-seasonal', S, 'fact', 87, 'Tandem Bikes has seasonal traffic peaking in summer; winter usage drops by 80 percent.', co('tandem-bikes')],
  ['cust-vantage-dealers', S, 'fact', 89, 'Vantage Motors has 140 dealerships, each as its own workspace under one organisation.', co('vantage-motors')],
  ['cust-willow-nhs', S, 'fact', 91, 'Willow Care needs NHS Data Security and Protection Toolkit evidence before adding new sites.', co('willow-care')],
  ['cust-zephyr-offline', S, 'fact', 93, 'Zephyr Air crews use the mobile app in flight mode, so offline dashboards matter more to them than anyone.', co('zephyr-air')],
  ['cust-onyx-pci', S, 'fact', 97, 'Onyx Payments must never send card data to us; their events go through a filter that drops PAN-like fields.', co('onyx-payments')],
  ['cust-helix-big-exports', S, 'fact', 99, 'Helix Genomics exports around 200 GB a month to their data lake and asked for Parquet instead of CSV.', co('helix-genomics')],
  ['cust-jade-chinese', S, 'preference', 101, 'Jade Hotels wants the console in Simplified Chinese for their front-desk managers.', co('jade-hotels')],
  ['cust-nimbus-partner', S, 'fact', 103, 'Nimbus Cloud resells us to their hosting customers and gets a 20 percent partner margin.', co('nimbus-cloud')],
  ['cust-waverly-procurement', S, 'fact', 105, 'Waverly University buys through a framework agreement, so quotes must reference the framework number.', co('waverly-uni')],
  ['cust-zinc-sla-credit', S, 'episode', 140, 'Zinc Telecom received a 10 percent service credit for the April outage under their SLA.', co('zinc-telecom')],

  // Incidents and fixes written by people.
  ['inc-april-outage', S, 'episode', 190, 'The April 9 outage: a certificate on the API load balancer expired at 03:12 UTC and every API call failed for 47 minutes. Renewal automation had been silently failing since a DNS change.'],
  ['inc-april-followup', S, 'decision', 193, 'After the April outage we added certificate expiry monitoring at 30, 14 and 3 days, and renewal failures now page the SRE on-call.'],
  ['inc-kafka-disk', 'project:ingest', 'episode', 130, 'In January the Kafka brokers ran out of disk because retention was set in bytes per partition and a new tenant created 400 partitions.'],
  ['inc-invoice-rounding', 'project:billing-api', 'episode', 140, 'In February some invoices were off by one cent because totals were rounded once per invoice; we now round each line item and sum.'],
  ['inc-console-blank', 'project:web-console', 'episode', 200, 'A release in April left the console blank for users with an ad blocker because the analytics script was loaded synchronously.'],
  ['inc-gdpr-delete', S, 'episode', 210, 'A GDPR deletion in May missed the ClickHouse copy of the data; erasure now fans out to ClickHouse, S3 archives and search.'],
  ['inc-ios-review', 'project:mobile-app', 'episode', 220, 'Apple rejected version 4.2 because the account deletion flow was hidden behind a support email; the app now deletes accounts in-app.'],
  ['inc-search-oom', 'project:search-service', 'episode', 225, 'OpenSearch nodes ran out of heap when one tenant ran a wildcard query over all fields; leading wildcards are now refused.'],
  ['inc-auth-clock', 'project:auth-gateway', 'episode', 230, 'Logins failed for a tenant whose identity provider clock was four minutes fast; the gateway now allows 120 seconds of skew.'],
  ['inc-staging-costs', 'project:infra', 'episode', 235, 'Staging cost 9,000 USD in one month because a load test left 40 instances running; staging now shuts down at night.'],

  // People facts beyond preferences.
  ['person-dana-allergy', 'user:dana', 'fact', 40, 'Dana is allergic to nuts; team dinners should be booked at restaurants that can handle it.'],
  ['person-omar-pronounce', 'user:omar', 'note', 42, "Omar's family name Haddad is stressed on the second syllable."],
  ['person-priya-mentor', 'user:priya', 'fact', 44, 'Priya mentors the two frontend interns and reviews their pull requests first.'],
  ['person-li-certs', 'user:li', 'fact', 46, 'Li holds the AWS Solutions Architect Professional certification and leads cloud cost reviews.'],
  ['person-kwame-languages', 'user:kwame', 'fact', 48, 'Kwame speaks English, French and Twi, and handles French-speaking customers himself.'],
  ['person-yuki-dbt', 'user:yuki', 'fact', 50, 'Yuki maintains the dbt project for the internal revenue dashboards.'],
  ['person-noah-pgp', 'user:noah', 'note', 52, 'Noah asks that vulnerability reports to him are encrypted with his PGP key from the security page.'],
  ['person-elena-board', 'user:elena', 'fact', 54, 'Elena presents engineering metrics to the board every quarter and needs numbers a week before.'],
  ['person-raj-finance', 'user:raj', 'fact', 56, 'Raj is the only engineer with access to the Stripe dashboard in live mode.'],
  ['person-tom-demo', 'user:tom', 'note', 58, 'Tom keeps a demo workspace called fernhill-demo-eu seeded with fake retail data.'],

  // Promises with owners.
  ['commit-acme-eta-api', S, 'commitment', 240, 'We told Acme Logistics an estimated-arrival event type would be in the API by the end of Q3.', co('acme-logistics')],
  ['commit-brightline-audit-log', S, 'commitment', 245, 'We promised Brightline Health a tamper-evident audit log export before their HIPAA assessment in October.', co('brightline-health')],
  ['commit-meridian-ips', S, 'commitment', 250, 'We promised Meridian Bank a fixed set of outbound IP addresses for webhooks.', co('meridian-bank')],
  ['commit-juniper-pause', S, 'commitment', 255, 'We agreed to pause Juniper Schools billing from July 1 to August 31.', co('juniper-schools')],
  ['commit-docs-python', S, 'commitment', 260, 'Ines committed to publishing the Python SDK quickstart before the October webinar.'],
  ['commit-mobile-tablet', 'project:mobile-app', 'commitment', 262, 'Mateo committed to tablet layouts for the Zephyr Air rollout in the next release train.'],

  // Revisions: the fact changed and a new version supersedes the old one.
  ['rev-standup-1', S, 'decision', 20, 'Daily standup is at 09:30 UTC on video.', { key: 'team.standup' }],
  ['rev-standup-2', S, 'decision', 180, 'Standup is now asynchronous: everyone posts in the standup thread by 11:00 their local time; the video call is gone.', { key: 'team.standup' }],
  ['rev-staging-url-1', S, 'fact', 30, 'Staging lives at staging.fernhill.dev and is reset every Sunday.', { key: 'env.staging' }],
  ['rev-staging-url-2', S, 'fact', 200, 'Staging moved to stage.fernhill.cloud with the new staging account and is no longer reset weekly.', { key: 'env.staging' }],
  ['rev-error-tracker-1', S, 'decision', 35, 'Errors from every service go to Rollbar.', { key: 'team.error-tracking' }],
  ['rev-error-tracker-2', S, 'decision', 150, 'We replaced Rollbar with Sentry for all services because Sentry groups Go and Rust stack traces better.', { key: 'team.error-tracking' }],
  ['rev-ci-minutes-1', S, 'fact', 40, 'CI uses GitHub Actions hosted runners on the Team plan with 3,000 minutes a month.', { key: 'team.ci-budget' }],
  ['rev-ci-minutes-2', S, 'fact', 210, 'CI moved to self-hosted runners on spot instances; there is no monthly minutes cap any more.', { key: 'team.ci-budget' }],
  ['rev-support-hours-1', S, 'fact', 20, 'Support is staffed 08:00 to 18:00 UTC on weekdays.', { key: 'support.hours' }],
  ['rev-support-hours-2', S, 'fact', 230, 'Support now covers 06:00 to 22:00 UTC on weekdays after Kwame hired two people in the Americas.', { key: 'support.hours' }],
  ['rev-release-train-1', S, 'decision', 25, 'Releases ship every second Wednesday on a release train.', { key: 'team.release-cadence' }],
  ['rev-release-train-2', S, 'decision', 170, 'The release train is gone: services deploy continuously from main behind feature flags.', { key: 'team.release-cadence' }],
  ['rev-node-version-1', S, 'decision', 15, 'The TypeScript services standardise on Node 20 LTS.', { key: 'team.node-version' }],
  ['rev-node-version-2', S, 'decision', 160, 'The TypeScript services standardise on Node 22 LTS now that 20 is in maintenance.', { key: 'team.node-version' }],
  ['rev-node-version-3', S, 'decision', 300, 'TypeScript services now target Node 24, which runs TypeScript directly with type stripping.', { key: 'team.node-version' }],
  ['rev-pager-1', S, 'fact', 10, 'Paging goes through Opsgenie.', { key: 'team.paging' }],
  ['rev-pager-2', S, 'fact', 120, 'Paging moved from Opsgenie to PagerDuty when Atlassian announced the Opsgenie end of sale.', { key: 'team.paging' }],
  ['rev-design-tool-1', S, 'fact', 12, 'Wireframes are made in Balsamiq before anything goes to Figma.', { key: 'team.wireframes' }],
  ['rev-design-tool-2', S, 'fact', 140, 'We stopped using Balsamiq; wireframes are drawn directly in Figma with the low-fidelity kit.', { key: 'team.wireframes' }],
  ['rev-acme-renewal-owner-1', S, 'fact', 60, 'Tom owns the Acme Logistics account relationship.', { key: 'acme-logistics.account-owner', subjects: ['company:acme-logistics'] }],
  ['rev-acme-renewal-owner-2', S, 'fact', 250, 'Sofia took over the Acme Logistics account from Tom in June because Acme now mainly asks product questions.', { key: 'acme-logistics.account-owner', subjects: ['company:acme-logistics'] }],
  ['rev-office-1', S, 'fact', 5, 'The team meets in person once a year in Lisbon in October.', { key: 'team.offsite' }],
  ['rev-office-2', S, 'fact', 270, 'The annual offsite moves to Berlin in 2025 and happens in November.', { key: 'team.offsite' }],
  // A revision without a key: the new memory names the one it replaces.
  ['rev-db-size-1', 'project:billing-api', 'fact', 50, 'The billing database is about 80 GB and grows 3 GB a month.'],
  ['rev-db-size-2', 'project:billing-api', 'fact', 260, 'The billing database reached 140 GB after usage-based invoicing launched and now grows 9 GB a month.', { supersedes: 'rev-db-size-1' }],
  ['rev-max-payload-1', S, 'fact', 40, 'The public ingestion API accepts batches of up to 500 events per request.'],
  ['rev-max-payload-2', S, 'fact', 215, 'The public ingestion API now accepts batches of up to 2,000 events or 1 MB per request, whichever comes first.', { supersedes: 'rev-max-payload-1' }],

  // Claims that were later withdrawn.
  ['retracted-soc2-type1', S, 'fact', 100, 'We have a SOC 2 Type I report only.', { retract: { at: '2025-03-20T10:00:00Z', reason: 'wrong: the Type II report was issued in January' } }],
  ['fact-soc2-type2', S, 'fact', 110, 'Fernhill has a SOC 2 Type II report covering January to December 2024; sales can share it under NDA.'],
  ['retracted-free-trial', S, 'fact', 60, 'The free trial lasts 30 days.', { retract: { at: '2025-02-10T10:00:00Z', reason: 'the trial was shortened to 14 days in January' } }],
  ['fact-free-trial', S, 'fact', 125, 'The free trial lasts 14 days and can be extended once by support.'],
];

export function buildCore(b: SetBuilder): void {
  for (const [id, scope, kind, day, body, extra] of ROWS) {
    const human = scope.startsWith('user:') ? `human:${scope.slice(5)}` : 'human:dana';
    b.add({ id, scope, kind, body, recorded: at(day, b.rng), by: human, ...extra });
  }
}
