/**
 * `memledger install | uninstall claude-code|codex`: wire memledger into an agent (session hooks, MCP server,
 * instructions) for one repository or for the user, idempotently, keeping everything else in those files.
 * `uninstall` takes out exactly the entries `install` adds; `--dry-run` shows each file's change as a diff and
 * writes nothing. Machine paths go only into files this user alone reads; what it prints names where things went
 * and the steps the agent still needs from a person (Codex's project trust and hook review).
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { connectorFor } from '../../../feeds/connectors/index.ts';
import { claudeCodeInstaller, claudeCodePaths } from '../../../integrations/claude-code.ts';
import { codexInstaller, codexPaths } from '../../../integrations/codex.ts';
import { actionOf, applyEdits, type EditAction, type FileEdit } from '../../../integrations/edits.ts';
import type { HookAgent } from '../../../integrations/hook.ts';
import { unifiedDiff } from '../../../integrations/line-diff.ts';
import { type InstallTarget, type Installer, installTarget } from '../../../integrations/target.ts';
import { resolveHome } from '../../../store/sqlite/home.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag, optString } from '../args.ts';
import { type CliContext, defineCommand, type Values } from '../command.ts';
import { clean } from '../render.ts';

const INSTALLERS: Record<HookAgent, Installer> = {
  'claude-code': claudeCodeInstaller,
  codex: codexInstaller,
};

export interface InstallResult {
  agent: HookAgent;
  mode: 'project' | 'user';
  dryRun: boolean;
  /** Each file's change; on a dry run with `diff`, a unified diff of its text before and after. */
  changes: { path: string; action: EditAction; what: string[]; diff?: string }[];
  /** The transcript feed install adds when the home has none of this agent's kind. */
  feed: { name: string; action: 'added' | 'exists' | 'would add' | 'skipped' } | null;
  /** Where the MCP server was registered and what a person still has to do in the agent, in words. */
  notes: string[];
}

