/**
 * How an agent starts memledger. In a file only this user reads: the absolute Node binary running the absolute
 * `bin/memledger.js`, never through npx or a PATH lookup, so a hook that runs at every session start starts fast
 * and runs the copy installed. In a file a team commits (`portable`): `memledger` as found on each teammate's
 * PATH, with no path of this machine in it.
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
  /** For a committed file: `memledger` from PATH, and no home (each machine's MEMLEDGER_HOME or default). */
  portable?: boolean;
}

/** The command word that starts memledger: this machine's Node and bin, or `memledger` from PATH. */
function launcher(options: LaunchOptions): string[] {
  return options.portable === true ? ['memledger'] : [nodePath(), binPath()];
}

/** The shell command a hook entry runs. */
export function hookCommand(agent: HookAgent, options: LaunchOptions = {}): string {
  const words = [...launcher(options), 'hook', agent];
  if (options.perPrompt === true) words.push('--per-prompt');
  if (options.home !== undefined && options.portable !== true) words.push('--home', options.home);
  return words.map(shellQuote).join(' ');
}

/** The MCP server's command and arguments, as the agent principal of that agent. */
export function mcpLaunch(
  agent: HookAgent,
  options: LaunchOptions = {},
): { command: string; args: string[] } {
  const [command, ...first] = launcher(options);
  const args = [...first, 'mcp', '--as', `agent:${agent}`];
  if (options.home !== undefined && options.portable !== true) args.push('--home', options.home);
  return { command: command!, args };
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
