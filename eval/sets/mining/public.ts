/**
 * Public fragments of the mining set, with their labels. Transcript excerpts come from ./public-excerpts.json
 * (cut by ./extract.ts from the files ./windows.ts names); notes excerpts are quoted here line for line from
 * the file named beside them. Every line of the transcript excerpts is a drop: the six marot/spotter sessions
 * hold task prompts, progress narration and mid-debugging guesses (the seven candidates the old miner made
 * from them are among these), and the Codex rollouts hold requests for one task and progress updates.
 */
import { readFileSync } from 'node:fs';
import type { FragmentInput } from '../../mining/format.ts';
import { note, notes, preference } from './lib.ts';
import { CLAUDE_WINDOWS, CODEX_WINDOWS } from './windows.ts';

const EXCERPTS = JSON.parse(
  readFileSync(new URL('./public-excerpts.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>[]>;

/** Why each transcript excerpt holds nothing to keep. */
const ABOUT: Record<string, string> = {
  'spotter-llmchain-dialyzer':
    'a pre-commit dialyzer failure; the assistant restates it and goes on fixing ("Let me fix the pattern")',
  'spotter-liveview-sandbox':
    'a failing test run; the diagnosis ("the issue is clear") is not about the failure the output shows',
  'spotter-propagator-edit':
    'an edit that failed to match, a re-read, and a guess ("I see - the issue is...")',
  'spotter-credo-trace-id':
    'credo and dialyzer failures, narration, and a hypothesis to check ("Let me check the function")',
  'spotter-dialyzer-still': 'dialyzer still failing and a hedged guess ("might return")',
  'spotter-dialyzer-maybe': 'dialyzer still failing and a hedged guess ("maybe the issue is")',
  'spotter-uuid-idempotency': 'a failing test and a mid-debugging explanation of that one test',
  'spotter-bead-prompt': 'a task prompt for one session',
  'spotter-did-you-push': 'a question',
  'spotter-xterm-scroll': 'a bug report and a request to search the web',
  'spotter-phx-server': 'a bug report',
  'codemie-compaction-request': "a one-off change request and the agent's progress updates",
  'codemie-rg-missing': "a search that hit a missing folder, then the agent's plan",
  'codemie-red-check': 'the failing test of a red-green step, as intended, and the next step',
  'codemie-final-summary': "the agent's report of the change it made",
  'codemie-demo-scenario': "requests about a meeting transcript and the agent's summary of it",
};

export function publicFragments(): FragmentInput[] {
  const out: FragmentInput[] = [];
  for (const w of [...CLAUDE_WINDOWS, ...CODEX_WINDOWS]) {
    const records = EXCERPTS[w.id];
    if (records === undefined) throw new Error(`no excerpt for ${w.id}: run eval/sets/mining/extract.ts`);
    out.push({
      id: w.id,
      connector: CODEX_WINDOWS.includes(w as (typeof CODEX_WINDOWS)[number]) ? 'codex' : 'claude-code',
      origin: 'public',
      source: {
        repo: w.repo,
        path: w.path,
        commit: w.commit,
        note: 'lines cut as windows.ts says; text cut to 700 characters, tool output to its first 600 and last 500',
      },
      about: ABOUT[w.id] ?? '',
      lines: records.map((record) => ({ record })),
    });
  }

  const SPOTTER = { repo: 'marot/spotter', commit: '8cc42b0bd39d04e71e509d7d58e6782ab435329f' };
  const CODEMIE = { repo: 'codemie-ai/codemie-code', commit: '8e8d4ce5ad2dfae14cb26caf5d3cddebee929990' };
  out.push({
    id: 'spotter-claude-md-product',
    connector: 'folder',
    origin: 'public',
    source: { ...SPOTTER, path: 'CLAUDE.md', note: 'lines 1-9' },
    about: 'a project CLAUDE.md: what the product is, its stack, two rules',
    lines: notes(
      '# Product',
      [
        'Spotter helps to review Claude Code sessions and generated code. ',
        note('Spotter helps to review Claude Code sessions and generated code.'),
      ],
      '',
      '# Architecture',
      [
        'Ash, Phoenix, LiveView, xterm.js, tmux',
        note('Architecture: Ash, Phoenix, LiveView, xterm.js, tmux.'),
      ],
      '',
      [
        'The prototype runs on localhost, and has no authentication.',
        note('The prototype runs on localhost, and has no authentication.'),
      ],
      '',
      [
        'This project is greenfield. No legacy fallbacks, backwards compatability or similar is needed.',
        [
          note('This project is greenfield.'),
          preference('No legacy fallbacks, backwards compatability or similar is needed.'),
        ],
      ],
    ),
  });
  out.push({
    id: 'spotter-claude-md-tracing',
    connector: 'folder',
    origin: 'public',
    source: { ...SPOTTER, path: 'CLAUDE.md', note: 'lines 32-45' },
    about: 'rules about commit linking and tracing, with a nested list of header names',
    lines: notes(
      '# Commit Linking',
      '',
      [
        'Sessions are linked to Git commits via hooks (deterministic, confidence 1.0) and async enrichment (inferred, confidence 0.60-0.90). Hook scripts must stay under 200ms and never call `git show` or `git patch-id`. See README for full details.',
        [
          note(
            'Sessions are linked to Git commits via hooks (deterministic, confidence 1.0) and async enrichment (inferred, confidence 0.60-0.90).',
          ),
          preference('Hook scripts must stay under 200ms and never call `git show` or `git patch-id`.'),
        ],
        '"See README" is a pointer',
      ],
      '',
      '# Tracing Infrastructure',
      '',
      [
        'OpenTelemetry tracing is core infrastructure in Spotter. Do not remove instrumentation or disable tracing by default.',
        [
          note('OpenTelemetry tracing is core infrastructure in Spotter.'),
          preference('Do not remove instrumentation or disable tracing by default.'),
        ],
      ],
      '',
      [
        '- Plugin/hook HTTP calls must preserve tracing metadata headers:',
        preference(
          'Plugin/hook HTTP calls must preserve tracing metadata headers: `traceparent` (when available), `x-spotter-hook-event`, `x-spotter-hook-script`.',
        ),
      ],
      ['  - `traceparent` (when available)', undefined, 'part of the list above'],
      ['  - `x-spotter-hook-event`', undefined, 'part of the list above'],
      ['  - `x-spotter-hook-script`', undefined, 'part of the list above'],
      [
        '- Hook scripts must remain non-blocking and fail-safe (silent failure is preferred over blocking Claude).',
        preference(
          'Hook scripts must remain non-blocking and fail-safe (silent failure is preferred over blocking Claude).',
        ),
      ],
      [
        '- `SPOTTER_OTEL_ENABLED=false` is only for local troubleshooting.',
        note('`SPOTTER_OTEL_ENABLED=false` is only for local troubleshooting.'),
      ],
    ),
  });
  out.push({
    id: 'spotter-agents-md',
    connector: 'folder',
    origin: 'public',
    source: { ...SPOTTER, path: 'AGENTS.md', note: 'the "Agent Instructions" section and the line after it' },
    about: 'two agent rules and the issue tracker',
    lines: notes(
      '# Agent Instructions',
      '',
      ['- Do not ignore credo lintings. Fix them.', preference('Do not ignore credo lintings. Fix them.')],
      [
        '- If commiting on a branch, always push to remote too.',
        preference('If commiting on a branch, always push to remote too.'),
      ],
      '',
      [
        'This project uses **bd** (beads) for issue tracking. Run `bd onboard` to get started.',
        note('This project uses bd (beads) for issue tracking.'),
        '"Run bd onboard" is a getting-started step',
      ],
    ),
  });
  out.push({
    id: 'spotter-e2e-claude-md',
    connector: 'folder',
    origin: 'public',
    source: { ...SPOTTER, path: 'e2e/CLAUDE.md', note: 'whole file' },
    about: 'a snapshot policy: one setting, a reporting list, a rule',
    lines: notes(
      '# E2E Snapshot Policy',
      '',
      [
        'This suite starts with full-page Playwright snapshots and strict visual tolerance:',
        note(
          'The e2e suite uses full-page Playwright snapshots with strict visual tolerance (`maxDiffPixelRatio: 0.001`).',
        ),
      ],
      '',
      ['- `toHaveScreenshot(..., { maxDiffPixelRatio: 0.001 })`', undefined, 'code'],
      '',
      [
        'If recurring flakiness appears due to full-page rendering drift, report it with:',
        undefined,
        'introduces the list below',
      ],
      '',
      ['1. failing snapshot names', undefined, 'a list item without its lead'],
      ['2. trace/video artifacts', undefined, 'a list item without its lead'],
      ['3. route and browser details', undefined, 'a list item without its lead'],
      '',
      [
        'Do not automatically switch to component-level snapshots. Escalate to the user, who will decide whether component snapshots are a better fit.',
        [
          preference('Do not automatically switch to component-level snapshots.'),
          preference('Escalate to the user, who will decide whether component snapshots are a better fit.'),
        ],
      ],
    ),
  });
  out.push({
    id: 'codemie-agents-md',
    connector: 'folder',
    origin: 'public',
    source: { ...CODEMIE, path: 'AGENTS.md', note: 'the Purpose section, rule 2 and rule 4' },
    about: 'an AGENTS.md: what the project is, a rule with its trigger phrases, the environment',
    lines: notes(
      '## Purpose',
      '',
      [
        '- CodeMie Code is an umbrella project with multiple agent plugins and provider integrations.',
        note('CodeMie Code is an umbrella project with multiple agent plugins and provider integrations.'),
      ],
      [
        '- This file defines the repo-specific workflow, architecture guardrails, policies, and quick references agents should use before changing code.',
        undefined,
        'about the file itself',
      ],
      '',
      '### 2. Tests Only On Explicit Request',
      '',
      [
        'Only write or run tests when the user explicitly asks for it.',
        preference('Only write or run tests when the user explicitly asks for it.'),
      ],
      '',
      ['Explicit triggers:', undefined, 'a label'],
      '',
      ['- "write tests"', undefined, 'a trigger phrase, not a claim'],
      ['- "run tests"', undefined, 'a trigger phrase, not a claim'],
      ['- "add test coverage"', undefined, 'a trigger phrase, not a claim'],
      '',
      [
        'Do not proactively write, run, or suggest tests otherwise.',
        preference('Do not proactively write, run, or suggest tests otherwise.'),
      ],
      '',
      '### 4. Environment',
      '',
      [
        '- This is a Node.js project. No virtual environment activation is needed.',
        [note('This is a Node.js project.'), note('No virtual environment activation is needed.')],
      ],
      ['- Required runtime: Node.js `>=20.0.0`.', note('Required runtime: Node.js `>=20.0.0`.')],
      ['- npm is the package manager.', note('npm is the package manager.')],
    ),
  });
  return out;
}
