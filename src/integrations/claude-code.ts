/**
 * Installing memledger into Claude Code: the session hooks and the MCP server entry.
 *
 * Files relied on (Claude Code docs: settings, hooks, MCP installation scopes):
 * - hooks: `~/.claude/settings.json` for the user, `<repo>/.claude/settings.local.json` for one repository.
 *   The local file rather than the shared `settings.json` because the commands name this machine's Node and
 *   checkout, and Claude Code keeps settings.local.json out of git. `CLAUDE_CONFIG_DIR` relocates ~/.claude.
 * - MCP, both modes in `~/.claude.json` (Claude Code's own state file, edited in place and never removed): the
 *   user scope is its top-level `mcpServers`; for one repository, the local scope, `projects["<repo>"].mcpServers`,
 *   private to this user and this repository. Never the project scope `<repo>/.mcp.json`: that file is committed
 *   for the team, and the launch names this machine's Node, checkout and data directory. An entry an earlier
 *   install wrote there is taken out (uninstall too); any other `.mcp.json` content is left as it is.
 * - events: SessionStart with matcher `startup|clear|compact` (not `resume`: a resumed session has its context),
 *   SessionEnd to read the finished transcript, UserPromptSubmit only when asked for (`--per-prompt`).
 */
import { join } from 'node:path';
import { jsonEdit as edit, type FileEdit, parseJsonObject, readText } from './edits.ts';
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

export interface ClaudeCodePaths {
  /** The settings file the hooks go in. */
  settings: string;
  /** `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`): the MCP entry, user or local scope. */
  state: string;
  /** The project-scope file, for the repository: only ever cleaned of an entry an earlier install put there. */
  sharedMcp: string | null;
}

export function claudeCodePaths(target: InstallTarget): ClaudeCodePaths {
  const configDir = target.env.CLAUDE_CONFIG_DIR || join(target.home, '.claude');
  const state = target.env.CLAUDE_CONFIG_DIR
    ? join(configDir, '.claude.json')
    : join(target.home, '.claude.json');
  if (target.mode === 'project') {
    return {
      settings: join(target.root, '.claude', 'settings.local.json'),
      state,
      sharedMcp: join(target.root, '.mcp.json'),
    };
  }
  return { settings: join(configDir, 'settings.json'), state, sharedMcp: null };
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
    const spec = { type: 'stdio', command, args };
    const stateText = readText(paths.state);
    const stateDoc = parseJsonObject(paths.state, stateText);
    const state =
      target.mode === 'project'
        ? inProject(stateDoc, target.root, (p) => withMcpServer(p, SERVER_NAME, spec))
        : withMcpServer(stateDoc, SERVER_NAME, spec);
    const edits = [
      edit(paths.settings, settingsText, settings, false),
      edit(paths.state, stateText, state, false),
    ];
    if (paths.sharedMcp !== null) edits.push(withoutOurSharedEntry(paths.sharedMcp));
    return edits;
  },
  uninstall(target) {
    const paths = claudeCodePaths(target);
    const settingsText = readText(paths.settings);
    const settings = withoutOurHooks(parseJsonObject(paths.settings, settingsText), ours);
    const stateText = readText(paths.state);
    const stateDoc = parseJsonObject(paths.state, stateText);
    const state =
      target.mode === 'project'
        ? inProject(stateDoc, target.root, (p) => withoutMcpServer(p, SERVER_NAME))
        : withoutMcpServer(stateDoc, SERVER_NAME);
    // The state file goes only when memledger's entry was all it held (install made it); Claude Code remakes it.
    const edits = [
      edit(paths.settings, settingsText, settings, true),
      edit(paths.state, stateText, state, true),
    ];
    if (paths.sharedMcp !== null) edits.push(withoutOurSharedEntry(paths.sharedMcp));
    return edits;
  },
};

type Json = Record<string, unknown>;

/**
 * The state document with one project's entry changed by `change` (Claude Code's local scope lives in
 * `projects["<absolute path>"]`); the same object when nothing changes, the project entry created if missing.
 */
function inProject(doc: Json, root: string, change: (project: Json) => { doc: Json; what: string[] }) {
  const projects = isObject(doc.projects) ? doc.projects : {};
  const project = isObject(projects[root]) ? (projects[root] as Json) : {};
  const changed = change(project);
  if (changed.what.length === 0) return { doc, what: [] };
  const next = structuredClone(doc);
  const nextProjects: Json = { ...projects, [root]: changed.doc };
  // Claude Code's own project entries are never empty: an empty one is the one install made, so it goes.
  if (Object.keys(changed.doc).length === 0) delete nextProjects[root];
  if (Object.keys(nextProjects).length > 0) next.projects = nextProjects;
  else delete next.projects;
  return { doc: next, what: changed.what.map((w) => `projects[${root}].${w} (local scope)`) };
}

/**
 * `.mcp.json` without the memledger entry an earlier install wrote (one launching this tool's bin with `mcp`):
 * that entry named one machine's paths in a file the team commits. A memledger entry someone wrote by hand for
 * the team (e.g. `memledger mcp`) is theirs and stays; the file goes only when that entry was all it held.
 */
function withoutOurSharedEntry(path: string): FileEdit {
  const text = readText(path);
  const doc = parseJsonObject(path, text);
  const servers = isObject(doc.mcpServers) ? doc.mcpServers : {};
  const entry = servers[SERVER_NAME];
  if (!isOurMcpEntry(entry)) return { path, before: text, after: text, what: [] };
  const changed = withoutMcpServer(doc, SERVER_NAME);
  return edit(
    path,
    text,
    { doc: changed.doc, what: changed.what.map((w) => `${w} (a machine path, removed)`) },
    true,
  );
}

function isOurMcpEntry(entry: unknown): boolean {
  if (!isObject(entry) || !Array.isArray(entry.args)) return false;
  const [bin, verb] = entry.args as unknown[];
  return typeof bin === 'string' && /memledger(?:\.js)?$/.test(bin) && verb === 'mcp';
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
