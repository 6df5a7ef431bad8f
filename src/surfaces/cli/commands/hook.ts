/**
 * `memledger hook claude-code|codex`: what the agents' hooks run. Reads the hook's JSON on stdin and prints the
 * session's context in the form the hook expects. Always exits 0; a failure is audited, never shown.
 */
import { type HookAgent, runHook } from '../../../integrations/hook.ts';
import { MemoryError } from '../../../model/errors.ts';
import { optFlag } from '../args.ts';
import { defineCommand } from '../command.ts';

const AGENTS: readonly HookAgent[] = ['claude-code', 'codex'];
/** Hook input is a small JSON object; a prompt can be long, but not this long. */
const MAX_INPUT = 4 * 1024 * 1024;

export const hookCommand = defineCommand<undefined>({
  name: 'hook',
  summary: 'run as an agent hook: context at session start, transcript sync at session end',
  usage: `memledger hook claude-code|codex [--per-prompt]
  Installed by memledger install; reads the hook's JSON on stdin. At SessionStart it prints the project's
  reviewed memories as additionalContext (skipped on resume); at SessionEnd/Stop it syncs that transcript
  if a feed of the agent's kind exists. It always exits 0 and prints nothing on failure (see memledger audit).
  --per-prompt      also add relevant memories on every UserPromptSubmit (or MEMLEDGER_HOOK_PER_PROMPT=1)`,
  positionals: { min: 1, max: 1 },
  options: { 'per-prompt': { type: 'boolean' } },
  async run(ctx, [agent], values) {
    if (!AGENTS.includes(agent as HookAgent)) {
      throw new MemoryError('invalid_input', `hook takes claude-code or codex, got ${agent}`);
    }
    const stdin = await readInput(ctx.io.stdin);
    const out = await runHook(agent as HookAgent, stdin, {
      env: ctx.io.env,
      perPrompt: optFlag(values, 'per-prompt'),
      home: ctx.homeOption,
      store: ctx.storeOption,
    });
    if (out !== '') ctx.io.stdout.write(out);
    return undefined;
  },
});

/** The whole of stdin, or '' from a terminal (someone ran it by hand) or past the size cap. */
async function readInput(stdin: NodeJS.ReadableStream): Promise<string> {
  if ((stdin as { isTTY?: boolean }).isTTY === true) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stdin) {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
      size += buffer.length;
      if (size > MAX_INPUT) return '';
      chunks.push(buffer);
    }
  } catch {
    return '';
  }
  return Buffer.concat(chunks).toString('utf8');
}
