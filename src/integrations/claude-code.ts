/**
 * Installing memledger into Claude Code: the session hooks and the MCP server entry.
 *
 * Files relied on (Claude Code docs: settings, hooks, MCP):
 * - hooks: `~/.claude/settings.json` for the user, `<repo>/.claude/settings.local.json` for one repository.
 *   The local file rather than the shared `settings.json` because the commands name this machine's Node and
 *   checkout, and Claude Code keeps settings.local.json out of git. `CLAUDE_CONFIG_DIR` relocates ~/.claude.
 * - MCP: the user scope is `mcpServers` at the top of `~/.claude.json` (Claude Code's own state file, edited in
 *   place and never removed); the project scope is `<repo>/.mcp.json` with `{"mcpServers":{name:{type,command,args}}}`,
 *   which Claude Code asks the user to approve before first use.
 * - events: SessionStart with matcher `startup|clear|compact` (not `resume`: a resumed session has its context),
 *   SessionEnd to read the finished transcript, UserPromptSubmit only when asked for (`--per-prompt`).
 */
import { join } from 'node:path';
import { jsonEdit as edit, parseJsonObject, readText } from './edits.ts';
import {
  type HookSpec,
  withMcpServer,
  withOurHooks,
  withoutMcpServer,
  withoutOurHooks,
} from './json-config.ts';
import { hookCommand, isOurHookCommand, type LaunchOptions, mcpLaunch } from './launch.ts';
import type { InstallTarget, Installer } from './target.ts';

export const SERVER_NAME = 'memledger';

export function claudeCodePaths(target: InstallTarget): {
  settings: string;
  mcp: string;
  mcpIsStateFile: boolean;
} {
  if (target.mode === 'project') {
    return {
      settings: join(target.root, '.claude', 'settings.local.json'),
      mcp: join(target.root, '.mcp.json'),
      mcpIsStateFile: false,
    };
  }
  const configDir = target.env.CLAUDE_CONFIG_DIR || join(target.home, '.claude');
  return {
    settings: join(configDir, 'settings.json'),
    mcp: target.env.CLAUDE_CONFIG_DIR ? join(configDir, '.claude.json') : join(target.home, '.claude.json'),
    mcpIsStateFile: true,
  };
}

const ours = (command: unknown) => isOurHookCommand(command, 'claude-code');

export function claudeCodeHooks(launch: LaunchOptions): HookSpec[] {
  const start = hookCommand('claude-code', launch);
  const hooks: HookSpec[] = [
    { event: 'SessionStart', matcher: 'startup|clear|compact', command: start, timeout: 15 },
    {
      event: 'SessionEnd',
      command: hookCommand('claude-code', { ...launch, perPrompt: false }),
      timeout: 60,
    },
  ];
  if (launch.perPrompt === true) hooks.push({ event: 'UserPromptSubmit', command: start, timeout: 10 });
  return hooks;
}

export const claudeCodeInstaller: Installer = {
  install(target, launch) {
    const paths = claudeCodePaths(target);
    const settingsText = readText(paths.settings);
    const settings = withOurHooks(
      parseJsonObject(paths.settings, settingsText),
      claudeCodeHooks(launch),
      ours,
    );
    const { command, args } = mcpLaunch('claude-code', launch);
    const mcpText = readText(paths.mcp);
    const mcp = withMcpServer(parseJsonObject(paths.mcp, mcpText), SERVER_NAME, {
      type: 'stdio',
      command,
      args,
    });
    return [edit(paths.settings, settingsText, settings, false), edit(paths.mcp, mcpText, mcp, false)];
  },
  uninstall(target) {
    const paths = claudeCodePaths(target);
    const settingsText = readText(paths.settings);
    const settings = withoutOurHooks(parseJsonObject(paths.settings, settingsText), ours);
    const mcpText = readText(paths.mcp);
    const mcp = withoutMcpServer(parseJsonObject(paths.mcp, mcpText), SERVER_NAME);
    return [
      edit(paths.settings, settingsText, settings, true),
      edit(paths.mcp, mcpText, mcp, !paths.mcpIsStateFile),
    ];
  },
};
