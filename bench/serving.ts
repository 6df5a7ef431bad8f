/**
 * The serving home the process benchmarks share (MCP over stdio, HTTP, the hook): 100k memories (fewer in smoke
 * mode) imported once per run, with its own raw baseline DB, a policy that lets `agent:bench` read every scope,
 * and a read-only service token for the HTTP API. Built on first use, so `--only context` never pays for it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { openTokenStore } from '../src/auth/sqlite-token-store.ts';
import { type Ledger, type LedgerSession, openLedger } from '../src/index.ts';
import { DEFAULT_POLICY_DOCUMENT, POLICY_FILE } from '../src/policy/policy-file.ts';
import type { Settings } from './args.ts';
import { Dataset } from './data.ts';
import { readLines, writeLines } from './jsonl.ts';
import { RawStore } from './raw.ts';
import { round } from './stats.ts';

/** The CLI as users run it: `node bin/memledger.js`, the entry the hooks and MCP configurations name. */
export const MEMLEDGER_BIN = fileURLToPath(new URL('../bin/memledger.js', import.meta.url));

/** The MCP benchmark's principal: an agent with a read grant on every scope (from policy.json). */
export const BENCH_AGENT = 'agent:bench';

export interface ServingHome {
  memories: number;
  scopes: number;
  dataset: Dataset;
  home: string;
  memoryDb: string;
  /** The raw baseline DB holding the same rows (closed here: child processes open it). */
  rawDb: string;
  ledger: Ledger;
  /** `agent:bench` in this process: the library side of the MCP benchmark. */
  agent: LedgerSession;
  /** A read-only service token with a read grant on every scope, for the HTTP API. */
  token: string;
  build: { seconds: number };
}

export interface ServingSource {
  settings: Settings;
  dir: string;
  /** The vocabulary size and Zipf exponents of the main data set, kept the same here. */
  shape: { vocabulary: number; zipfS: number; scopeS: number };
  log(message: string): void;
}

export async function buildServingHome(src: ServingSource): Promise<ServingHome> {
  const memories = src.settings.servingScale;
  const scopes = Math.max(10, Math.round(memories / 1_000));
  const started = performance.now();
  const dir = join(src.dir, 'serving');
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true, mode: 0o700 });
  // The default policy plus one exact entry, which wins over `agent:*`: agent:bench reads every scope.
  const policy = {
    ...DEFAULT_POLICY_DOCUMENT,
    principals: {
      ...DEFAULT_POLICY_DOCUMENT.principals,
      [BENCH_AGENT]: { roles: ['reader'], grants: ['*:r'] },
    },
  };
  writeFileSync(join(home, POLICY_FILE), `${JSON.stringify(policy, null, 2)}\n`, { mode: 0o600 });

  const dataset = new Dataset({
    memories,
    scopes,
    seed: src.settings.seed,
    ...src.shape,
  });
  src.log(`serving home: generating and importing ${memories.toLocaleString('en')} memories`);
  const file = join(dir, 'import.jsonl');
  await writeLines(file, memories, (i) => dataset.line(i));
  const ledger = openLedger({ home });
  try {
    const operator = ledger.as(ledger.operator(), { surface: 'library', client: 'memledger-bench' });
    const imported = await operator.import(readLines(file), { mode: 'restore' });
    if (imported.imported !== memories) {
      throw new Error(`serving home: imported ${imported.imported} of ${memories} memories`);
    }
    const rawDb = join(dir, 'raw.db');
    const raw = new RawStore(rawDb);
    try {
      const stored = await raw.importLines(readLines(file));
      if (stored !== memories) throw new Error(`serving raw DB: stored ${stored} of ${memories} memories`);
    } finally {
      raw.close();
    }
    const tokens = openTokenStore(home);
    let token: string;
    try {
      token = (
        await tokens.create(
          { name: 'bench', kind: 'service', roles: ['reader'], grants: ['*:r'] },
          'human:operator',
        )
      ).secret;
    } finally {
      await tokens.close();
    }
    const seconds = round((performance.now() - started) / 1000, 1);
    src.log(`serving home: ready in ${seconds} s`);
    return {
      memories,
      scopes,
      dataset,
      home,
      memoryDb: join(home, 'memory.db'),
      rawDb,
      ledger,
      agent: ledger.as(ledger.principal(BENCH_AGENT), { surface: 'library', client: 'memledger-bench' }),
      token,
      build: { seconds },
    };
  } catch (error) {
    ledger.close();
    throw error;
  }
}

/**
 * The busiest `project:` scope of a data set (scope k > 0 is `project:` when k % 3 is 0; lower k is busier), for
 * the hook, which draws from the project a working directory belongs to.
 */
export function busiestProject(dataset: Dataset): string {
  const found = dataset.scopeNames.find((s) => s.startsWith('project:'));
  if (found === undefined) throw new Error('the data set has no project scope');
  return found;
}
