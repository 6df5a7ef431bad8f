/**
 * Conversations for the v2 set, written by hand: chat threads, calls and pairing sessions of the Fernhill team,
 * one memory per turn, each conversation its own session (so its turns are each other's neighbours). Dates
 * spread over 2022–2025; several topics recur at different times, which is what time in the query must tell
 * apart.
 */

export interface Conversation {
  id: string;
  scope: string;
  /** When the first turn was said (UTC); each next turn follows a few minutes later. */
  start: string;
  turns: string[];
}

export const CONVERSATIONS: Conversation[] = [
  {
    id: 'c-pg-choice',
    scope: 'project:billing-api',
    start: '2022-04-12T09:30:00Z',
    turns: [
      'Omar: before we write any code for billing, are we going with MySQL like the old invoicing tool or something else?',
      'Dana: Postgres. We need proper transactional DDL for migrations, and the team already knows it.',
      'Omar: fine by me, I will set up the first schema with a ledger_entries table',
      'Dana: keep money as integer cents, no floats anywhere near invoices',
    ],
  },
  {
    id: 'c-pg-upgrade-2023',
    scope: 'project:billing-api',
    start: '2023-03-08T15:10:00Z',
    turns: [
      'Omar: the hosted Postgres 11 for billing goes end of life in November, who owns the upgrade?',
      'Raj: I can take it, planning a logical replication cutover to version 15 over a weekend',
      'Omar: ok, please write the runbook first and get Dana to sign it off',
      'Raj: ok 👍',
    ],
  },
  {
    id: 'c-pg-pool-2025',
    scope: 'project:billing-api',
    start: '2025-04-17T11:00:00Z',
    turns: [
      'Raj: billing keeps running out of Postgres connections during the invoice run at the start of the month',
      'Omar: we should put PgBouncer in transaction mode in front of it instead of raising max_connections again',
      'Raj: agreed, I will add it to the infra repo and cap the pool at 40',
    ],
  },
  {
    id: 'c-staging-creds',
    scope: 'project:infra',
    start: '2025-06-03T10:05:00Z',
    turns: [
      'Marco: does anyone know where the staging database credentials live now? the old .env on the jump box is gone',
      'Elena: They moved to Vault under ops/staging and rotate every Monday at 06:00 UTC, a CI job picks them up.',
      'Marco: perfect, do I need a separate Vault role for that?',
      'Elena: Yes, ask Kwame for the staging-reader policy, he approves those.',
      'Marco: great, thanks!',
    ],
  },
  {
    id: 'c-flaky-checkout-jul',
    scope: 'project:web-console',
    start: '2025-07-09T14:20:00Z',
    turns: [
      'Priya: the checkout end-to-end test failed three times this week on CI, always on the card form',
      'Noah: it is the iframe from the payment provider loading slowly, I will wait for its ready message instead of a fixed sleep',
      'Priya: thanks, mark it quarantined until your change lands',
    ],
  },
  {
    id: 'c-flaky-checkout-aug',
    scope: 'project:web-console',
    start: '2025-08-14T09:45:00Z',
    turns: [
      'Priya: checkout test is flaky again, this time the coupon step times out',
      'Noah: the coupon service mock was sharing state between workers; I gave each worker its own port and it has passed forty runs in a row',
      'Priya: great, un-quarantining it today',
      'Noah: 🎉',
    ],
  },
  {
    id: 'c-flaky-checkout-sep',
    scope: 'project:web-console',
    start: '2025-09-18T16:30:00Z',
    turns: [
      'Priya: the checkout test went red on main twice yesterday',
      'Amara: that was a real bug this time, the tax line rounded differently in Safari; fixed in the price formatter',
    ],
  },
  {
    id: 'c-oncall-swap',
    scope: 'shared',
    start: '2025-09-29T08:40:00Z',
    turns: [
      'Kwame: can somebody cover my pager shift on Thursday night? my daughter has a school concert',
      'Yuki: I will take it, you can have my Sunday in return',
      'Kwame: deal, I have updated the rotation in PagerDuty',
      'Yuki: np!',
    ],
  },
  {
    id: 'c-oncall-swap-old',
    scope: 'shared',
    start: '2025-09-22T09:15:00Z',
    turns: [
      'Jonas: anyone free to cover the pager on Saturday? I am at a wedding',
      'Chen: I can do Saturday if someone takes my Tuesday',
      'Jonas: I will take your Tuesday, swapping it in PagerDuty now',
      'Chen: thanks Jonas',
    ],
  },
  {
    id: 'c-retro-sep',
    scope: 'shared',
    start: '2025-09-23T15:00:00Z',
    turns: [
      'Dana: retro time. What slowed us down this sprint?',
      'Mateo: reviews waited two days on average because half the team was at the offsite',
      'Sofia: and the design for the usage page changed after we had built it',
      'Dana: action items: a review buddy for each person while others travel, and designs frozen before sprint planning',
    ],
  },
  {
    id: 'c-retro-aug',
    scope: 'shared',
    start: '2025-08-26T15:00:00Z',
    turns: [
      'Dana: retro. What went well and what did not?',
      'Li: the ingest rewrite shipped on time, but the release notes were written at the last minute',
      'Dana: action item: whoever merges a user-facing change writes its release note in the same pull request',
      'Li: sounds good',
    ],
  },
  {
    id: 'c-office-move',
    scope: 'shared',
    start: '2025-05-20T12:00:00Z',
    turns: [
      'Ines: the lease on the Canal Street office ends on June 30, we move to the new space at Harbour Works on July 1',
      'Tom: will the test phones for the mobile app come with us?',
      'Ines: yes, the device lab moves in the same van on June 30, it will be offline that afternoon',
    ],
  },
  {
    id: 'c-device-lab-before',
    scope: 'project:mobile-app',
    start: '2025-06-10T10:30:00Z',
    turns: [
      'Tom: the Android 11 phone in the device lab keeps dropping off Wi-Fi, I put it on a USB hub for now',
      'Chen: I will order a replacement Pixel, the old one is four years old anyway',
    ],
  },
  {
    id: 'c-device-lab-after',
    scope: 'project:mobile-app',
    start: '2025-07-15T10:30:00Z',
    turns: [
      'Tom: since we settled in at Harbour Works the device lab phones cannot reach the CI runner, the guest network isolates them',
      'Kwame: I put the lab on its own VLAN with a route to the runner, try again',
      'Tom: works now, all nine phones are back in the pool',
    ],
  },
  {
    id: 'c-billing-owner',
    scope: 'project:billing-api',
    start: '2025-03-04T13:00:00Z',
    turns: [
      'Dana: from next week Sofia owns billing deploys; Omar is moving to the search team',
      'Omar: I will pair with her on the release checklist on Friday',
      'Dana: perfect, thanks Omar',
    ],
  },
  {
    id: 'c-sofia-hours',
    scope: 'shared',
    start: '2025-03-11T09:00:00Z',
    turns: [
      'Sofia: heads up, I work from Stockholm and I am offline after 16:00 CET on Fridays for my kids',
      'Mateo: noted, I will not schedule releases with you late on Fridays then',
      'Sofia: thanks Mateo!',
    ],
  },
  {
    id: 'c-search-lead',
    scope: 'project:search-service',
    start: '2025-03-18T10:00:00Z',
    turns: [
      'Omar: first week on search. Who decides on the ranking changes here?',
      'Li: Yuki leads the search service, anything touching relevance goes through her',
    ],
  },
  {
    id: 'c-yuki-review',
    scope: 'project:search-service',
    start: '2025-04-02T11:20:00Z',
    turns: [
      'Yuki: for relevance changes I want an offline evaluation run attached to the pull request, before and after',
      'Omar: against the golden query set in the repo?',
      'Yuki: yes, and a note if any query lost more than one rank',
      'Omar: ok, will do',
    ],
  },
  {
    id: 'c-acme-escalation',
    scope: 'shared',
    start: '2025-09-29T16:05:00Z',
    turns: [
      'Amara: Acme Logistics escalated again, their CSV exports have been timing out since the weekend',
      'Li: the export query scans the whole events table; I will add the missing index on (account_id, created_at) tonight',
      'Amara: I told their admin we would have a fix by Wednesday',
      'Li: ok',
    ],
  },
  {
    id: 'c-acme-escalation-old',
    scope: 'shared',
    start: '2025-06-16T10:00:00Z',
    turns: [
      'Amara: Acme Logistics says their single sign-on broke after they rotated their Okta certificate',
      'Raj: we cache the signing certificate for a day; I flushed it and they can log in again',
    ],
  },
  {
    id: 'c-laptop-refresh',
    scope: 'shared',
    start: '2025-02-05T09:10:00Z',
    turns: [
      'Noah: my laptop battery lasts about forty minutes now, is there a refresh cycle?',
      'Ines: every three years, and yours is from 2021, so fill in the hardware form and IT will ship one within two weeks',
    ],
  },
  {
    id: 'c-conference',
    scope: 'shared',
    start: '2025-01-21T14:00:00Z',
    turns: [
      'Chen: can I go to a frontend conference in Berlin in May? the ticket is 600 euros',
      'Dana: yes, each person has 1,500 euros a year for learning; book it through Ines so it is invoiced to us',
      'Chen: thank you!',
    ],
  },
  {
    id: 'c-dependency-freeze',
    scope: 'project:ingest',
    start: '2025-09-26T11:30:00Z',
    turns: [
      'Li: Renovate opened twelve pull requests for ingest this morning, should we merge them before the release?',
      'Jonas: no, nothing but security patches until the 2.4 release is out on October 8',
    ],
  },
  {
    id: 'c-ingest-kafka-2022',
    scope: 'project:ingest',
    start: '2022-11-02T10:00:00Z',
    turns: [
      'Jonas: the ingest queue is RabbitMQ today, do we keep it for the rewrite?',
      'Li: we tried Kafka in a spike and it was too heavy to run for a team our size; we stay on RabbitMQ with quorum queues',
    ],
  },
  {
    id: 'c-mobile-release-train',
    scope: 'project:mobile-app',
    start: '2025-08-05T09:00:00Z',
    turns: [
      'Tom: how often do we push the app to the stores these days?',
      'Chen: every second Thursday; the build is cut on Tuesday and goes to TestFlight and the Play internal track first',
      'Tom: cool, thanks',
    ],
  },
  {
    id: 'c-docs-search',
    scope: 'project:docs-site',
    start: '2025-05-07T13:30:00Z',
    turns: [
      'Elena: the docs site search returns nothing for version numbers like 2.3',
      'Mateo: Algolia strips the dot by default; I added it to the separators to index and reindexed, try now',
      'Elena: works, thanks',
    ],
  },
];

/** The label of turn `i` (0-based) of conversation `id`. */
export const turn = (id: string, i: number): string => `${id}-t${i}`;
