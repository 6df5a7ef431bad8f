/**
 * Notes to claims (src/feeds/notes.ts): one claim per memory, filler and narration dropped, and a secret line
 * dropped on its own with its neighbours kept, both by `noteClaims` and through the folder feed into the
 * review queue.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { noteClaims } from '../../src/feeds/notes.ts';
import { syncFeed } from '../../src/feeds/sync.ts';
import { withWorld } from './fixtures.ts';

const TOKEN = 'ghp_16C7e42F292c6912E7710c838347Ae178B4a';
const claims = (markdown: string) => noteClaims(markdown).claims.map((c) => [c.kind, c.body]);

describe('noteClaims', () => {
  test('a paragraph of five facts is five memories; the weather is dropped', () => {
    const found = noteClaims(
      [
        '# Billing',
        '',
        'The billing service runs on Postgres 16. Invoices are generated at 02:00 UTC by a cron job.',
        'The ledger table is append-only. Refunds go through the payments team. Currency amounts are',
        'stored in minor units. The weather was nice today.',
      ].join('\n'),
    );
    assert.deepEqual(
      found.claims.map((c) => [c.body, c.line, c.heading]),
      [
        ['The billing service runs on Postgres 16.', 3, 'Billing'],
        ['Invoices are generated at 02:00 UTC by a cron job.', 3, 'Billing'],
        ['The ledger table is append-only.', 4, 'Billing'],
        ['Refunds go through the payments team.', 4, 'Billing'],
        ['Currency amounts are stored in minor units.', 4, 'Billing'],
      ],
    );
    assert.ok(found.claims.every((c) => c.kind === 'note'));
    assert.equal(found.dropped.noise, 1, 'the weather sentence is counted as dropped');
  });

  test('a secret line is dropped on its own: the secret is in no claim, both neighbours are', () => {
    const found = noteClaims(
      [
        'Staging lives at staging.acme.internal and is rebuilt every night.',
        `The deploy bot pushes with ${TOKEN}`,
        'Production deploys need two approvals in the release channel.',
      ].join('\n'),
    );
    assert.ok(
      found.claims.every((c) => !c.body.includes(TOKEN) && !c.body.includes('ghp_')),
      'the token is absent',
    );
    assert.deepEqual(
      found.claims.map((c) => c.body),
      [
        'Staging lives at staging.acme.internal and is rebuilt every night.',
        'Production deploys need two approvals in the release channel.',
      ],
      'control: both neighbours are present, unglued',
    );
    assert.equal(found.dropped.secrets, 1);

    const inline = noteClaims(
      'Our assets bucket is acme-prod-assets. The access key is AKIAZ3MHQ7TK2XLN4W8P. Uploads are limited to 50 MB.',
    );
    assert.deepEqual(
      inline.claims.map((c) => c.body),
      ['Our assets bucket is acme-prod-assets.', 'Uploads are limited to 50 MB.'],
      'a secret sentence inside one line goes alone too',
    );
  });

  test('narration bullets, tasks, pointers, questions and small talk are dropped; the claims beside them kept', () => {
    assert.deepEqual(
      claims(
        [
          '## Session log',
          '- Let me check the deploy script tomorrow.',
          '- I looked at the flaky test but found nothing.',
          '- [ ] Migrate the orders table',
          '- What is blocking the release?',
          '- See docs/CONTRIBUTING.md for more.',
          '- Sam is out sick today.',
          '- The public API allows 600 requests per minute per token.',
          '- Never edit files under `src/generated/`.',
          '- We moved CI to GitHub Actions because Jenkins upkeep cost a day a week.',
        ].join('\n'),
      ),
      [
        ['note', 'The public API allows 600 requests per minute per token.'],
        ['preference', 'Never edit files under `src/generated/`.'],
        ['decision', 'We moved CI to GitHub Actions because Jenkins upkeep cost a day a week.'],
      ],
    );
  });

  test('a nested list joins its lead-in; Basic Memory markup is not part of the claim', () => {
    assert.deepEqual(
      claims(
        [
          '- Hook calls must preserve these headers:',
          '  - `traceparent`',
          '  - `x-hook-event`',
          '- [decision] We chose OpenSearch over Elasticsearch because of the license. #search',
          '- relates_to [[Billing]]',
          '',
          'The index is owned by [[Team Atlas]].',
        ].join('\n'),
      ),
      [
        ['preference', 'Hook calls must preserve these headers: `traceparent`, `x-hook-event`.'],
        ['decision', 'We chose OpenSearch over Elasticsearch because of the license.'],
        ['note', 'The index is owned by Team Atlas.'],
      ],
    );
  });
});

describe('noteClaims: layout', () => {
  test('lower-case items finish their lead-in; unmarked line lists split; hard wraps do not', () => {
    assert.deepEqual(
      claims(
        [
          'Ask the user when:',
          '',
          '- requirements are ambiguous,',
          '- or two approaches are equally valid.',
          '',
          'Rebase the target branch onto main',
          'Merge the target branch with fast-forward',
          '',
          'Generated files are rebuilt from the',
          'OpenAPI spec on every build.',
        ].join('\n'),
      ),
      [
        ['preference', 'Ask the user when: requirements are ambiguous, or two approaches are equally valid.'],
        ['note', 'Rebase the target branch onto main.'],
        ['note', 'Merge the target branch with fast-forward.'],
        ['note', 'Generated files are rebuilt from the OpenAPI spec on every build.'],
      ],
    );
  });

  test('shell commands outside a code fence are not claims; prose that starts with a tool name is (control)', () => {
    assert.deepEqual(
      claims(
        [
          'git gtr new my-feature          # Create worktree folder',
          'git gtr list',
          '',
          'npm is the package manager.',
        ].join('\n'),
      ),
      [['note', 'Npm is the package manager.']],
    );
  });
});

test('I10 no credentials: the folder feed drops a secret line alone and proposes its neighbours', () =>
  withWorld(async (world, ledger) => {
    writeFileSync(
      join(world.repo, 'NOTES.md'),
      [
        '# Deploys',
        '',
        'Staging lives at staging.acme.internal and is rebuilt every night.',
        `The deploy bot pushes with ${TOKEN}`,
        'Production deploys need two approvals in the release channel.',
        '',
        'The billing service runs on Postgres 16. The weather was nice today.',
      ].join('\n'),
    );
    const operator = ledger.as(ledger.operator());
    await operator.feedAdd({ name: 'notes', connector: 'folder', config: { path: world.repo } });
    const report = await syncFeed(ledger, operator, 'notes');
    assert.equal(report.error, null);
    assert.ok(report.droppedSecrets >= 1, 'the secret line is counted');
    const bodies = (await operator.list({ states: ['held', 'active'], limit: 50 })).map((m) => m.body).sort();
    assert.ok(
      bodies.every((b) => !b.includes('ghp_')),
      'the token is in no memory',
    );
    assert.deepEqual(bodies, [
      'Production deploys need two approvals in the release channel.',
      'Staging lives at staging.acme.internal and is rebuilt every night.',
      'The billing service runs on Postgres 16.',
    ]);
  }));
