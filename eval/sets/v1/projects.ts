/**
 * Projects: eight repositories with their conventions, hand-written per project and stored in each project's
 * scope under `<project>.<attribute>`. The same attribute differs from project to project, which is what
 * makes scoped questions ("which test runner do we use here?") able to leak.
 */
import { at, type SetBuilder } from './builder.ts';

export interface Project {
  id: string;
  title: string;
  /** attribute → full sentence. */
  conventions: Record<string, string>;
  /** attribute → a later sentence replacing it (same key, months later). */
  changes?: Record<string, string>;
}

export const PROJECTS: Project[] = [
  {
    id: 'billing-api',
    title: 'billing API',
    conventions: {
      runtime: 'The billing API runs on Node 22 with TypeScript compiled by tsc.',
      packages: 'billing-api uses pnpm; never commit a package-lock.json there.',
      tests: 'billing-api tests run with Jest; integration tests need the docker compose Postgres up first.',
      lint: 'billing-api lints with ESLint and the shared fernhill config.',
      branches: 'Branches in billing-api are named bill/<ticket>-<short-description>.',
      commits:
        'billing-api commit messages follow Conventional Commits with the scope set to the module name.',
      ci: 'billing-api CI runs on GitHub Actions; the required checks are lint, unit and contract tests.',
      deploy: 'billing-api deploys to ECS Fargate through the release workflow after a manual approval.',
      database: 'billing-api stores invoices in Postgres 15; money columns are bigint cents.',
      migrations:
        'billing-api schema migrations use node-pg-migrate and must be backwards compatible for one release.',
      logging: 'billing-api logs with pino; never log full card numbers or invoice PDFs.',
      errors: 'billing-api reports exceptions to Sentry under the billing project.',
      flags: 'billing-api feature flags live in LaunchDarkly under the billing environment.',
      owners: 'Raj Patel and Omar Haddad own billing-api; changes to invoice math need both.',
      release: 'billing-api releases every Tuesday; no releases in the last three days of a month.',
      local: 'To run billing-api locally: pnpm install, docker compose up db, then pnpm dev on port 4010.',
      api: 'billing-api exposes REST with JSON:API style error objects.',
      coverage: 'billing-api requires 85 percent line coverage on changed files.',
      oncall: 'billing-api pages the payments on-call rotation in PagerDuty.',
    },
    changes: {
      tests:
        'billing-api moved its tests from Jest to Vitest in March; run pnpm vitest, the Jest config is gone.',
      runtime: 'billing-api now runs on Node 24 with type stripping; there is no tsc build step any more.',
    },
  },
  {
    id: 'web-console',
    title: 'web console',
    conventions: {
      runtime: 'The web console is a React 18 single-page app built with Vite.',
      packages: 'web-console uses npm workspaces; the lockfile is package-lock.json.',
      tests: 'web-console unit tests use Vitest with Testing Library; end-to-end tests use Playwright.',
      lint: 'web-console lints with ESLint plus the jsx-a11y plugin; accessibility warnings fail CI.',
      branches: 'web-console branches are named <type>/<ticket>-<slug>, for example feat/WEB-412-dark-mode.',
      commits: 'web-console uses Conventional Commits; the release notes are generated from them.',
      ci: 'web-console CI runs on GitHub Actions with a Chromatic visual diff check.',
      deploy: 'web-console deploys to Cloudflare Pages; every pull request gets a preview URL.',
      database: 'web-console has no database of its own and talks to the public API only.',
      migrations: 'web-console stores user settings through the settings API, so it has no migrations.',
      logging: 'web-console sends client errors to Sentry with session replay turned off for privacy.',
      errors: 'web-console shows API errors with the shared ErrorBanner component, never raw messages.',
      flags: 'web-console reads feature flags from LaunchDarkly client-side with the bootstrap payload.',
      owners: 'Priya Raman owns web-console; Amara Okafor reviews anything visual.',
      release: 'web-console ships continuously from main after the Playwright suite passes.',
      local: 'To run web-console locally: npm install, then npm run dev, which serves on port 5173.',
      api: 'web-console uses the generated OpenAPI client; do not hand-write fetch calls.',
      coverage: 'web-console has no coverage gate but every component needs a Storybook story.',
      oncall: 'web-console incidents go to the frontend on-call in PagerDuty.',
    },
    changes: {
      runtime: 'web-console upgraded to React 19 in May; class components are no longer allowed.',
    },
  },
  {
    id: 'ingest',
    title: 'ingest pipeline',
    conventions: {
      runtime: 'The ingest workers are written in Go 1.23 and run as Kubernetes deployments.',
      packages: 'ingest uses Go modules with vendoring turned off.',
      tests: 'ingest tests use go test with testify; run make test-integration for the Kafka tests.',
      lint: 'ingest lints with golangci-lint using the repository .golangci.yml.',
      branches: 'ingest branches are named ing-<ticket>; no slashes because of the CI cache keys.',
      commits: 'ingest commit messages start with the package name, like "router: drop empty batches".',
      ci: 'ingest CI runs on Buildkite because it needs larger machines for the Kafka tests.',
      deploy: 'ingest deploys with Argo CD from the ingest-deploy repository.',
      database: 'ingest writes events to ClickHouse and keeps offsets in Kafka.',
      migrations: 'ingest ClickHouse schema changes go through goose migrations reviewed by Yuki.',
      logging: 'ingest logs with zerolog at info level; debug logging is sampled at one percent.',
      errors: 'ingest sends errors to Sentry and exports metrics to Prometheus.',
      flags: 'ingest has no feature flag service; behaviour changes go behind environment variables.',
      owners: 'Jonas Becker and Yuki Tanaka own ingest.',
      release: 'ingest releases are cut on Mondays and rolled out by region, EU first.',
      local: 'To run ingest locally: make up starts Kafka and ClickHouse, then go run ./cmd/router.',
      api: 'ingest accepts events over HTTP and gRPC; HTTP payloads are capped at 1 MB.',
      coverage: 'ingest requires 70 percent coverage on the router package.',
      oncall: 'ingest pages the data platform on-call rotation.',
    },
    changes: {
      ci: 'ingest moved from Buildkite to GitHub Actions with large runners in July.',
    },
  },
  {
    id: 'mobile-app',
    title: 'mobile app',
    conventions: {
      runtime: 'The mobile app is native: Kotlin with Jetpack Compose on Android and SwiftUI on iOS.',
      packages: 'mobile-app uses Gradle version catalogs on Android and Swift Package Manager on iOS.',
      tests: 'mobile-app unit tests use JUnit and XCTest; UI tests run on Firebase Test Lab.',
      lint: 'mobile-app runs ktlint and SwiftLint in pre-commit hooks.',
      branches: 'mobile-app branches are named mobile/<ticket>; releases branch as release/<version>.',
      commits: 'mobile-app commit messages are free-form but must mention the ticket id.',
      ci: 'mobile-app CI runs on Bitrise; signing happens only on the release workflow.',
      deploy: 'mobile-app ships to the stores through fastlane with a staged rollout starting at 10 percent.',
      database: 'mobile-app caches data locally in Room on Android and Core Data on iOS.',
      migrations: 'mobile-app local schema migrations must be tested from the previous two app versions.',
      logging: 'mobile-app uses Timber on Android and OSLog on iOS; no personal data in logs.',
      errors: 'mobile-app crash reports go to Firebase Crashlytics.',
      flags: 'mobile-app reads remote config from Firebase for feature switches.',
      owners: 'Mateo Alvarez owns mobile-app.',
      release: 'mobile-app releases every two weeks on Thursday after QA sign-off.',
      local:
        'To run mobile-app locally open the android folder in Android Studio or the ios workspace in Xcode.',
      api: 'mobile-app talks to the public API through the generated Kotlin and Swift clients.',
      coverage: 'mobile-app has a 60 percent coverage gate on the shared domain module.',
      oncall: 'mobile-app has no on-call; crashes above 1 percent page the engineering manager.',
    },
  },
  {
    id: 'infra',
    title: 'infrastructure',
    conventions: {
      runtime: 'Infrastructure is Terraform 1.9 with the AWS provider, state in S3 with DynamoDB locking.',
      packages: 'infra pins provider versions in versions.tf and updates them monthly with Renovate.',
      tests: 'infra modules are tested with terratest in a sandbox account.',
      lint: 'infra runs tflint and checkov on every pull request.',
      branches: 'infra branches are named infra/<ticket>-<what>.',
      commits: 'infra commit messages name the environment they touch, like "[prod] raise RDS storage".',
      ci: 'infra plans run in Atlantis; apply is done by commenting atlantis apply after approval.',
      deploy: 'infra changes are applied to staging first and to production after 24 hours.',
      database: 'infra manages RDS Postgres clusters with automated snapshots kept 14 days.',
      migrations: 'infra state moves use terraform state mv in a reviewed pull request, never by hand.',
      logging: 'infra ships logs to Datadog; retention is 15 days for debug and 90 days for audit.',
      errors: 'infra alerts are defined in Datadog monitors managed as code.',
      flags: 'infra uses Terraform workspaces per environment instead of flags.',
      owners: 'Li Wei owns infra; Noah Brennan reviews IAM changes.',
      release: 'infra has a change freeze from December 15 to January 5 every year.',
      local: 'To work on infra locally use the aws-vault profile fernhill-dev and run make plan.',
      api: 'infra exposes no API; services discover each other through AWS Cloud Map.',
      coverage: 'infra has no coverage metric; every module needs an example in its examples folder.',
      oncall: 'infra pages the SRE rotation, with Li as the escalation contact.',
    },
    changes: {
      logging:
        'infra moved log shipping from Datadog to Grafana Loki in August to cut cost; retention is now 30 days.',
    },
  },
  {
    id: 'docs-site',
    title: 'documentation site',
    conventions: {
      runtime: 'The docs site is built with Astro Starlight.',
      packages: 'docs-site uses npm and pins Astro to a minor version.',
      tests: 'docs-site checks links with lychee and runs Vale for style.',
      lint: 'docs-site lints Markdown with markdownlint and the Vale Google style.',
      branches: 'docs-site branches are named docs/<topic>.',
      commits: 'docs-site commit messages are plain sentences; no Conventional Commits required.',
      ci: 'docs-site CI runs on GitHub Actions and builds a preview for each pull request.',
      deploy: 'docs-site deploys to Netlify from main.',
      database: 'docs-site has no database; search is served by Algolia DocSearch.',
      migrations: 'docs-site redirects for moved pages live in the _redirects file.',
      logging: 'docs-site uses Plausible for privacy-friendly page analytics.',
      errors: 'docs-site build failures notify the docs channel.',
      flags: 'docs-site hides unreleased features with the draft frontmatter flag.',
      owners: 'Ines Moreau owns docs-site.',
      release: 'docs-site ships on merge; API reference pages regenerate nightly.',
      local: 'To run docs-site locally: npm install, then npm run dev on port 4321.',
      api: 'docs-site API reference is generated from the OpenAPI document of the public API.',
      coverage: 'docs-site requires every public endpoint to have a reference page.',
      oncall: 'docs-site has no on-call; outages go to the web on-call.',
    },
  },
  {
    id: 'search-service',
    title: 'search service',
    conventions: {
      runtime: 'The search service is written in Rust with Axum and Tokio.',
      packages: 'search-service uses Cargo with a committed Cargo.lock.',
      tests: 'search-service tests use cargo nextest; relevance tests compare against golden files.',
      lint: 'search-service runs clippy with warnings as errors and rustfmt.',
      branches: 'search-service branches are named search/<ticket>.',
      commits: 'search-service uses Conventional Commits.',
      ci: 'search-service CI runs on GitHub Actions with sccache.',
      deploy: 'search-service deploys to Kubernetes with Helm; canary at 5 percent for an hour.',
      database: 'search-service keeps its index in OpenSearch 2 with one index per tenant tier.',
      migrations: 'search-service reindexes through an alias swap, never in place.',
      logging: 'search-service logs with tracing in JSON and includes the tenant id.',
      errors: 'search-service errors go to Sentry; slow queries are logged above 500 ms.',
      flags: 'search-service reads flags from LaunchDarkly through the server SDK.',
      owners: 'Jonas Becker owns search-service.',
      release: 'search-service releases weekly on Wednesday.',
      local: 'To run search-service locally: docker compose up opensearch, then cargo run on port 7700.',
      api: 'search-service exposes gRPC internally; the public API proxies it.',
      coverage: 'search-service has no coverage gate; relevance regressions block instead.',
      oncall: 'search-service pages the backend on-call.',
    },
  },
  {
    id: 'auth-gateway',
    title: 'auth gateway',
    conventions: {
      runtime: 'The auth gateway is a Go service in front of every API, using Envoy for TLS.',
      packages: 'auth-gateway uses Go modules and must pass govulncheck.',
      tests: 'auth-gateway tests use go test with table-driven cases and a fake identity provider.',
      lint: 'auth-gateway lints with golangci-lint and gosec.',
      branches: 'auth-gateway branches are named auth/<ticket>.',
      commits: 'auth-gateway requires signed commits and Conventional Commits.',
      ci: 'auth-gateway CI runs on GitHub Actions with a required security review check.',
      deploy: 'auth-gateway deploys blue-green on Kubernetes; rollback is a service selector switch.',
      database: 'auth-gateway keeps sessions in Redis with a 12-hour idle timeout.',
      migrations: 'auth-gateway has no schema; session format changes must read the previous format.',
      logging: 'auth-gateway logs every authentication decision without tokens or passwords.',
      errors: 'auth-gateway errors go to Sentry with user identifiers hashed.',
      flags: 'auth-gateway flags are static config reviewed by Noah.',
      owners: 'Noah Brennan owns auth-gateway.',
      release: 'auth-gateway releases need a security sign-off and happen on Thursdays.',
      local: 'To run auth-gateway locally: make dev starts it with the fake identity provider on port 8443.',
      api: 'auth-gateway speaks OIDC to identity providers and issues short-lived session cookies.',
      coverage: 'auth-gateway requires 90 percent coverage.',
      oncall: 'auth-gateway pages the security on-call first, then the backend on-call.',
    },
  },
];

/** Conventions in project scopes, written by the owners or by agents whose proposals a reviewer approved. */
export function buildProjects(b: SetBuilder): void {
  for (const p of PROJECTS) {
    for (const [attr, body] of Object.entries(p.conventions)) {
      const day = b.rng.int(0, 150);
      const byAgent = b.rng.next() < 0.3;
      b.add({
        id: `proj-${p.id}-${attr}`,
        body,
        kind: attr === 'owners' ? 'fact' : 'decision',
        scope: `project:${p.id}`,
        key: `${p.id}.${attr}`,
        recorded: at(day, b.rng),
        by: byAgent ? b.rng.pick(['agent:claude-code', 'agent:codex']) : 'human:dana',
        ...(byAgent
          ? { review: { action: 'approve' as const, at: at(day + 1, b.rng), by: 'human:dana' } }
          : {}),
      });
    }
    for (const [attr, body] of Object.entries(p.changes ?? {})) {
      b.add({
        id: `proj-${p.id}-${attr}-2`,
        body,
        kind: 'decision',
        scope: `project:${p.id}`,
        key: `${p.id}.${attr}`,
        recorded: at(b.rng.int(170, 320), b.rng),
        by: 'human:dana',
      });
    }
  }
}
