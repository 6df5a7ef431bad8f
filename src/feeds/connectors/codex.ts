/**
 * Codex rollouts: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl` (`$CODEX_HOME` relocates ~/.codex).
 *
 * Fields relied on (openai/codex `codex-rs/protocol`: `RolloutLine` flattens `timestamp` next to `RolloutItem`,
 * which is `#[serde(tag = "type", content = "payload", rename_all = "snake_case")]`):
 * - `session_meta`: `payload.id` (newer builds also `session_id`), `cwd`, `cli_version`, `originator`,
 *   `git.repository_url`. It is the first line, so its facts are carried in the checkpoint for later chunks.
 * - `turn_context`: `payload.cwd` (and model, approval and sandbox policy) for the turns that follow.
 * - `response_item`: `payload.type` "message" with `role` and `content: [{type:"input_text"|"output_text",text}]`;
 *   "function_call" / "function_call_output" (`call_id`, `output`: the tool's text, for shell calls either JSON
 *   `{"output","metadata":{"exit_code"}}` or text with `Exit code: N` or `Process exited with code N`); "reasoning" is not read.
 * - `event_msg`: `payload.type` "user_message" (`message`: what the person typed, without the environment and
 *   AGENTS.md context Codex adds to the model's user-role items) and "agent_message" (a copy of the assistant
 *   item, not read twice).
 * - `compacted`: `payload.message`, the summary that replaced history.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { readJsonl } from '../jsonl-source.ts';
import type { Batch, Checkpoint, Connector, Entry, ReadOptions } from '../types.ts';

export const codex: Connector = {
  kind: 'codex',
  principal: 'agent:codex',
  defaultPath(env) {
    return join(env.CODEX_HOME || join(env.HOME || homedir(), '.codex'), 'sessions');
  },
  read(root: string, checkpoint: Checkpoint, options?: ReadOptions): AsyncIterable<Batch> {
    return readJsonl(
      root,
      (name) => name.startsWith('rollout-') && name.endsWith('.jsonl'),
      checkpoint,
      parseLine,
      options,
    );
  },
};

function parseLine(
  value: unknown,
  at: { file: string; offset: number; meta: Record<string, string> },
): Entry[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const line = value as { timestamp?: unknown; type?: unknown; payload?: unknown };
  const payload = line.payload as Record<string, unknown> | undefined;
  if (typeof payload !== 'object' || payload === null) return null;
  const meta = at.meta;
  if (line.type === 'session_meta') {
    const id = str(payload.session_id) ?? str(payload.id);
    if (id !== undefined) meta.sessionId = id;
    if (str(payload.cwd) !== undefined) meta.cwd = str(payload.cwd)!;
    if (str(payload.cli_version) !== undefined) meta.client = `codex/${str(payload.cli_version)}`;
    const git = payload.git as { repository_url?: unknown } | undefined;
    if (str(git?.repository_url) !== undefined) meta.repositoryUrl = str(git?.repository_url)!;
    return [];
  }
  if (line.type === 'turn_context') {
    if (str(payload.cwd) !== undefined) meta.cwd = str(payload.cwd)!;
    return [];
  }
  const sessionId = meta.sessionId ?? sessionFromName(at.file);
  const base = {
    id: `${sessionId}@${at.offset}`,
    sessionId,
    ...(meta.client === undefined ? {} : { client: meta.client }),
    ...(meta.cwd === undefined ? {} : { cwd: meta.cwd }),
    ...(meta.repositoryUrl === undefined ? {} : { repositoryUrl: meta.repositoryUrl }),
    ...(str(line.timestamp) === undefined ? {} : { at: str(line.timestamp) }),
  };
  if (line.type === 'compacted') {
    const text = str(payload.message);
    return text === undefined ? [] : [{ ...base, role: 'summary', text }];
  }
  if (line.type === 'event_msg') {
    if (payload.type !== 'user_message') return [];
    const text = str(payload.message);
    return text === undefined ? [] : [{ ...base, role: 'user', text }];
  }
  if (line.type !== 'response_item') return null;
  if (payload.type === 'message') {
    // The person's words come from event_msg.user_message; user-role items also carry injected context.
    if (payload.role !== 'assistant') return [];
    const text = contentText(payload.content);
    return text === '' ? [] : [{ ...base, role: 'assistant', text }];
  }
  if (payload.type === 'function_call_output' || payload.type === 'custom_tool_call_output') {
    const { text, failed } = toolOutput(payload.output);
    return text === '' ? [] : [{ ...base, role: 'tool', text, ...(failed ? { isError: true } : {}) }];
  }
  return [];
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** `rollout-2025-05-07T17-24-21-5973b6c0-94b8-487b-a530-2aeb6098ae0e.jsonl` → the trailing UUID. */
function sessionFromName(file: string): string {
  const m = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.jsonl$/i.exec(file);
  return m?.[1] ?? file;
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c) =>
      typeof c === 'object' && c !== null && typeof (c as { text?: unknown }).text === 'string'
        ? (c as { text: string }).text
        : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

/** A tool's output and whether it failed: a non-zero exit code in either of the shapes shell output takes. */
function toolOutput(output: unknown): { text: string; failed: boolean } {
  let text = typeof output === 'string' ? output : contentText((output as { content?: unknown })?.content);
  let failed = (output as { success?: unknown })?.success === false;
  if (text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as { output?: unknown; metadata?: { exit_code?: unknown } };
      if (typeof parsed.output === 'string') text = parsed.output;
      if (typeof parsed.metadata?.exit_code === 'number') failed = failed || parsed.metadata.exit_code !== 0;
    } catch {
      // plain text that happens to start with a brace
    }
  }
  // Older builds print `Exit code: N`; newer ones wrap output as `Process exited with code N`.
  const code = /^(?:Exit code:|Process exited with code) (\d+)/m.exec(text);
  if (code !== null) failed = failed || code[1] !== '0';
  return { text, failed };
}
