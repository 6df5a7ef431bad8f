/**
 * Error→fix pairing: a candidate only when the assistant's sentence states a settled finding about the error
 * it follows. Negatives are the real cases that made junk before (marot/spotter's sessions, excerpted in
 * eval/sets/mining/public-excerpts.json), each beside a control that must still pair.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { claudeCode } from '../../src/feeds/connectors/claude-code.ts';
import { mineEntries } from '../../src/feeds/mine-entries.ts';
import { mine } from '../../src/feeds/miner.ts';
import type { Entry, EntryRole, MinerState } from '../../src/feeds/types.ts';

const entry = (role: EntryRole, text: string, extra: Partial<Entry> = {}): Entry => ({
  id: 'e1',
  role,
  text,
  sessionId: 's1',
  ...extra,
});

/** Mines a tool error and then each assistant text in turn, returning the candidates' bodies. */
function after(error: string, ...said: string[]): string[] {
  let state: MinerState = mine(entry('tool', error, { isError: true })).state;
  const bodies: string[] = [];
  for (const text of said) {
    const r = mine(entry('assistant', text), state);
    state = r.state;
    bodies.push(...r.candidates.map((c) => `${c.rule}: ${c.body}`));
  }
  return bodies;
}

describe('error and fix', () => {
  test('narration beside an unrelated error is no candidate; a fix that names the error is one (control)', () => {
    const error = "Error: EACCES: permission denied, open '/var/log/acme/app.log'";
    assert.deepEqual(
      after(
        error,
        'Let me look at the project structure first.',
        'The issue was that the cache directory held stale output.',
      ),
      [],
      'the finding talks about something else',
    );
    assert.deepEqual(
      after(error, 'The issue was that /var/log/acme is owned by root, so the app cannot open app.log.'),
      [
        "error-fix: The issue was that /var/log/acme is owned by root, so the app cannot open app.log (error: Error: EACCES: permission denied, open '/var/log/acme/app.log').",
      ],
      'control: the same error with a fix about it',
    );
  });

  test('a guess or a hypothesis the assistant goes on to check is not a fix; the settled finding is', () => {
    const error = 'Error: connect ECONNREFUSED 127.0.0.1:6379';
    assert.deepEqual(after(error, 'Maybe the issue is that Redis on 127.0.0.1:6379 is not running.'), []);
    assert.deepEqual(
      after(
        error,
        'The issue is that Redis on 127.0.0.1:6379 is not started by the test script. Let me check the compose file.',
      ),
      [],
      'a hypothesis followed by "let me check"',
    );
    assert.deepEqual(
      after(
        error,
        'The issue is that Redis on 127.0.0.1:6379 is not started by the test script. I added it to compose.',
      ),
      [
        'error-fix: The issue is that Redis on 127.0.0.1:6379 is not started by the test script (error: Error: connect ECONNREFUSED 127.0.0.1:6379).',
      ],
      'control: the settled finding',
    );
    assert.deepEqual(after(error, 'I see - the issue is the Redis port 6379.'), [], 'narration ("I see")');
  });

  test('"the error is …" describes the error, it does not fix it', () => {
    const error =
      'Pre-commit validation failed:\n[DIALYZER]\nlib/spotter/agent.ex:41: The pattern {:error, _} can never match';
    assert.deepEqual(after(error, 'Dialyzer says the error is a 3-tuple with the chain.'), []);
    assert.deepEqual(
      after(
        error,
        'The fix was to match `{:error, _chain, reason}` in lib/spotter/agent.ex, since LLMChain.run returns a 3-tuple.',
      ),
      [
        'error-fix: The fix was to match `{:error, _chain, reason}` in lib/spotter/agent.ex, since LLMChain.run returns a 3-tuple (error: lib/spotter/agent.ex:41: The pattern {:error, _} can never match).',
      ],
      'control',
    );
  });

  test("the seven junk candidates of marot/spotter's real sessions are gone, read through the connector", async () => {
    const excerpts = JSON.parse(
      readFileSync(new URL('../../eval/sets/mining/public-excerpts.json', import.meta.url), 'utf8'),
    ) as Record<string, Record<string, unknown>[]>;
    const junk = [
      'spotter-llmchain-dialyzer',
      'spotter-liveview-sandbox',
      'spotter-propagator-edit',
      'spotter-credo-trace-id',
      'spotter-dialyzer-still',
      'spotter-dialyzer-maybe',
      'spotter-uuid-idempotency',
    ];
    const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const root = mkdtempSync(join(tmpdir(), 'memledger-junk-'));
    try {
      let errors = 0;
      for (const id of junk) {
        const lines = excerpts[id]!;
        writeFileSync(join(root, `${id}.jsonl`), `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
      }
      const proposed: string[] = [];
      for await (const batch of claudeCode.read(root, { files: {} })) {
        const mined = mineEntries(batch.entries);
        proposed.push(...mined.proposals.map((p) => `${batch.file}: ${p.candidate.body}`));
        errors += batch.entries.filter((e) => e.role === 'tool' && e.isError === true).length;
      }
      assert.ok(errors >= 7, 'control: every excerpt still holds its failed tool result');
      assert.deepEqual(proposed, []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
