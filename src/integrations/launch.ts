/**
 * How an agent starts memledger: the absolute Node binary running the absolute `bin/memledger.js`, never through
 * npx or a PATH lookup, so a hook that runs at every session start starts fast and runs the copy installed.
 */
import { fileURLToPath } from 'node:url';
import type { HookAgent } from './hook.ts';

/** `bin/memledger.js` of this installation (from src/integrations or dist/integrations alike). */
export function binPath(): string {
  return fileURLToPath(new URL('../../bin/memledger.js', import.meta.url));
}

/** The Node binary running now: memledger needs Node 24, and this one is. */
export function nodePath(): string {
  return process.execPath;
}

export interface LaunchOptions {
  /** A data directory other than the default, written into the commands so hooks and server agree. */
  home?: string;
  /** Add context on every prompt too. */
  perPrompt?: boolean;
}

/** The shell command a hook entry runs. */
export function hookCommand(agent: HookAgent, options: LaunchOptions = {}): string {
  const words = [nodePath(), binPath(), 'hook', agent];
  if (options.perPrompt === true) words.push('--per-prompt');
  if (options.home !== undefined) words.push('--home', options.home);
  return words.map(shellQuote).join(' ');
}

/** The MCP server's command and arguments, as the agent principal of that agent. */
export function mcpLaunch(
  agent: HookAgent,
  options: LaunchOptions = {},
): { command: string; args: string[] } {
  const args = [binPath(), 'mcp', '--as', `agent:${agent}`];
  if (options.home !== undefined) args.push('--home', options.home);
  return { command: nodePath(), args };
}

/** Recognises a hook command this tool wrote, whichever Node or checkout it pointed at then. */
export function isOurHookCommand(command: unknown, agent: HookAgent): boolean {
  return (
    typeof command === 'string' && new RegExp(`memledger(?:\\.js)?['"]?\\s+hook\\s+${agent}\\b`).test(command)
  );
}

/** POSIX shell quoting: plain words stay as they are, anything else goes in single quotes. */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
