/**
 * Fragments written for the mining set: notes files (AGENTS.md-like, Obsidian and Basic Memory style) and
 * transcripts in the real Claude Code and Codex shapes, with the hard cases the public fragments lack:
 * paragraphs of several facts, filler, secrets beside real claims, explicit requests, and errors whose fix
 * does or does not talk about them. Labels say what a reviewer would want proposed, written before the rules
 * were tuned.
 */
import type { FragmentInput } from '../../mining/format.ts';
import { claude, codex, decision, fact, note, notes, preference } from './lib.ts';

const written = (
  id: string,
  connector: FragmentInput['connector'],
  about: string,
  lines: FragmentInput['lines'],
  forbid: string[] = [],
): FragmentInput => ({
  id,
  connector,
  origin: 'written',
  about,
  lines,
  ...(forbid.length === 0 ? {} : { forbid }),
});

const GH_TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const AWS_KEY = 'AKIAZ3MHQ7TK2XLN4W8P';
const DB_PASSWORD = 'Hunter2pass9';
const PRIVATE_KEY_LINE = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW';
const STRIPE_KEY = 'sk_live_51HxQz2KfY7bVt9WcR3mNpL8aD4eG6hJ0kS';

export function writtenFragments(): FragmentInput[] {
  const out: FragmentInput[] = [];
  const add = (f: FragmentInput) => out.push(f);

  // --- notes -------------------------------------------------------------------------------------------------
  add(
    written(
      'notes-five-facts-weather',
      'folder',
      'a paragraph of five facts and a line of filler',
      notes(
        '# Billing',
        '',
        [
          'The billing service runs on Postgres 16. Invoices are generated at 02:00 UTC by a cron job.',
          [
            note('The billing service runs on Postgres 16.'),
            note('Invoices are generated at 02:00 UTC by a cron job.'),
          ],
        ],
        [
          'The ledger table is append-only. Refunds go through the payments team. Currency amounts are',
          [note('The ledger table is append-only.'), note('Refunds go through the payments team.')],
        ],
        [
          'stored in minor units. The weather was nice today.',
          [note('Currency amounts are stored in minor units.')],
          'the weather is filler',
        ],
      ),
    ),
  );
  add(
    written(
      'notes-secret-line-wrapped',
      'folder',
      'a hard-wrapped paragraph whose middle line holds a token',
      notes(
        '## Deploys',
        [
          'Staging lives at staging.acme.internal and is rebuilt every night.',
          note('Staging lives at staging.acme.internal and is rebuilt every night.'),
        ],
        [`The deploy bot pushes with ${GH_TOKEN}`, undefined, 'a credential: dropped on its own'],
        [
          'Production deploys need two approvals in the release channel.',
          note('Production deploys need two approvals in the release channel.'),
        ],
      ),
      [GH_TOKEN],
    ),
  );
  add(
    written(
      'notes-narration-bullets',
      'folder',
      'a session log: narration bullets beside two facts',
      notes(
        '## Session log',
        ['- Let me check the deploy script tomorrow.', undefined, 'narration'],
        ['- I looked at the flaky test but found nothing.', undefined, 'what someone did, no claim'],
        ['- Okay, moving on to the API docs.', undefined, 'narration'],
        [
          '- The public API allows 600 requests per minute per token.',
          note('The public API allows 600 requests per minute per token.'),
        ],
        [
          '- Retries use exponential backoff capped at 30 seconds.',
          note('Retries use exponential backoff capped at 30 seconds.'),
        ],
      ),
    ),
  );
  add(
    written(
      'notes-basic-memory',
      'folder',
      'a Basic Memory note: front matter, an observation with a category and tag, a relation, filler',
      notes(
        '---',
        'title: Search service',
        'tags: [search, infra]',
        '---',
        '# Search service',
        [
          'The search index is rebuilt nightly from the `docs.events` Kafka topic.',
          note('The search index is rebuilt nightly from the `docs.events` Kafka topic.'),
        ],
        [
          '- [decision] We chose OpenSearch over Elasticsearch because of the license. #search',
          decision('We chose OpenSearch over Elasticsearch because of the license.'),
        ],
        ['- relates_to [[Billing]]', undefined, 'a relation, not a claim'],
        ['Meeting went well, everyone was in a good mood.', undefined, 'filler'],
      ),
    ),
  );
  add(
    written(
      'notes-secret-sentence',
      'folder',
      'one line: a fact, an access key, a fact',
      notes([
        `Our assets bucket is acme-prod-assets. The access key is ${AWS_KEY}. Uploads are limited to 50 MB.`,
        [note('Our assets bucket is acme-prod-assets.'), note('Uploads are limited to 50 MB.')],
        'the key sentence is dropped, its neighbours kept',
      ]),
      [AWS_KEY],
    ),
  );
  add(
    written(
      'notes-password-url',
      'folder',
      'a bullet with a password in a URL between two facts',
      notes(
        [
          '- The reporting database is read-only for agents.',
          note('The reporting database is read-only for agents.'),
        ],
        [
          `- Connect with postgres://report:${DB_PASSWORD}@db.acme.internal:5432/reports`,
          undefined,
          'a credential',
        ],
        ['- Reports refresh every 15 minutes.', note('Reports refresh every 15 minutes.')],
      ),
      [DB_PASSWORD],
    ),
  );
  add(
    written(
      'notes-decisions-todo',
      'folder',
      'decisions with reasons, and a to-do',
      notes(
        '## Decisions',
        [
          '- 2025-03-02: We moved CI from Jenkins to GitHub Actions because Jenkins upkeep cost a day a week.',
          decision('We moved CI from Jenkins to GitHub Actions because Jenkins upkeep cost a day a week.'),
        ],
        [
          '- We keep the monorepo since shared types would drift across repositories.',
          decision('We keep the monorepo since shared types would drift across repositories.'),
        ],
        ['- TODO: ask Sam about the new laptop.', undefined, 'a to-do'],
      ),
    ),
  );
  add(
    written(
      'notes-standup',
      'folder',
      'a standup note: a question, a sick day, a blocker, lunch',
      notes(
        '# Standup 2025-04-03',
        ['- What is blocking the release?', undefined, 'a question'],
        ['- Sam is out sick today.', undefined, 'of the day only'],
        ['- The 4.2 release is blocked on the SSO fix.', note('The 4.2 release is blocked on the SSO fix.')],
        '',
        ['Lunch was great.', undefined, 'filler'],
      ),
    ),
  );
  add(
    written(
      'notes-conventions',
      'folder',
      'conventions, one bullet wrapped over two lines',
      notes(
        '## Conventions',
        [
          '- Always run `pnpm lint` before pushing; CI rejects unformatted code.',
          preference('Always run `pnpm lint` before pushing; CI rejects unformatted code.'),
        ],
        [
          '- Never edit files under `src/generated/`, they are rebuilt from the',
          preference(
            'Never edit files under `src/generated/`, they are rebuilt from the OpenAPI spec on every build.',
          ),
        ],
        '  OpenAPI spec on every build.',
        [
          '- Commit messages follow Conventional Commits.',
          preference('Commit messages follow Conventional Commits.'),
        ],
      ),
    ),
  );
  add(
    written(
      'notes-customer-prose',
      'folder',
      'meeting prose: two customer facts among small talk',
      notes(
        [
          "We met with the Acme team on Tuesday and it was a long meeting. Acme's fiscal year starts in April.",
          note("Acme's fiscal year starts in April."),
        ],
        [
          'Their main contact is Dana Reyes, who prefers email over calls. I think the coffee there was terrible.',
          note('Their main contact is Dana Reyes, who prefers email over calls.'),
        ],
      ),
    ),
  );
  add(
    written(
      'notes-task-list',
      'folder',
      'check-box tasks beside a fact',
      notes(
        ['- [x] Migrate the users table to UUID keys', undefined, 'a task'],
        ['- [ ] Migrate the orders table', undefined, 'a task'],
        ['- The orders table still uses integer keys.', note('The orders table still uses integer keys.')],
      ),
    ),
  );
  add(
    written(
      'notes-private-key',
      'folder',
      'a private key block between two facts',
      notes(
        [
          'The SFTP host for Globex is sftp.globex.example.',
          note('The SFTP host for Globex is sftp.globex.example.'),
        ],
        ['-----BEGIN OPENSSH PRIVATE KEY-----', undefined, 'a credential'],
        [PRIVATE_KEY_LINE, undefined, 'a credential'],
        ['-----END OPENSSH PRIVATE KEY-----', undefined, 'a credential'],
        ['Globex sends the files every Monday.', note('Globex sends the files every Monday.')],
      ),
      [PRIVATE_KEY_LINE],
    ),
  );
  add(
    written(
      'notes-daily',
      'folder',
      'a daily note: weather, one thing learned, a mood',
      notes(
        '---',
        'date: 2025-05-12',
        '---',
        '# 2025-05-12',
        ['Rainy morning, took the bus.', undefined, 'filler'],
        [
          'Learned that the `orders` API paginates with cursors, not page numbers.',
          note('The `orders` API paginates with cursors, not page numbers.'),
        ],
        ['Feeling tired after the offsite.', undefined, 'filler'],
      ),
    ),
  );
  add(
    written(
      'notes-agents-md',
      'folder',
      'an AGENTS.md with rules, a stack line and a pointer',
      notes(
        '# AGENTS.md',
        '',
        '## Rules',
        [
          '- Use `uv` for Python dependencies, not pip.',
          preference('Use `uv` for Python dependencies, not pip.'),
        ],
        [
          '- Do not add new dependencies without asking.',
          preference('Do not add new dependencies without asking.'),
        ],
        ['- See docs/CONTRIBUTING.md for more.', undefined, 'a pointer, no claim'],
        '',
        '## Stack',
        [
          'The API is FastAPI on Python 3.12; the worker uses Celery with Redis as the broker.',
          note('The API is FastAPI on Python 3.12; the worker uses Celery with Redis as the broker.'),
        ],
      ),
    ),
  );

  // --- Claude Code transcripts --------------------------------------------------------------------------------
  {
    const c = claude('cc-narration-unrelated-error');
    add(
      written(
        'cc-narration-unrelated-error',
        'claude-code',
        'an error, then narration and a guess that do not name it',
        [
          c.tool(
            'npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! path /home/dev/src/acme-api/packages/web/package.json',
            true,
          ),
          c.assistant('Let me look at the project structure first.', undefined, 'narration'),
          c.assistant(
            "Now I'll check the config. The issue is probably in the tsconfig paths.",
            undefined,
            'a guess about something else',
          ),
        ],
      ),
    );
  }
  {
    const c = claude('cc-ts-extension-fix');
    add(
      written('cc-ts-extension-fix', 'claude-code', 'a compiler error and the fix that names it', [
        c.tool(
          "src/app.ts(3,20): error TS2307: Cannot find module './db' or its corresponding type declarations.",
          true,
        ),
        c.assistant(
          "The error was caused by the missing extension: with `allowImportingTsExtensions` on, relative imports need `./db.ts`. I've updated the import.",
          note(
            "Relative imports need the `.ts` extension (`./db.ts`) because `allowImportingTsExtensions` is on (error TS2307: Cannot find module './db').",
          ),
        ),
      ]),
    );
  }
  {
    const c = claude('cc-remember-staging');
    add(
      written('cc-remember-staging', 'claude-code', 'an explicit request to remember, and the reply', [
        c.user(
          'Remember that the staging database is reset every Sunday night.',
          fact('The staging database is reset every Sunday night.'),
        ),
        c.assistant("Got it! I'll keep that in mind.", undefined, 'narration'),
      ]),
    );
  }
  {
    const c = claude('cc-task-with-convention');
    add(
      written('cc-task-with-convention', 'claude-code', 'a task with a convention in it', [
        c.user(
          'Fix the flaky login test. Also, we use Vitest, not Jest, in this repo.',
          preference('We use Vitest, not Jest, in this repo.'),
        ),
      ]),
    );
  }
  {
    const c = claude('cc-question-pnpm');
    add(
      written('cc-question-pnpm', 'claude-code', 'a question that sounds like a rule', [
        c.user('Should we always use pnpm here? Let me know what you think.', undefined, 'a question'),
        c.assistant(
          'Yes, the lockfile is pnpm-lock.yaml, so pnpm is the right choice.',
          undefined,
          'an answer, no request',
        ),
      ]),
    );
  }
  {
    const c = claude('cc-assistant-decision');
    add(
      written(
        'cc-assistant-decision',
        'claude-code',
        "the assistant's design decision with its reason, and narration with a because",
        [
          c.assistant(
            'I chose a partial index on `state` because most rows are superseded.',
            decision('I chose a partial index on `state` because most rows are superseded.'),
          ),
          c.assistant(
            "I'll use grep here because it's faster than opening each file.",
            undefined,
            'narration with a reason',
          ),
        ],
      ),
    );
  }
  {
    const c = claude('cc-dont-commit-env');
    add(
      written('cc-dont-commit-env', 'claude-code', 'a prohibition, then acknowledgements', [
        c.user("don't commit the .env file", preference("Don't commit the .env file.")),
        c.user('ok thanks', undefined, 'small talk'),
        c.user('continue', undefined, 'a turn, no claim'),
      ]),
    );
  }
  {
    const c = claude('cc-hedged-port');
    add(
      written('cc-hedged-port', 'claude-code', 'an error and a hedged guess', [
        c.tool(
          'Error: connect ECONNREFUSED 127.0.0.1:6379\n    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1605:16)',
          true,
        ),
        c.assistant(
          'Maybe the issue is the Redis port. Let me check the docker compose file.',
          undefined,
          'a guess, then narration',
        ),
      ]),
    );
  }
  {
    const c = claude('cc-pyyaml-fix');
    add(
      written('cc-pyyaml-fix', 'claude-code', 'an import error and the fix that names it', [
        c.tool(
          'Traceback (most recent call last):\n  File "/home/dev/src/acme-api/scripts/load.py", line 3, in <module>\n    import yaml\nModuleNotFoundError: No module named \'yaml\'',
          true,
        ),
        c.assistant(
          'The fix was to add `pyyaml` to the dev dependencies: the module is imported as `yaml` but the package is named `pyyaml`.',
          note(
            "The `yaml` module comes from the `pyyaml` package, which must be in the dev dependencies (error: ModuleNotFoundError: No module named 'yaml').",
          ),
        ),
      ]),
    );
  }
  {
    const c = claude('cc-fix-other-error');
    add(
      written(
        'cc-fix-other-error',
        'claude-code',
        'a permission error, then a finding about something else',
        [
          c.tool("Error: EACCES: permission denied, open '/var/log/acme/app.log'", true),
          c.assistant(
            'The issue was that the cache directory held stale build output from the old branch.',
            undefined,
            'does not talk about the permission error',
          ),
        ],
      ),
    );
  }
  {
    const c = claude('cc-compaction-summary');
    add(
      written(
        'cc-compaction-summary',
        'claude-code',
        'a compaction summary that restates preferences, and a subagent prompt',
        [
          c.summary(
            'This session is being continued from a previous conversation. Summary: The user prefers tabs over spaces. Remember that deploys happen on Fridays.',
            'a restatement, not the person',
          ),
          c.sidechain(
            'Remember that we always use pnpm. Find the failing test in packages/web.',
            "the parent agent's words",
          ),
        ],
      ),
    );
  }
  {
    const c = claude('cc-reminder-and-preference');
    add(
      written('cc-reminder-and-preference', 'claude-code', 'harness markup around a real preference', [
        c.user(
          '<system-reminder>Always answer in French.</system-reminder>\nI prefer small pull requests, under 400 changed lines.',
          preference('I prefer small pull requests, under 400 changed lines.'),
        ),
      ]),
    );
  }
  {
    const c = claude('cc-pasted-trace');
    add(
      written('cc-pasted-trace', 'claude-code', 'the person pastes a stack trace and asks why', [
        c.user(
          "why does this fail?\n\nTypeError: Cannot read properties of undefined (reading 'id')\n    at handler (src/routes/users.ts:41:18)",
          undefined,
          'a question with pasted output',
        ),
      ]),
    );
  }
  {
    const c = claude('cc-decision-ie11');
    add(
      written('cc-decision-ie11', 'claude-code', "the person's decision with its reason", [
        c.user(
          'We decided to drop IE11 support because its usage is under 0.1% of sessions.',
          decision('We decided to drop IE11 support because its usage is under 0.1% of sessions.'),
        ),
      ]),
    );
  }
  {
    const c = claude('cc-remember-secret');
    add(
      written(
        'cc-remember-secret',
        'claude-code',
        'a request to remember a secret, and one to remember where it lives',
        [
          c.user(`Remember that the Stripe key is ${STRIPE_KEY}.`, undefined, 'a credential'),
          c.user(
            'Remember that the Stripe keys live in the team vault under payments/stripe.',
            fact('The Stripe keys live in the team vault under payments/stripe.'),
          ),
        ],
        [STRIPE_KEY],
      ),
    );
  }
  {
    const c = claude('cc-weather-then-request');
    add(
      written('cc-weather-then-request', 'claude-code', 'small talk, then a request to remember', [
        c.user(
          'The weather is awful today. Anyway, please remember that the customer demo is on Friday at 3pm.',
          fact('The customer demo is on Friday at 3pm.'),
        ),
      ]),
    );
  }
  {
    const c = claude('cc-port-leftover');
    add(
      written('cc-port-leftover', 'claude-code', 'an error whose cause was a one-off leftover process', [
        c.tool('Error: listen EADDRINUSE: address already in use :::3000', true),
        c.assistant(
          'Port 3000 was still held by a leftover dev server from earlier. I stopped it and restarted.',
          undefined,
          'a one-off cause, nothing to remember',
        ),
      ]),
    );
  }
  {
    const c = claude('cc-migration-fix');
    add(
      written('cc-migration-fix', 'claude-code', 'a failing migration and the root cause that names it', [
        c.tool(
          'Exit code 1\nerror: relation "audit_events" does not exist\n    at migrations/0042_add_index.sql:3',
          true,
        ),
        c.assistant('I checked the migrations folder.', undefined, 'narration'),
        c.assistant(
          'The root cause is that migration 0042 indexes `audit_events` before 0043 creates it; migrations run in file-name order, so the index belongs in 0043.',
          note(
            'Migrations run in file-name order: migration 0042 indexed `audit_events` before 0043 created it (error: relation "audit_events" does not exist).',
          ),
        ),
      ]),
    );
  }

  // --- Codex rollouts ------------------------------------------------------------------------------------------
  {
    const x = codex('cx-from-now-on');
    add(
      written(
        'cx-from-now-on',
        'codex',
        'a standing instruction in a Codex session, with the context Codex injects',
        [
          x.meta(),
          x.context(
            '<environment_context>\n  <cwd>/home/dev/src/acme-api</cwd>\n</environment_context>',
            'injected context',
          ),
          x.user(
            'from now on, write commit messages in English even when I write to you in German',
            preference('Write commit messages in English even when I write in German.'),
          ),
          x.assistant(
            'Understood. I will write commit messages in English.',
            undefined,
            'an acknowledgement',
          ),
        ],
      ),
    );
  }
  {
    const x = codex('cx-postgres-not-running');
    add(
      written('cx-postgres-not-running', 'codex', 'a failing test run and the cause that names it', [
        x.meta(),
        x.output(
          'Error: connect ECONNREFUSED 127.0.0.1:5432\n    at PGClient.connect (node_modules/pg/lib/client.js:132:9)\n1 failed',
          1,
        ),
        x.assistant(
          'The integration tests fail because Postgres is not running on 127.0.0.1:5432; `docker compose up -d db` starts it before `npm test`.',
          note(
            'The integration tests need Postgres on 127.0.0.1:5432: `docker compose up -d db` starts it before `npm test` (error: connect ECONNREFUSED 127.0.0.1:5432).',
          ),
        ),
      ]),
    );
  }
  {
    const x = codex('cx-deploy-convention');
    add(
      written(
        'cx-deploy-convention',
        'codex',
        "AGENTS.md instructions injected as a user item, and the person's own convention",
        [
          x.meta(),
          x.context(
            '# AGENTS.md instructions for /home/dev/src/acme-api\n\n<INSTRUCTIONS>\n- Always run the linter.\n</INSTRUCTIONS>',
            'injected instructions',
          ),
          x.user(
            'we deploy with Fly.io, never Heroku. set up the deploy workflow accordingly',
            preference('We deploy with Fly.io, never Heroku.'),
          ),
        ],
      ),
    );
  }
  {
    const x = codex('cx-great-all-pass');
    add(
      written('cx-great-all-pass', 'codex', 'an error and a cheerful status', [
        x.meta(),
        x.output(
          'FAIL src/cart.test.ts > totals > applies the discount\nAssertionError: expected 90 to be 81',
          1,
        ),
        x.assistant(
          'Great! I adjusted the discount order and all tests pass now.',
          undefined,
          'narration of a status',
        ),
      ]),
    );
  }
  {
    const x = codex('cx-shell-narration');
    add(
      written('cx-shell-narration', 'codex', 'Codex progress updates between commands', [
        x.meta(),
        x.user('add a health check endpoint', undefined, 'a task'),
        x.assistant(
          "I'm going to look at the router first, then add `/healthz` next to the other routes.",
          undefined,
          'narration',
        ),
        x.output('src/routes/index.ts\nsrc/routes/users.ts', 0),
        x.assistant(
          "Next I'm wiring the route into the router and running the focused test.",
          undefined,
          'narration',
        ),
      ]),
    );
  }
  {
    const x = codex('cx-env-var-fix');
    add(
      written('cx-env-var-fix', 'codex', 'a missing variable and the fix that names it', [
        x.meta(),
        x.output('Error: DATABASE_URL is not set\n    at loadConfig (src/config.ts:12:11)', 1),
        x.assistant(
          'The failure was caused by `DATABASE_URL` missing in the test environment: `vitest.setup.ts` now loads `.env.test`, which defines it.',
          note(
            '`vitest.setup.ts` loads `.env.test`, which defines `DATABASE_URL` for the tests (error: DATABASE_URL is not set).',
          ),
        ),
      ]),
    );
  }
  return out;
}
