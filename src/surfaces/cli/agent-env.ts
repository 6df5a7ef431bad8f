/**
 * Is this CLI process running for a coding agent? One table of the environment variables known agents set for
 * the commands they run, read by one function. The CLI refuses verdicts from the local operator when it
 * answers yes (I7): an agent with a shell is the same OS user as the person, so only its environment tells
 * them apart.
 *
 * Where each entry comes from (public sources, checked when this table was written):
 * - Claude Code exports `CLAUDECODE=1` and `CLAUDE_CODE_ENTRYPOINT` (`cli`, `sdk-ts`, `sdk-py`, …) into every
 *   child; tools that start a nested `claude` strip exactly these two (e.g. the `claude_runner` crate's
 *   `--keep-claudecode` flag documents the first; the Python agent SDK's tests assert the second).
 *   `CLAUDE_CODE` is the older spelling that @vercel/detect-agent also checks.
 * - Codex (codex-rs/core/src/spawn.rs) sets `CODEX_SANDBOX_NETWORK_DISABLED=1` on a shell-tool command
 *   without full network access and `CODEX_SANDBOX=seatbelt` under the macOS sandbox, and gives the command a
 *   null stdin; `CODEX_THREAD_ID` is reported exported into the shells of a live session, and `CODEX_CI` is
 *   checked by @vercel/detect-agent 1.2.5.
 * - Cursor: `CURSOR_AGENT` in commands of the cursor-agent CLI, `CURSOR_TRACE_ID` in the editor's terminals
 *   (@vercel/detect-agent; aws-cdk-cli's detect-agent.ts checks the first). The editor's variable is also set
 *   when a person types in Cursor's own terminal: that person passes a token or uses another terminal.
 * - Gemini CLI exports `GEMINI_CLI=1` to its shell tool (gitlab-org/cli merge request 3293 shows `env` run
 *   from it; @vercel/detect-agent checks it).
 * - GitHub Copilot: the Copilot CLI is detected by `COPILOT_CLI`, `COPILOT_MODEL`, `COPILOT_ALLOW_ALL` and
 *   `COPILOT_GITHUB_TOKEN` (@vercel/detect-agent 1.2.5). No `COPILOT_AGENT_*` or `GITHUB_COPILOT_*` variable
 *   that the cloud coding agent sets for its commands could be found; it runs them in GitHub Actions without
 *   a terminal, which the stdin rule refuses anyway.
 * - Aider sets no variable of its own for the commands it runs (aider/run_cmd.py; it even gives them a
 *   pseudo-terminal through pexpect), so only its configuration variables `AIDER_*` (AIDER_MODEL, …), which a
 *   shell started under a configured aider inherits, can tell. A person whose profile exports them is
 *   refused too, and told which variable to unset.
 * - Others that announce themselves the same way: `AI_AGENT` (the convention @vercel/detect-agent proposes),
 *   `OPENCODE_CLIENT`, `AMP_CURRENT_THREAD_ID`, `AUGMENT_AGENT`.
 * - memledger's own: `MEMLEDGER_PRINCIPAL` naming an agent or a service marks a process configured for one.
 *
 * This is a guard against an agent acting through the CLI as its user, not a sandbox: a process that scrubs
 * its environment and fakes a terminal cannot be told from a person by a CLI. Where that matters, serve the
 * home (`memledger serve`) and give agents agent tokens only.
 */
import { parsePrincipalRef } from '../../model/principal.ts';

export interface AgentEnvironment {
  /** The agent the variable belongs to, e.g. `Claude Code`. */
  agent: string;
  /** The variable that told, e.g. `CLAUDECODE`. Its value is never reported: it may be a secret. */
  variable: string;
}

interface Marker {
  agent: string;
  /** An exact name, or a prefix when it ends in `*`. */
  variable: string;
}

export const AGENT_ENV_MARKERS: readonly Marker[] = [
  { agent: 'Claude Code', variable: 'CLAUDECODE' },
  { agent: 'Claude Code', variable: 'CLAUDE_CODE_ENTRYPOINT' },
  { agent: 'Claude Code', variable: 'CLAUDE_CODE' },
  { agent: 'Codex', variable: 'CODEX_SANDBOX' },
  { agent: 'Codex', variable: 'CODEX_SANDBOX_NETWORK_DISABLED' },
  { agent: 'Codex', variable: 'CODEX_THREAD_ID' },
  { agent: 'Codex', variable: 'CODEX_CI' },
  { agent: 'Cursor', variable: 'CURSOR_AGENT' },
  { agent: 'Cursor', variable: 'CURSOR_TRACE_ID' },
  { agent: 'Gemini CLI', variable: 'GEMINI_CLI' },
  { agent: 'GitHub Copilot', variable: 'COPILOT_CLI' },
  { agent: 'GitHub Copilot', variable: 'COPILOT_MODEL' },
  { agent: 'GitHub Copilot', variable: 'COPILOT_ALLOW_ALL' },
  { agent: 'GitHub Copilot', variable: 'COPILOT_GITHUB_TOKEN' },
  { agent: 'Aider', variable: 'AIDER_*' },
  { agent: 'an AI agent', variable: 'AI_AGENT' },
  { agent: 'OpenCode', variable: 'OPENCODE_CLIENT' },
  { agent: 'Amp', variable: 'AMP_CURRENT_THREAD_ID' },
  { agent: 'Augment', variable: 'AUGMENT_AGENT' },
];

/**
 * The first known agent marker set (non-empty) in `env`, or null. `MEMLEDGER_PRINCIPAL` naming a non-human
 * principal counts as one.
 * @example detectAgentEnvironment({ CLAUDECODE: '1' }) // { agent: 'Claude Code', variable: 'CLAUDECODE' }
 */
export function detectAgentEnvironment(env: NodeJS.ProcessEnv): AgentEnvironment | null {
  const names = Object.keys(env)
    .filter((name) => (env[name] ?? '') !== '')
    .sort();
  for (const marker of AGENT_ENV_MARKERS) {
    const found = marker.variable.endsWith('*')
      ? names.find((name) => name.startsWith(marker.variable.slice(0, -1)))
      : names.includes(marker.variable)
        ? marker.variable
        : undefined;
    if (found !== undefined) return { agent: marker.agent, variable: found };
  }
  const configured = env.MEMLEDGER_PRINCIPAL ?? '';
  if (configured !== '' && configuredKind(configured) !== 'human') {
    return { agent: 'a configured agent', variable: 'MEMLEDGER_PRINCIPAL' };
  }
  return null;
}

/** The kind a principal reference names; a malformed one counts as not human (it names no person). */
function configuredKind(ref: string): string {
  try {
    return parsePrincipalRef(ref).kind;
  } catch {
    return 'unknown';
  }
}
