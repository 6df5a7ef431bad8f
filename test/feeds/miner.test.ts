/** The miner: what it turns into candidate memories, and what it must drop (narration, questions, code, secrets). */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mine } from '../../src/feeds/miner.ts';
import { isNoise } from '../../src/feeds/noise.ts';
import type { Entry, EntryRole } from '../../src/feeds/types.ts';

const entry = (role: EntryRole, text: string, extra: Partial<Entry> = {}): Entry => ({
  id: 'e1',
  role,
  text,
  sessionId: 's1',
  ...extra,
});
const bodies = (role: EntryRole, text: string) =>
  mine(entry(role, text)).candidates.map((c) => [c.kind, c.body]);

describe('miner positives', () => {
  test('an explicit "remember that" request becomes the claim it names', () => {
    assert.deepEqual(bodies('user', 'Please remember that the staging database is read-only on weekends.'), [
      ['fact', 'The staging database is read-only on weekends.'],
    ]);
    assert.deepEqual(bodies('user', 'Keep in mind: invoices are generated at midnight UTC'), [
      ['fact', 'Invoices are generated at midnight UTC.'],
    ]);
    assert.deepEqual(bodies('user', 'remember to run the migrations after pulling main'), [
      ['preference', 'Run the migrations after pulling main.'],
    ]);
  });

  test('stated preferences and conventions: always/never, I prefer, we use, do not', () => {
    assert.deepEqual(bodies('user', 'Always use pnpm in this repo.'), [
      ['preference', 'Always use pnpm in this repo.'],
    ]);
    assert.deepEqual(bodies('user', 'Never commit directly to main'), [
      ['preference', 'Never commit directly to main.'],
    ]);
    assert.deepEqual(bodies('user', 'I prefer small commits with imperative messages.'), [
      ['preference', 'I prefer small commits with imperative messages.'],
    ]);
    assert.deepEqual(bodies('user', 'Also, we use Vitest for unit tests and Playwright for e2e.'), [
      ['preference', 'We use Vitest for unit tests and Playwright for e2e.'],
    ]);
    assert.deepEqual(bodies('user', "Don't mock the database in integration tests."), [
      ['preference', "Don't mock the database in integration tests."],
    ]);
    assert.deepEqual(bodies('user', 'In this codebase we always squash-merge pull requests.'), [
      ['preference', 'In this codebase we always squash-merge pull requests.'],
    ]);
  });

  test('decisions with their reason, from the person or the assistant', () => {
    assert.deepEqual(bodies('user', 'We decided to keep SQLite because the whole app runs on one machine.'), [
      ['decision', 'We decided to keep SQLite because the whole app runs on one machine.'],
    ]);
    assert.deepEqual(bodies('user', "Let's go with Hono since it runs on every runtime we deploy to."), [
      ['decision', "Let's go with Hono since it runs on every runtime we deploy to."],
    ]);
    assert.deepEqual(bodies('assistant', 'I chose a partial index because most rows are superseded.'), [
      ['decision', 'I chose a partial index because most rows are superseded.'],
    ]);
  });

  test('an error in a tool result followed by the assistant naming the fix becomes one note', () => {
    const failed = mine(
      entry('tool', 'src/app.ts:3:1 - error TS2307: Cannot find module "./db".', { isError: true }),
    );
    assert.equal(failed.candidates.length, 0);
    assert.ok(failed.state.error !== undefined, 'the error waits for its fix');
    const narration = mine(entry('assistant', 'Let me look at the imports.'), failed.state);
    assert.equal(narration.candidates.length, 0);
    const fixed = mine(
      entry(
        'assistant',
        'The issue was that relative imports like `./db` need the .ts extension, so let me add it.',
      ),
      narration.state,
    );
    assert.deepEqual(
      fixed.candidates.map((c) => [c.kind, c.rule, c.body]),
      [
        [
          'note',
          'error-fix',
          'The issue was that relative imports like `./db` need the .ts extension (error: src/app.ts:3:1 - error TS2307: Cannot find module "./db").',
        ],
      ],
    );
    assert.equal(fixed.state.error, undefined, 'the error is consumed by its fix');
  });

  test('notes: bullets become notes, preferences or decisions by their words', () => {
    assert.deepEqual(bodies('note', 'Never push to the release branch without a changelog entry'), [
      ['preference', 'Never push to the release branch without a changelog entry.'],
    ]);
    assert.deepEqual(bodies('note', 'The billing service owns the invoices table'), [
      ['note', 'The billing service owns the invoices table.'],
    ]);
  });
});