const OPTIONS = {
  project: { type: 'boolean' },
  user: { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  dir: { type: 'string' },
} as const;

export const installCommand = defineCommand<InstallResult>({
  name: 'install',
  summary: 'wire memledger into Claude Code or Codex: session hooks, MCP server, instructions',
  usage: `memledger install claude-code|codex [--project | --user] [--dry-run] [--per-prompt] [--no-feed]
  --project         this repository only (default). Claude Code: hooks in .claude/settings.local.json, the MCP
                    server in ~/.claude.json for this repository only (Claude Code's local scope); .mcp.json,
                    which teams commit, is not written. Codex: .codex/config.toml, .codex/hooks.json and
                    AGENTS.md, portable for the team (they run memledger from PATH and name no path)
  --user            every session: ~/.claude/settings.json and ~/.claude.json; ~/.codex/config.toml,
                    ~/.codex/hooks.json and ~/.codex/AGENTS.md
  --dir D           the repository (default: the current directory's)
  --dry-run         show each file's change as a diff; write nothing
  --per-prompt      also add relevant memories on every prompt (Claude Code UserPromptSubmit)
  --no-feed         do not add a transcript feed (else one is added if the home has none for this agent)
  Running it again changes nothing. Files only you read run this Node binary on this installation's
  bin/memledger.js (and name --home when one was given); Codex needs the project trusted and its hooks trusted
  in /hooks before they run (install prints the steps).`,
  positionals: { min: 1, max: 1 },
  options: { ...OPTIONS, 'per-prompt': { type: 'boolean' }, 'no-feed': { type: 'boolean' } },
  async run(ctx, [agent], values) {
    const { installer, target, home } = prepare(ctx, agent, values);
    const dryRun = optFlag(values, 'dry-run');
    const edits = installer.install(target, {
      ...(home === undefined ? {} : { home }),
      perPrompt: optFlag(values, 'per-prompt'),
    });
    if (!dryRun) applyEdits(edits);
    const feed = optFlag(values, 'no-feed') ? null : await ensureFeed(ctx, agent as HookAgent, dryRun);
    return {
      agent: agent as HookAgent,
      mode: target.mode,
      dryRun,
      changes: summary(edits, dryRun),
      feed,
      notes: installNotes(agent as HookAgent, target, edits, home, ctx.io.env),
    };
  },
  render: (r) => renderResult(r, 'install'),
});

export const uninstallCommand = defineCommand<InstallResult>({
  name: 'uninstall',
  summary: 'take memledger out of Claude Code or Codex: exactly what install added',
  usage: `memledger uninstall claude-code|codex [--project | --user] [--dry-run] [--dir D]
  Removes the hooks, the MCP server entry and the instructions block install added, and nothing else.
  Feeds and memories stay (memledger feeds remove NAME).`,
  positionals: { min: 1, max: 1 },
  options: OPTIONS,
  async run(ctx, [agent], values) {
    const { installer, target } = prepare(ctx, agent, values);
    const dryRun = optFlag(values, 'dry-run');
    const edits = installer.uninstall(target);
    if (!dryRun) applyEdits(edits);
    return {
      agent: agent as HookAgent,
      mode: target.mode,
      dryRun,
      changes: summary(edits, dryRun),
      feed: null,
      notes: [],
    };
  },
  render: (r) => renderResult(r, 'uninstall'),
});

function prepare(
  ctx: CliContext,
  agent: string | undefined,
  values: Values,
): { installer: Installer; target: InstallTarget; home: string | undefined } {
  const installer = INSTALLERS[agent as HookAgent];
  if (installer === undefined) {
    throw new MemoryError(
      'invalid_input',
      `install takes claude-code or codex, got ${JSON.stringify(agent)}`,
    );
  }
  if (optFlag(values, 'project') && optFlag(values, 'user')) {
    throw new MemoryError('invalid_input', 'give --project or --user, not both');
  }
  const mode = optFlag(values, 'user') ? 'user' : 'project';
  const dir = resolve(optString(values, 'dir') ?? process.cwd());
  if (mode === 'project' && !existsSync(dir)) throw new MemoryError('not_found', `no directory ${dir}`);
  const target = installTarget(mode, dir, ctx.io.env);
  // A home named explicitly is written into the commands, so the agent's hooks use the same data directory.
  const explicit = ctx.homeOption ?? ctx.io.env.MEMLEDGER_HOME;
  const home = explicit === undefined || explicit === '' ? undefined : resolveHome(explicit, ctx.io.env);
  return { installer, target, home };
}

/** Adds a transcript feed of the agent's kind when the home has none, so finished sessions reach review. */
async function ensureFeed(
  ctx: CliContext,
  agent: HookAgent,
  dryRun: boolean,
): Promise<InstallResult['feed']> {
  const name = agent;
  // Opening the home would create it and audit the look: a dry run touches nothing.
  if (dryRun) return { name, action: 'would add' };
  const session = ctx.session();
  const feeds = await session.feedList();
  const existing = feeds.find((f) => f.connector === agent);
  if (existing !== undefined) return { name: existing.name, action: 'exists' };
  if (feeds.some((f) => f.name === name)) return { name, action: 'skipped' };
  await session.feedAdd({
    name,
    connector: agent,
    config: { path: connectorFor(agent).defaultPath(ctx.io.env) },
  });
  return { name, action: 'added' };
}

function summary(edits: readonly FileEdit[], withDiff: boolean): InstallResult['changes'] {
  return edits.map((e) => {
    const change = { path: e.path, action: actionOf(e), what: e.what };
    return withDiff && e.before !== e.after
      ? { ...change, diff: unifiedDiff(e.before, e.after, e.path) }
      : change;
  });
}

/** Where the server went, and the steps only a person can take in the agent (from its documentation). */
function installNotes(
  agent: HookAgent,
  target: InstallTarget,
  edits: readonly FileEdit[],
  home: string | undefined,
  env: NodeJS.ProcessEnv,
): string[] {
  const notes: string[] = [];
  if (agent === 'claude-code') {
    const paths = claudeCodePaths(target);
    if (target.mode === 'project') {
      notes.push(
        `MCP server "memledger" registered for you alone in ${paths.state} (Claude Code's local scope for ` +
          `${target.root}); .mcp.json, which teams commit, is not written. Each teammate runs memledger install ` +
          'claude-code in their own checkout.',
      );
      const cleaned = edits.find((e) => e.path === paths.sharedMcp && e.before !== e.after);
      if (cleaned !== undefined)
        notes.push(
          `removed the memledger entry an earlier install wrote into ${cleaned.path} (it named this machine's paths)`,
        );
    } else notes.push(`MCP server "memledger" registered for every project in ${paths.state} (user scope).`);
    return notes;
  }
  const paths = codexPaths(target);
  const codexHome = env.CODEX_HOME || join(target.home, '.codex');
  if (target.mode === 'project') {
    notes.push(
      `Codex reads ${join(target.root, '.codex')} only in a trusted project: start codex in ${target.root} and ` +
        `trust it when asked, or add to ${join(codexHome, 'config.toml')}: ` +
        `[projects."${target.root}"] trust_level = "trusted"`,
    );
    notes.push(
      `${paths.config}, ${paths.hooks} and ${paths.agents} are portable (teams commit them): they run memledger ` +
        'from PATH and name no path of this machine; each teammate installs memledger (npm install -g memledger).',
    );
    if (!onPath('memledger', env))
      notes.push(
        'memledger is not on this PATH yet: npm install -g memledger, or use --user, whose files name this ' +
          "machine's Node and installation",
      );
    if (home !== undefined)
      notes.push(
        `these files name no data directory: the hooks and server use MEMLEDGER_HOME, else ~/.memledger; ` +
          `export MEMLEDGER_HOME=${home} where you start codex to use this one`,
      );
  }
  notes.push(
    `Codex runs a hook only after you trust it: in codex, type /hooks, review the memledger SessionStart and Stop ` +
      `hooks (${paths.hooks}) and trust each one. Codex skips a new or changed hook until then, and asks again ` +
      'after any change to it.',
  );
  return notes;
}

/** Whether an executable of that name is on PATH (the portable files start memledger that way). */
function onPath(name: string, env: NodeJS.ProcessEnv): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      // not in this directory
    }
  }
  return false;
}

