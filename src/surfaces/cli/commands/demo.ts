/**
 * `memledger demo`: what a new user sees first. Seeds a small team's memory in a fresh temporary home and walks
 * through supersede, history, review, a rejection that stands, search and erasure, saying what happens.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { AUTH_DB } from '../../../auth/sqlite-token-store.ts';
import { homePaths } from '../../../store/sqlite/home.ts';
import { type Ledger, openLedger } from '../../../ledger/ledger.ts';
import { MemoryError } from '../../../model/errors.ts';
import { defineCommand } from '../command.ts';
import { indent } from '../render.ts';
import { runDemoSteps } from './demo-steps.ts';

export interface DemoStep {
  step: number;
  title: string;
  /** What happened, in plain words, one line each. */
  said: string[];
  /** The library's results for this step, for `--json`. */
  data: unknown;
}

export interface DemoResult {
  home: string;
  steps: DemoStep[];
}

export const demo = defineCommand<DemoResult>({
  name: 'demo',
  summary: 'a two-second tour in a fresh temporary home: supersede, review, rejection, search, erasure',
  usage: `memledger demo [--home DIR]
  Seeds a small example in a new temporary directory (or in DIR, which must not hold a ledger yet) and
  walks through what memledger does. Your own data directory is never touched.`,
  auditRefusals: false,
  async run(ctx) {
    const home = demoHome(ctx.homeOption);
    let ledger: Ledger | undefined;
    try {
      ledger = openLedger({ home });
      return { home, steps: await runDemoSteps(ledger) };
    } finally {
      ledger?.close();
    }
  },
  render(r) {
    const steps = r.steps.map((s) => `${s.step}. ${s.title}\n${indent(s.said.join('\n'), '   ')}`);
    return `memledger demo — a memory ledger for AI agents, in a fresh home:
  ${r.home}

${steps.join('\n\n')}

Look around this home yourself:
  memledger list --home ${r.home} --state active --state superseded --state rejected --state erased
  memledger review list --home ${r.home}
  memledger audit --home ${r.home}
and remove it when done: rm -rf ${r.home}
`;
  },
});

/**
 * An explicit --home is used only when it holds no ledger file yet (never MEMLEDGER_HOME): the demo never mixes
 * its data into real memory. It gives its verdicts as the operator through the library, without a terminal or
 * a token (CI runs it), which is sound only because every memory it judges is one it wrote in this new home.
 */
function demoHome(explicit: string | undefined): string {
  if (explicit === undefined) return mkdtempSync(join(tmpdir(), 'memledger-demo-'));
  const home = resolve(explicit);
  const paths = homePaths(home);
  if ([paths.memoryDb, paths.auditDb, paths.policy, join(home, AUTH_DB)].some((file) => existsSync(file))) {
    throw new MemoryError(
      'invalid_input',
      `${home} already holds a ledger; the demo seeds example data, so give it a new or empty directory (or no --home)`,
    );
  }
  return home;
}
