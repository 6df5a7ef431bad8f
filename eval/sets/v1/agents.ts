/**
 * What coding agents keep in their own scopes: where things live, commands that work, flaky tests, gotchas
 * and test runs, mined from transcripts (so unverified). Both agents know overlapping things, which is what
 * an agent's own-scope search must not mix up.
 */
import { at, type SetBuilder } from './builder.ts';

interface ProjectNotes {
  paths: [string, string][];
  commands: [string, string][];
  flaky: [string, string][];
  gotchas: string[];
}

const NOTES: Record<string, ProjectNotes> = {
  'billing-api': {
    paths: [
      ['the invoice total calculation', 'src/invoices/totals.ts'],
      ['the Stripe webhook handler', 'src/webhooks/stripe.ts'],
      ['the tax rate tables', 'data/tax/rates-2025.json'],
      ['the dunning email templates', 'templates/dunning/'],
    ],
    commands: [
      ['regenerate the OpenAPI client', 'pnpm gen:client'],
      [
        'replay a Stripe webhook locally',
        'stripe trigger invoice.paid --forward-to localhost:4010/webhooks/stripe',
      ],
      ['seed a test tenant with invoices', 'pnpm seed --tenant demo --invoices 200'],
    ],
    flaky: [
      ['proration rounding', 'it depends on the wall clock crossing midnight UTC'],
      ['webhook signature', 'the fixture timestamp expires after five minutes'],
    ],
    gotchas: [
      'the tax service mock must be started before the invoice tests or they hang for 30 seconds',
      'amounts in fixtures are cents, so 1999 means 19.99',
      'the dunning job is disabled in staging; enable it with DUNNING_ENABLED=1',
    ],
  },
  'web-console': {
    paths: [
      ['the route definitions', 'src/routes.tsx'],
      ['the shared ErrorBanner component', 'src/components/ErrorBanner.tsx'],
      ['the generated API client', 'src/api/generated/'],
      ['the feature flag bootstrap', 'src/flags/bootstrap.ts'],
    ],
    commands: [
      ['run a single Playwright spec', 'npx playwright test e2e/billing.spec.ts --headed'],
      ['update Storybook snapshots', 'npm run chromatic -- --auto-accept-changes'],
      ['check bundle size', 'npm run analyze'],
    ],
    flaky: [
      ['date picker', 'it assumes the test machine is in UTC'],
      ['billing page e2e', 'it races the invoices request; wait for the table, not a timeout'],
    ],
    gotchas: [
      'Vite caches optimised dependencies in node_modules/.vite; delete it after switching branches with new packages',
      'dark mode colours must come from the theme tokens or Chromatic flags them',
      'the preview deploys use the staging API, not production',
    ],
  },
  ingest: {
    paths: [
      ['the event router', 'cmd/router/main.go'],
      ['the batch compaction logic', 'internal/batch/compact.go'],
      ['the ClickHouse schema', 'schema/clickhouse/'],
      ['the schema registry client', 'internal/registry/client.go'],
    ],
    commands: [
      ['tail the dead-letter topic', 'kcat -C -t events.dlq -o -20'],
      ['run only the router tests', 'go test ./internal/router/...'],
      ['rebuild the local ClickHouse tables', 'make ch-reset'],
    ],
    flaky: [
      ['consumer rebalance', 'it sleeps two seconds instead of waiting for the assignment'],
      ['compaction ordering', 'it relies on map iteration order'],
    ],
    gotchas: [
      'the integration tests need 6 GB of memory for Docker or Kafka exits silently',
      'event timestamps from the browser SDK are in milliseconds, the server SDKs send seconds',
      'make up fails on Apple silicon unless the ClickHouse image is pinned to the arm64 tag',
    ],
  },
  'mobile-app': {
    paths: [
      ['the navigation graph', 'android/app/src/main/res/navigation/main.xml'],
      ['the iOS deep link handler', 'ios/App/DeepLinks.swift'],
      ['the shared domain module', 'android/domain/'],
      ['the fastlane lanes', 'fastlane/Fastfile'],
    ],
    commands: [
      ['build a debug APK', './gradlew assembleDebug'],
      ['run the iOS snapshot tests', 'bundle exec fastlane ios snapshots'],
      ['upload a build to TestFlight', 'bundle exec fastlane ios beta'],
    ],
    flaky: [
      ['login screen UI', 'the keyboard animation covers the button on small emulators'],
      ['offline sync', 'it depends on the emulator network toggle taking effect'],
    ],
    gotchas: [
      'the iOS build needs Xcode 16; Xcode 15 fails on the Swift 6 concurrency checks',
      'Room migrations must be registered in AppDatabase or the app crashes on upgrade',
      'the Android emulator cannot reach localhost; use 10.0.2.2 for the local API',
    ],
  },
  infra: {
    paths: [
      ['the production VPC module', 'modules/network/'],
      ['the RDS cluster definitions', 'envs/prod/rds.tf'],
      ['the Datadog monitors', 'monitors/'],
      ['the IAM roles for CI', 'envs/shared/iam-ci.tf'],
    ],
    commands: [
      ['plan a single module', 'make plan TARGET=module.network'],
      ['see who holds the state lock', 'aws dynamodb scan --table-name tf-locks'],
      ['open a session on a private host', 'aws ssm start-session --target <instance-id>'],
    ],
    flaky: [
      ['terratest network', 'NAT gateway creation sometimes exceeds the ten-minute timeout'],
      ['checkov', 'it downloads policies at runtime and fails when GitHub rate-limits'],
    ],
    gotchas: [
      'staging and production share one Route 53 zone, so record names must be prefixed',
      'the RDS parameter group change needs a reboot that Terraform does not perform',
      'Atlantis ignores pull requests that only touch files outside envs/',
    ],
  },
  'docs-site': {
    paths: [
      ['the sidebar configuration', 'astro.config.mjs'],
      ['the API reference generator', 'scripts/gen-reference.ts'],
      ['the redirects', 'public/_redirects'],
      ['the Vale vocabulary', '.vale/styles/Vocab/Fernhill/accept.txt'],
    ],
    commands: [
      ['check links', 'npm run lint:links'],
      ['regenerate the API reference', 'npm run gen:reference'],
      ['preview the production build', 'npm run build && npm run preview'],
    ],
    flaky: [
      ['external link check', 'some vendor sites block the CI runner user agent'],
      ['search index build', 'Algolia crawler timing makes it fail right after a deploy'],
    ],
    gotchas: [
      'a page without a title in frontmatter breaks the sidebar build',
      'Vale rejects product names missing from the accept list',
      'images must go in src/assets or Astro will not optimise them',
    ],
  },
  'search-service': {
    paths: [
      ['the query parser', 'src/query/parser.rs'],
      ['the ranking function', 'src/rank/score.rs'],
      ['the relevance golden files', 'tests/golden/'],
      ['the index templates', 'opensearch/templates/'],
    ],
    commands: [
      ['update the golden files', 'UPDATE_GOLDEN=1 cargo nextest run relevance'],
      ['profile a slow query', 'cargo flamegraph --bin search -- --replay slow.json'],
      ['swap the index alias', 'cargo run --bin reindex -- --swap'],
    ],
    flaky: [
      ['tenant isolation', 'OpenSearch refresh has not happened when the assertion runs'],
      ['highlighting', 'it depends on analyzer settings that differ in the test cluster'],
    ],
    gotchas: [
      'OpenSearch in docker compose needs vm.max_map_count raised on Linux hosts',
      'the golden files are sensitive to analyzer changes, so review their diff line by line',
      'sccache must be disabled when building with the profiling feature',
    ],
  },
  'auth-gateway': {
    paths: [
      ['the OIDC callback handler', 'internal/oidc/callback.go'],
      ['the session cookie settings', 'internal/session/cookie.go'],
      ['the fake identity provider', 'testdata/fakeidp/'],
      ['the Envoy configuration', 'deploy/envoy.yaml'],
    ],
    commands: [
      ['run the gateway against the fake IdP', 'make dev'],
      ['run gosec only', 'make sec'],
      ['decode a session cookie for debugging', 'go run ./cmd/cookie-inspect'],
    ],
    flaky: [
      ['clock skew', 'token validation uses the real clock instead of the injected one'],
      ['Redis failover', 'the sentinel container takes longer than the test timeout to promote'],
    ],
    gotchas: [
      'SameSite=None cookies need Secure, so local development must use https on 8443',
      'the fake IdP signs with a fixed key id, so key rotation tests must override it',
      'Envoy drops headers with underscores by default',
    ],
  },
};

