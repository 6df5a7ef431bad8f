/**
 * The v2 categories' queries over ./conversations.ts, written by hand. Turn labels are `<conversation>-t<i>`.
 * The set's `now` (2025-09-30T17:00Z) is a Tuesday; a query with `at` is asked at another reference time.
 */
import type { EvalQueryInput } from '../../format.ts';
import { turn as t } from './conversations.ts';

type Q = Omit<EvalQueryInput, 'category' | 'id'>;

/** The question matches a turn; the answer is the reply to it. */
export const NEXT_TURN: Q[] = [
  { text: 'where do the staging database credentials live now', expect: [t('c-staging-creds', 1)] },
  { text: 'do I need a separate Vault role for staging', expect: [t('c-staging-creds', 3)] },
  { text: 'who owns the Postgres 11 upgrade for billing', expect: [t('c-pg-upgrade-2023', 1)] },
  { text: "who can cover Kwame's pager shift on Thursday night", expect: [t('c-oncall-swap', 1)] },
  { text: 'what slowed us down this sprint', expect: [t('c-retro-sep', 1), t('c-retro-sep', 2)] },
  { text: 'will the test phones for the mobile app come with us', expect: [t('c-office-move', 2)] },
  { text: 'is there a refresh cycle for laptops', expect: [t('c-laptop-refresh', 1)] },
  { text: 'can I go to a frontend conference in Berlin', expect: [t('c-conference', 1)] },
  {
    text: 'should we merge the Renovate pull requests before the release',
    expect: [t('c-dependency-freeze', 1)],
  },
  { text: 'do we keep RabbitMQ for the ingest rewrite', expect: [t('c-ingest-kafka-2022', 1)] },
  { text: 'how often do we push the app to the stores', expect: [t('c-mobile-release-train', 1)] },
  { text: 'who decides on ranking changes in the search service', expect: [t('c-search-lead', 1)] },
  { text: 'docs site search returns nothing for version numbers', expect: [t('c-docs-search', 1)] },
  { text: 'are we going with MySQL for billing', expect: [t('c-pg-choice', 1)] },
  { text: 'the invoice run keeps running out of Postgres connections', expect: [t('c-pg-pool-2025', 1)] },
  { text: 'the checkout test keeps failing on the card form', expect: [t('c-flaky-checkout-jul', 1)] },
];

/** Two memories are needed; the query is answered only when both are in the top k (`complete@k`). */
export const MULTI_HOP: Q[] = [
  {
    text: 'until what time on Fridays can the person who owns billing deploys be reached',
    expect: [t('c-billing-owner', 0), t('c-sofia-hours', 0)],
  },
  {
    text: 'what does the lead of the search service require on relevance pull requests',
    expect: [t('c-search-lead', 1), t('c-yuki-review', 0)],
  },
  {
    text: 'which network fix did the device lab need at the new office, and when did we move there',
    expect: [t('c-device-lab-after', 1), t('c-office-move', 0)],
  },
  {
    text: 'Acme Logistics: what broke their single sign-on, and what is Li doing about their exports',
    expect: [t('c-acme-escalation-old', 1), t('c-acme-escalation', 1)],
  },
  {
    text: 'which database did billing choose at the start, and how are its connections pooled now',
    expect: [t('c-pg-choice', 1), t('c-pg-pool-2025', 1)],
  },
  {
    text: 'how did Noah fix the checkout test in August, and what was the September failure',
    expect: [t('c-flaky-checkout-aug', 1), t('c-flaky-checkout-sep', 1)],
  },
  {
    text: 'what does the Berlin conference ticket cost and how much learning budget is there',
    expect: [t('c-conference', 0), t('c-conference', 1)],
  },
  {
    text: 'which release is ingest waiting for, and which queue does ingest run on',
    expect: [t('c-dependency-freeze', 1), t('c-ingest-kafka-2022', 1)],
  },
  {
    text: 'who approves the Vault policy for the staging credentials, and when do they rotate',
    expect: [t('c-staging-creds', 3), t('c-staging-creds', 1)],
  },
  {
    text: 'what did the last two retros decide as action items',
    expect: [t('c-retro-sep', 3), t('c-retro-aug', 2)],
  },
  {
    text: 'who swapped pager shifts with Yuki and who swapped with Chen',
    expect: [t('c-oncall-swap', 1), t('c-oncall-swap-old', 2)],
  },
  {
    text: 'who signs off the billing Postgres runbook, and who owns billing deploys since March',
    expect: [t('c-pg-upgrade-2023', 2), t('c-billing-owner', 0)],
  },
];

