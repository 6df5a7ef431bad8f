/**
 * Installing memledger into Codex: its MCP server, its instructions file, and its session hooks.
 *
 * Files relied on (Codex docs: config, AGENTS.md, hooks; `$CODEX_HOME` relocates ~/.codex):
 * - MCP: `[mcp_servers.<name>]` with `command` and `args` in `~/.codex/config.toml`, or for one trusted project
 *   in `<repo>/.codex/config.toml`. Codex has no per-user file for one project, and the project's `.codex/` and
 *   AGENTS.md are committed for the team: there the launch is portable (`memledger` from PATH, no home;
 *   `env_vars` forwards MEMLEDGER_HOME, which Codex's default environment for a server leaves out).
 * - trust: Codex reads a project's `.codex/` only once the project is trusted, and runs a non-managed hook only
 *   after the user trusts its exact definition in `/hooks` (a changed hook is untrusted again); install says so.
 * - instructions: `~/.codex/AGENTS.md` (every session) or `<repo>/AGENTS.md`; a fenced block is added.
 * - hooks: `hooks.json` next to that config (`~/.codex/hooks.json`, `<repo>/.codex/hooks.json`), the same shape
 *   as Claude Code's. SessionStart (matcher `startup|clear`; sources are startup, resume, clear) gets context;
 *   Stop, which runs at the end of each turn, reads the new part of the rollout when a codex feed exists.
 *   Older Codex builds without hooks ignore the file.
 */
import { join } from 'node:path';
import { SERVER_NAME } from './claude-code.ts';
import { type FileEdit, jsonEdit, parseJsonObject, readText } from './edits.ts';
import { type HookSpec, withOurHooks, withoutOurHooks } from './json-config.ts';
import { hookCommand, isOurHookCommand, type LaunchOptions, mcpLaunch } from './launch.ts';
import { AGENT_INSTRUCTIONS, withBlock, withoutBlock } from './markdown-block.ts';
import type { InstallTarget, Installer } from './target.ts';
import { readTable, withoutTable, withTable } from './toml-table.ts';

export function codexPaths(target: InstallTarget): { config: string; hooks: string; agents: string } {
  if (target.mode === 'project') {
    return {
      config: join(target.root, '.codex', 'config.toml'),
      hooks: join(target.root, '.codex', 'hooks.json'),
      agents: join(target.root, 'AGENTS.md'),
    };
  }
  const codexHome = target.env.CODEX_HOME || join(target.home, '.codex');
  return {
    config: join(codexHome, 'config.toml'),
    hooks: join(codexHome, 'hooks.json'),
    agents: join(codexHome, 'AGENTS.md'),
  };
}

const ours = (command: unknown) => isOurHookCommand(command, 'codex');

export function codexHooks(launch: LaunchOptions): HookSpec[] {
  return [
    { event: 'SessionStart', matcher: 'startup|clear', command: hookCommand('codex', launch), timeout: 15 },
    { event: 'Stop', command: hookCommand('codex', { ...launch, perPrompt: false }), timeout: 60 },
  ];
}

export const codexInstaller: Installer = {
  install(target, options) {
    const paths = codexPaths(target);
    const launch: LaunchOptions = { ...options, portable: target.mode === 'project' };
    const configText = readText(paths.config);
    const { command, args } = mcpLaunch('codex', launch);
    const server = launch.portable ? { command, args, env_vars: ['MEMLEDGER_HOME'] } : { command, args };
    const configAfter = withTable(paths.config, configText, 'mcp_servers', SERVER_NAME, server);
    const hooksText = readText(paths.hooks);
    const hooks = withOurHooks(parseJsonObject(paths.hooks, hooksText), codexHooks(launch), ours);
    const agentsText = readText(paths.agents);
    const agentsAfter = withBlock(agentsText, AGENT_INSTRUCTIONS);
    return [
      textEdit(paths.config, configText, configAfter, `mcp_servers.${SERVER_NAME}`),
      jsonEdit(paths.hooks, hooksText, hooks, false),
      textEdit(paths.agents, agentsText, agentsAfter, 'memledger instructions block'),
    ];
  },
  uninstall(target) {
    const paths = codexPaths(target);
    const configText = readText(paths.config);
    const present = readTable(paths.config, configText, 'mcp_servers', SERVER_NAME) !== undefined;
    const configAfter = present
      ? withoutTable(paths.config, configText, 'mcp_servers', SERVER_NAME)
      : configText;
    const hooksText = readText(paths.hooks);
    const hooks = withoutOurHooks(parseJsonObject(paths.hooks, hooksText), ours);
    const agentsText = readText(paths.agents);
    return [
      textEdit(
        paths.config,
        configText,
        configAfter === '' ? null : configAfter,
        `mcp_servers.${SERVER_NAME}`,
      ),
      jsonEdit(paths.hooks, hooksText, hooks, true),
      textEdit(paths.agents, agentsText, withoutBlock(agentsText), 'memledger instructions block'),
    ];
  },
};

function textEdit(path: string, before: string | null, after: string | null, what: string): FileEdit {
  return { path, before, after, what: before === after ? [] : [what] };
}