describe('miner negatives', () => {
  test('narration, questions and small talk are dropped as noise', () => {
    for (const text of [
      'Let me read the config file first.',
      "I'll now run the test suite to check.",
      'Now let me update the imports.',
      "I'm going to refactor this module.",
      'Great, that worked.',
      'Should we always use pnpm here?',
      'Can you never mind that?',
    ]) {
      const r = mine(entry('assistant', text));
      assert.deepEqual(r.candidates, [], text);
    }
    const person = mine(entry('user', 'Should we always use pnpm here? Let me know.'));
    assert.deepEqual(person.candidates, []);
    assert.ok(person.dropped.noise >= 1, 'the dropped question is counted');
    assert.ok(isNoise("I'll now run the tests."), 'control: narration is noise');
    assert.ok(!isNoise('We use pnpm, never npm.'), 'control: a convention is not noise');
  });

  test('an assistant "always/never" is not the person\'s preference; a subagent prompt and a summary are not the person', () => {
    assert.deepEqual(bodies('assistant', 'You should always use pnpm here.'), []);
    assert.deepEqual(bodies('prompt', 'Remember that we always use pnpm. Find the failing test.'), []);
    assert.deepEqual(
      bodies('summary', 'The user prefers tabs. Remember that deploys happen on Fridays.'),
      [],
    );
    assert.deepEqual(
      bodies('user', 'Remember that we always use pnpm.'),
      [['preference', 'We always use pnpm.']],
      'control',
    );
  });

  test('a tool result that merely prints text is not an error, and nothing in it is mined', () => {
    const r = mine(entry('tool', 'README: Always use yarn. Remember that the API key rotates monthly.'));
    assert.deepEqual(r.candidates, []);
    assert.equal(r.state.error, undefined);
  });

  test('code and markup are not claims', () => {
    assert.deepEqual(bodies('user', 'const always = () => { never(); };'), []);
    assert.deepEqual(bodies('user', '```\nalways use tabs\n```'), []);
    assert.deepEqual(
      bodies('user', '<command-name>/model</command-name>\n<command-args>always use opus</command-args>'),
      [],
    );
    assert.deepEqual(bodies('user', '<system-reminder>Always answer in French.</system-reminder>'), []);
  });

  test('I10 no credentials: a request to remember a secret is dropped by the credential guard, with a control', () => {
    const secret = mine(
      entry(
        'user',
        'Remember that the deploy token is ghp_16C7e42F292c6912E7710c838347Ae178B4a and never share it.',
      ),
    );
    assert.deepEqual(secret.candidates, []);
    assert.equal(secret.dropped.secrets, 1);
    const plain = mine(entry('user', 'Remember that the deploy token lives in the team vault.'));
    assert.equal(plain.candidates.length, 1, 'control: the same request without a secret is mined');
    const sha = mine(
      entry('user', 'Remember that the release commit is 3f786850e387550fdab836ed7e6dc881de23001b.'),
    );
    assert.equal(sha.candidates.length, 1, 'control: a git SHA is not a secret');
  });

  test('an error is forgotten after a while without a fix', () => {
    let state = mine(entry('tool', 'Error: connect ECONNREFUSED 127.0.0.1:5432', { isError: true })).state;
    for (let i = 0; i < 13; i++) state = mine(entry('assistant', 'Running the next step.'), state).state;
    const late = mine(entry('assistant', 'The issue was that Postgres was not running.'), state);
    assert.deepEqual(late.candidates, []);
  });
});