/** A time expression against the reference time (`at`, default the set's now) picks one of several look-alikes. */
export const TEMPORAL_REFERENCE: Q[] = [
  { text: 'what was wrong with the checkout test last month', expect: [t('c-flaky-checkout-aug', 1)] },
  { text: 'why did the checkout test fail in July', expect: [t('c-flaky-checkout-jul', 1)] },
  { text: 'who asked for pager cover yesterday', expect: [t('c-oncall-swap', 0)] },
  { text: 'what were the retro action items last week', expect: [t('c-retro-sep', 3)] },
  { text: 'what did the retro decide last month', expect: [t('c-retro-aug', 2)] },
  { text: 'which database did we pick for billing in April 2022', expect: [t('c-pg-choice', 1)] },
  { text: 'what was the plan for Postgres connections in April', expect: [t('c-pg-pool-2025', 1)] },
  { text: 'what did Acme Logistics escalate yesterday', expect: [t('c-acme-escalation', 0)] },
  { text: 'what was the Postgres plan in 2023', expect: [t('c-pg-upgrade-2023', 1)] },
  { text: 'what did we decide about the ingest queue in 2022', expect: [t('c-ingest-kafka-2022', 1)] },
  {
    text: 'what was the problem with the device lab phones before the move',
    expect: [t('c-device-lab-before', 0)],
    note: '"before the move" names an event by another memory: not resolved to a time',
  },
  {
    text: 'what broke the device lab phones after the move',
    expect: [t('c-device-lab-after', 0)],
    note: '"after the move" names an event by another memory: not resolved to a time',
  },
  {
    text: 'who asked for pager cover on Monday',
    at: '2025-09-25T10:00:00Z',
    expect: [t('c-oncall-swap-old', 0)],
  },
  {
    text: 'what did Priya report about the checkout test on Thursday',
    at: '2025-09-22T09:00:00Z',
    expect: [t('c-flaky-checkout-sep', 0)],
  },
  { text: 'what did Ines say about laptops in February', expect: [t('c-laptop-refresh', 1)] },
  {
    text: 'what did Acme Logistics escalate three months ago',
    expect: [t('c-acme-escalation-old', 0)],
  },
  { text: 'what was fixed in the docs search in May', expect: [t('c-docs-search', 1)] },
  {
    text: 'which checkout test fix landed two weeks ago',
    expect: [t('c-flaky-checkout-sep', 1)],
  },
];

/** The answer shares no content word with the question (the builder checks it with search's own stemming). */
export const PARAPHRASE_NO_OVERLAP: Q[] = [
  { text: 'where are preprod secrets kept these days?', expect: [t('c-staging-creds', 1)] },
  { text: 'how much money can I spend annually on courses and talks?', expect: [t('c-conference', 1)] },
  { text: 'when will I get a new notebook computer?', expect: [t('c-laptop-refresh', 1)] },
  { text: 'who is in charge of result ordering for the query engine?', expect: [t('c-search-lead', 1)] },
  { text: 'what cadence do we ship the phone app on?', expect: [t('c-mobile-release-train', 1)] },
  {
    text: 'why could the handsets not talk to the build machine after relocating?',
    expect: [t('c-device-lab-after', 0)],
  },
  {
    text: 'how do we store sums of currency precisely in the payments service?',
    expect: [t('c-pg-choice', 3)],
  },
  {
    text: 'what restored access for the shipping company after their identity provider change?',
    expect: [t('c-acme-escalation-old', 1)],
  },
  { text: 'what must accompany a proposal that alters scoring?', expect: [t('c-yuki-review', 0)] },
  {
    text: 'why did big spreadsheet downloads stall for the logistics client?',
    expect: [t('c-acme-escalation', 1)],
  },
  {
    text: 'which embedded third-party widget made the purchase flow check unreliable?',
    expect: [t('c-flaky-checkout-jul', 1)],
  },
  { text: 'who grants preprod secret permissions?', expect: [t('c-staging-creds', 3)] },
  { text: 'which message broker survived the rewrite evaluation?', expect: [t('c-ingest-kafka-2022', 1)] },
  {
    text: 'when can the pipeline service take library upgrades again?',
    expect: [t('c-dependency-freeze', 1)],
  },
  { text: 'how did we stop the database from hitting its client limit?', expect: [t('c-pg-pool-2025', 1)] },
  {
    text: 'why were amounts on the bill off by a cent in the Apple web client?',
    expect: [t('c-flaky-checkout-sep', 1)],
  },
];

/** Nothing in the set answers these; a confident top hit (eval/metrics.ts isConfident) is a false alarm. */
export const FALSE_PREMISE: Q[] = [
  { text: 'why did we move billing from Postgres to MongoDB', expect: [] },
  { text: 'when did ingest switch to Kafka', expect: [] },
  { text: 'who approved moving the docs site search to Elasticsearch', expect: [] },
  { text: 'why was the Harbour Works office lease cancelled', expect: [] },
  { text: 'what did the September retro say about hiring a designer', expect: [] },
  { text: 'how many phones were lost in the office move', expect: [] },
  { text: 'why did Yuki leave the search team', expect: [] },
  { text: 'what is the budget for home office furniture', expect: [] },
  { text: 'who broke production with the Renovate merge', expect: [] },
  { text: 'why did the mobile app stop shipping to TestFlight', expect: [] },
  { text: 'what did Noah say about his Windows laptop', expect: [] },
  { text: 'why did Sofia move to Berlin', expect: [] },
];