function renderResult(r: InstallResult, verb: 'install' | 'uninstall'): string {
  const changed = r.changes.filter((c) => c.action !== 'unchanged');
  const lines: string[] = [];
  const scope = r.mode === 'user' ? 'for the user' : 'for this repository';
  if (changed.length === 0)
    lines.push(`${r.agent} is already ${verb === 'install' ? 'set up' : 'clean'} ${scope}; nothing changed`);
  else
    lines.push(
      `${r.dryRun ? 'would ' : ''}${verb} memledger ${verb === 'install' ? 'into' : 'from'} ${r.agent} ${scope}:`,
    );
  for (const c of r.changes) {
    const what = c.what.length === 0 ? '' : `  (${c.what.join(', ')})`;
    lines.push(`  ${c.action.padEnd(9)} ${clean(c.path)}${what}`);
    if (c.diff !== undefined)
      lines.push(
        ...clean(c.diff, true)
          .replace(/\n$/, '')
          .split('\n')
          .map((l) => `      ${l}`),
      );
  }
  if (r.feed !== null) {
    const feedLine: Record<string, string> = {
      added: `added feed ${r.feed.name}: finished sessions go to the review queue (memledger review list)`,
      exists: `feed ${r.feed.name} already reads this agent's transcripts`,
      'would add': `would add feed ${r.feed.name} unless one exists`,
      skipped: `a feed named ${r.feed.name} exists for another connector; add one: memledger feeds add ${r.agent} --name NAME`,
    };
    lines.push(feedLine[r.feed.action]!);
  }
  for (const note of r.notes) lines.push(`note: ${clean(note)}`);
  if (r.dryRun) lines.push('dry run: nothing was written');
  return `${lines.join('\n')}\n`;
}
