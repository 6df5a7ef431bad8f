/**
 * hook_process: the whole process `memledger hook claude-code` is, from spawn to exit, with a SessionStart JSON
 * on stdin and its working directory a git repository named like a project scope of the serving home (so the
 * context is not empty), in both forms: installed (the package's dist/, its hook bundle and tokenizer table,
 * what users run; the target's figure) and from this checkout (src/ through type stripping); and the checkout
 * with `source: "resume"` (which does nothing). Baselines, spawned the same way in the same run: bare Node
 * (`node -e ''`) and a minimal script opening node:sqlite on the same memory.db to run one scoped FTS query.
 * The variants take turns run by run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scopeToken } from '../../src/store/sqlite/rows.ts';
import type { Context } from '../context.ts';
import { CLOCK_TICKS, cleanEnv, type ProcessRun, runProcess } from '../procs.ts';
import { scopedMatch } from '../raw.ts';
import { atMost, type BenchResult, result } from '../report.ts';
import { installedCopy } from '../installed.ts';
import { busiestProject, MEMLEDGER_BIN } from '../serving.ts';
import { quantile, ratio, round, summarize } from '../stats.ts';

const TARGET_P50_MS = 90;
const RAW_HOOK = fileURLToPath(new URL('../children/raw-hook.mjs', import.meta.url));
const VARIANTS = ['installed', 'startup', 'resume', 'bareNode', 'nodeSqliteQuery'] as const;
type Variant = (typeof VARIANTS)[number];

export async function benchHookProcess(ctx: Context): Promise<BenchResult> {
  const serving = await ctx.serving();
  const { hookRuns, hookWarmup } = ctx.settings;
  const project = busiestProject(serving.dataset);
  const repo = gitRepo(join(ctx.dir, 'hook-repos', project.slice('project:'.length)));
  const env = cleanEnv();
  ctx.log('hook_process: building dist/ and copying the installed form');
  const installedBin = installedCopy(ctx.dir);
  // A query the project can answer, for the baseline's one FTS query over the scopes the hook reads.
  const query =
    serving.dataset.queries(10_000, 5).find((q) => q.scope === project) ?? serving.dataset.queries(1, 5)[0]!;
  const match = scopedMatch(query.terms, [project, 'shared'].map(scopeToken));
  const hookInput = (source: string, i: number) =>
    JSON.stringify({
      // A fresh session each run: one session is shown a memory once, so a repeated id would empty the block.
      session_id: `bench-${source}-${i}`,
      transcript_path: join(repo, `bench-${i}.jsonl`),
      cwd: repo,
      hook_event_name: 'SessionStart',
      source,
    });
  const run = (variant: Variant, i: number): Promise<ProcessRun> => {
    switch (variant) {
      case 'installed':
        return runProcess(process.execPath, [installedBin, 'hook', 'claude-code', '--home', serving.home], {
          input: hookInput(variant, i),
          cwd: repo,
          env,
        });
      case 'startup':
      case 'resume':
        return runProcess(process.execPath, [MEMLEDGER_BIN, 'hook', 'claude-code', '--home', serving.home], {
          input: hookInput(variant, i),
          cwd: repo,
          env,
        });
      case 'bareNode':
        return runProcess(process.execPath, ['-e', ''], { cwd: repo, env });
      case 'nodeSqliteQuery':
        return runProcess(process.execPath, [RAW_HOOK, serving.memoryDb, match], { cwd: repo, env });
    }
  };

  ctx.log(`hook_process: ${hookWarmup} warm-up + ${hookRuns} measured processes per variant, cwd ${project}`);
  const lists = () => ({ installed: [], startup: [], resume: [], bareNode: [], nodeSqliteQuery: [] });
  const wall: Record<Variant, number[]> = lists();
  const cpu: Record<Variant, number[]> = lists();
  let contextChars = 0;
  let rawRows = 0;
  for (let i = 0; i < hookWarmup + hookRuns; i++) {
    for (let k = 0; k < VARIANTS.length; k++) {
      const variant = VARIANTS[(i + k) % VARIANTS.length]!;
      const out = await run(variant, i);
      if (out.code !== 0)
        throw new Error(`hook_process: ${variant} exited ${out.code}: ${out.stderr.slice(0, 500)}`);
      const measured = i >= hookWarmup;
      if (variant === 'startup' || variant === 'installed') {
        const context = additionalContext(out.stdout);
        // An empty answer means the hook failed quietly (it always exits 0), or the project had nothing.
        if (context === '')
          throw new Error(
            `hook_process: ${variant} SessionStart printed no context: ${out.stdout.slice(0, 300)}`,
          );
        if (measured) contextChars += context.length;
      } else if (variant === 'resume' && out.stdout !== '') {
        throw new Error(`hook_process: resume printed ${out.stdout.slice(0, 200)}`);
      } else if (variant === 'nodeSqliteQuery' && measured) {
        rawRows += Number(out.stdout.trim());
      }
      if (!measured) continue;
      wall[variant].push(out.wallMs);
      if (out.cpuMs !== null) cpu[variant].push(out.cpuMs);
    }
  }

  const figures = (v: Variant) => ({
    ...summarize(wall[v], cpu[v].length === wall[v].length ? cpu[v] : undefined),
    p95Ms: quantile(wall[v], 0.95),
  });
  const installed = figures('installed');
  const startup = figures('startup');
  const resume = figures('resume');
  const bare = figures('bareNode');
  const query1 = figures('nodeSqliteQuery');
  return result({
    description: `whole-process time of \`memledger hook claude-code --home H\` with a SessionStart JSON on stdin, cwd a git repository of ${project} in the serving home of ${serving.memories.toLocaleString('en')} memories: installed (the built package: dist/, its hook bundle and tokenizer table) and from this checkout (\`node bin/memledger.js\`, src/ through type stripping; and with source "resume", which exits early), vs \`node -e ''\` and a minimal plain-JS node:sqlite script running one scoped FTS5 query on the same memory.db, spawned the same way`,
    memledger: { installed, startup, resume },
    raw: { nodeSqliteQuery: query1, bareNode: bare },
    ratio: ratio(installed.p50Ms, query1.p50Ms),
    ratios: {
      p50OverNodeSqliteQuery: ratio(installed.p50Ms, query1.p50Ms),
      p50OverBareNode: ratio(installed.p50Ms, bare.p50Ms),
      checkoutP50OverNodeSqliteQuery: ratio(startup.p50Ms, query1.p50Ms),
      resumeP50OverBareNode: ratio(resume.p50Ms, bare.p50Ms),
      ...(installed.cpuP50Ms !== undefined && query1.cpuP50Ms !== undefined
        ? { cpuP50OverNodeSqliteQuery: ratio(installed.cpuP50Ms, query1.cpuP50Ms) }
        : {}),
    },
    target: `installed startup p50 <= ${TARGET_P50_MS} ms`,
    checks: [atMost('installed p50Ms', installed.p50Ms, TARGET_P50_MS)],
    notes: {
      memories: serving.memories,
      project,
      forms:
        'installed: package.json, bin/ and dist/ of this tree (after npm run build:lib) copied under node_modules/memledger, as npm installs it; startup and resume: this checkout',
      warmupPerVariant: hookWarmup,
      order: 'the five variants take turns, each run starting with the next one',
      cpu: `cpuP50Ms and cpuMeanMs are each child's own CPU time (user + system, all threads) as the kernel reports it on reaping, in ${1000 / CLOCK_TICKS} ms ticks`,
      compileCache:
        'bin/memledger.js enables Node’s compile cache and keeps a code cache of the hook bundle beside it; the warm-up runs fill both, as an installed hook’s first session does',
      meanContextChars: round(contextChars / (2 * hookRuns), 0),
      rawQuery: { terms: query.terms, meanRows: round(rawRows / hookRuns, 1) },
    },
  });
}

/** The context a SessionStart hook added, or '' when it printed nothing usable. */
function additionalContext(stdout: string): string {
  try {
    const out = JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: unknown } };
    const text = out.hookSpecificOutput?.additionalContext;
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

/** A directory that is a git repository named like the project (`git init`, else the bare `.git` marker). */
function gitRepo(dir: string): string {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('git', ['init', '--quiet', dir], { stdio: 'pipe' });
  } catch {
    // No git here: the hook only looks for `.git` (feeds/project-scope.ts), so the marker does the same job.
    mkdirSync(join(dir, '.git'), { recursive: true });
  }
  return dir;
}