const AGENTS = ['claude-code', 'codex'] as const;
const AREAS = ['unit', 'integration', 'contract', 'lint', 'type check'];

export interface AgentFacts {
  /** label of a note by agent, project and topic (`paths:0`, `flaky:1`, ...). */
  notes: Map<string, string>;
}

/** Each agent knows a random share of each project's notes and logs test runs. */
export function buildAgents(b: SetBuilder): AgentFacts {
  const r = b.rng;
  const notes = new Map<string, string>();
  for (const agent of AGENTS) {
    for (const [project, n] of Object.entries(NOTES)) {
      const note = (topic: string, body: string, kind: 'note' | 'episode' = 'note'): void => {
        const d = r.int(0, 360);
        const label = b.add({
          id: `${agent}-${project}-${topic.replace(':', '-')}`,
          body,
          kind,
          scope: `agent:${agent}`,
          subjects: [`repo:${project}`],
          recorded: at(d, r),
          by: `agent:${agent}`,
          source: {
            connector: agent === 'codex' ? 'codex-rollout' : 'claude-code-transcript',
            id: `s-${d}-${topic}`,
          },
          confidence: 0.8,
        });
        notes.set(`${agent}|${project}|${topic}`, label);
      };
      n.paths.forEach(([thing, path], i) => {
        if (r.next() < 0.8) note(`paths:${i}`, `In ${project}, ${thing} is in ${path}.`);
      });
      n.commands.forEach(([goal, cmd], i) => {
        if (r.next() < 0.8) note(`commands:${i}`, `To ${goal} in ${project}: ${cmd}`);
      });
      n.flaky.forEach(([test, why], i) => {
        note(`flaky:${i}`, `The ${test} test in ${project} is flaky: ${why}.`);
      });
      n.gotchas.forEach((g, i) => {
        if (r.next() < 0.8) note(`gotchas:${i}`, `${project} gotcha: ${g}.`);
      });
      for (let run = 0; run < 7; run++) {
        const failed = r.next() < 0.4 ? r.int(1, 4) : 0;
        note(
          `run:${run}`,
          `Ran the ${project} ${r.pick(AREAS)} checks: ${r.int(40, 900)} passed, ${failed} failed${failed > 0 ? `, all in ${r.pick(n.paths)[1]}` : ''}.`,
          'episode',
        );
      }
    }
  }
  return { notes };
}
