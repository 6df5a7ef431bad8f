/**
 * Claude Code transcripts: `~/.claude/projects/<project>/<session>.jsonl`, and subagent transcripts beside them
 * (`<session>/subagents/agent-<id>.jsonl`, formerly `agent-<id>.jsonl`), read recursively.
 *
 * Fields relied on (Claude Code's transcript JSONL, as public parsers document it: neilberkman/ccrider
 * research/schema.md, simonw/claude-code-transcripts, and the Agent SDK's message types):
 * - every message line: `type` ("user" | "assistant" | "system" | "summary" | "file-history-snapshot" | …),
 *   `uuid`, `parentUuid`, `sessionId`, `timestamp`, `cwd`, `version`, `isSidechain`, and `agentId` in a subagent.
 * - `message.content`: a string, or blocks: `{type:"text",text}`, `{type:"tool_use",…}`, `{type:"thinking",…}`,
 *   and in **user** lines `{type:"tool_result",tool_use_id,content,is_error?}`: tool output lives in user lines.
 * - `isMeta: true` user lines are harness notices (caveats, command output), not the person.
 * - compaction: a `{type:"system",subtype:"compact_boundary"}` line, then a user line with
 *   `isCompactSummary: true` whose text summarises the conversation so far; older files carry
 *   `{type:"summary",summary,leafUuid}` title lines.
 */
import { homedir } from 'node:os';
import { basename, join } from 'node:path';
import { readJsonl } from '../jsonl-source.ts';
import type { Batch, Checkpoint, Connector, Entry, ReadOptions } from '../types.ts';

export const claudeCode: Connector = {
  kind: 'claude-code',
  principal: 'agent:claude-code',
  defaultPath(env) {
    // CLAUDE_CONFIG_DIR relocates ~/.claude.
    const base = env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
    return join(base, 'projects');
  },
  read(root: string, checkpoint: Checkpoint, options?: ReadOptions): AsyncIterable<Batch> {
    return readJsonl(root, (name) => name.endsWith('.jsonl'), checkpoint, parseLine, options);
  },
};

type Block = { type?: unknown; text?: unknown; content?: unknown; is_error?: unknown; tool_use_id?: unknown };

function parseLine(value: unknown, at: { file: string; offset: number }): Entry[] | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const line = value as Record<string, unknown>;
  const type = line.type;
  const sessionId = str(line.sessionId) ?? basename(at.file, '.jsonl');
  const id = str(line.uuid) ?? `${sessionId}@${at.offset}`;
  const base = {
    sessionId,
    ...(str(line.agentId) === undefined ? {} : { agentId: str(line.agentId) }),
    ...(str(line.version) === undefined ? {} : { client: `claude-code/${str(line.version)}` }),
    ...(str(line.cwd) === undefined ? {} : { cwd: str(line.cwd) }),
    ...(str(line.timestamp) === undefined ? {} : { at: str(line.timestamp) }),
  };
  if (type === 'summary') {
    const text = str(line.summary);
    return text === undefined
      ? []
      : [{ ...base, id: `summary:${str(line.leafUuid) ?? id}`, role: 'summary', text }];
  }
  if (type !== 'user' && type !== 'assistant') return known(type) ? [] : null;
  const message = line.message as { content?: unknown } | undefined;
  if (message === undefined || typeof message !== 'object' || message === null) return null;
  if (line.isMeta === true) return [];

  if (type === 'assistant') {
    const text = blocks(message.content)
      .filter((b) => b.type === 'text' && typeof b.text === 'string')
      .map((b) => b.text as string)
      .join('\n');
    return text.trim() === '' ? [] : [{ ...base, id, role: 'assistant', text }];
  }

  // A user line: the person's words, a compaction summary, a subagent's task, or tool results.
  if (line.isCompactSummary === true) {
    return [{ ...base, id, role: 'summary', text: textOf(message.content) }];
  }
  const role = line.isSidechain === true ? 'prompt' : 'user';
  if (typeof message.content === 'string') return [{ ...base, id, role, text: message.content }];
  const out: Entry[] = [];
  const words: string[] = [];
  for (const b of blocks(message.content)) {
    if (b.type === 'text' && typeof b.text === 'string') words.push(b.text);
    else if (b.type === 'tool_result') {
      out.push({
        ...base,
        id: `${id}:tool:${str(b.tool_use_id) ?? out.length}`,
        role: 'tool',
        text: textOf(b.content),
        ...(b.is_error === true ? { isError: true } : {}),
      });
    }
  }
  if (words.length > 0) out.unshift({ ...base, id, role, text: words.join('\n') });
  return out;
}

/** Line types that carry nothing to mine; anything else unknown is counted as skipped. */
const known = (type: unknown): boolean =>
  type === 'system' ||
  type === 'file-history-snapshot' ||
  type === 'queue-operation' ||
  type === 'progress' ||
  type === 'attachment' ||
  type === 'result';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const blocks = (content: unknown): Block[] =>
  Array.isArray(content) ? content.filter((b): b is Block => typeof b === 'object' && b !== null) : [];

/** A tool result's or summary's text: a string, or the text blocks of an array (images dropped). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return blocks(content)
    .filter((b) => b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}
