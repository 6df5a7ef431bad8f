/**
 * Hand-written transcripts in the real formats, with their awkward parts: Claude Code tool results inside user
 * lines, meta lines, compaction (a boundary and a summary), subagent transcripts in `<session>/subagents/`, and
 * a last line still being written; Codex rollouts with session_meta, turn_context, response_item and event_msg.
 * A "world" is a temporary user home, a memledger home and a git repository, removed afterwards.
 */
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Ledger, openLedger } from '../../src/index.ts';

export interface World {
  root: string;
  /** The user's home: `.claude/projects` and `.codex/sessions` live here. */
  userHome: string;
  claudeProjects: string;
  codexSessions: string;
  /** A git repository whose origin is github.com/acme/acme-api: project:acme-api. */
  repo: string;
  /** The memledger data directory. */
  home: string;
}

export async function withWorld<T>(fn: (world: World, ledger: Ledger) => Promise<T>): Promise<T> {
  const root = mkdtempSync(join(tmpdir(), 'memledger-feeds-'));
  const world: World = {
    root,
    userHome: join(root, 'user'),
    claudeProjects: join(root, 'user', '.claude', 'projects'),
    codexSessions: join(root, 'user', '.codex', 'sessions'),
    repo: join(root, 'src', 'acme-api-checkout'),
    home: join(root, 'memledger'),
  };
  mkdirSync(world.claudeProjects, { recursive: true });
  mkdirSync(world.codexSessions, { recursive: true });
  makeRepo(world.repo, 'git@github.com:acme/acme-api.git');
  const ledger = openLedger({ home: world.home });
  try {
    return await fn(world, ledger);
  } finally {
    ledger.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** A directory that looks like a git checkout to memledger: `.git/config` with an origin remote (or none). */
export function makeRepo(dir: string, origin?: string): string {
  mkdirSync(join(dir, '.git'), { recursive: true });
  const remote =
    origin === undefined
      ? ''
      : `[remote "origin"]\n\turl = ${origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`;
  writeFileSync(join(dir, '.git', 'config'), `[core]\n\tbare = false\n${remote}`);
  return dir;
}

// --- Claude Code ---------------------------------------------------------------------------------------------

export type ClaudeLine = Record<string, unknown>;

export const cc = {
  user: (text: string): ClaudeLine => ({ type: 'user', message: { role: 'user', content: text } }),
  /** The person's words as content blocks, as Claude Code writes a prompt with an attachment. */
  userBlocks: (...texts: string[]): ClaudeLine => ({
    type: 'user',
    message: { role: 'user', content: texts.map((text) => ({ type: 'text', text })) },
  }),
  assistant: (text: string, toolUse?: { id: string; command: string }): ClaudeLine => ({
    type: 'assistant',
    message: {
      id: 'msg_01',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'thinking', thinking: 'We always use the secret word banana.' },
        { type: 'text', text },
        ...(toolUse === undefined
          ? []
          : [{ type: 'tool_use', id: toolUse.id, name: 'Bash', input: { command: toolUse.command } }]),
      ],
      stop_reason: toolUse === undefined ? 'end_turn' : 'tool_use',
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  }),
  /** A tool's output: Claude Code stores it in a user-role line, with `toolUseResult` beside the message. */
  toolResult: (toolUseId: string, text: string, isError = false): ClaudeLine => ({
    type: 'user',
    message: {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: toolUseId,
          content: [{ type: 'text', text }],
          ...(isError ? { is_error: true } : {}),
        },
      ],
    },
    toolUseResult: {
      stdout: isError ? '' : text,
      stderr: isError ? text : '',
      interrupted: false,
      isImage: false,
    },
  }),
  meta: (text: string): ClaudeLine => ({
    type: 'user',
    isMeta: true,
    message: { role: 'user', content: text },
  }),
  compactBoundary: (): ClaudeLine => ({
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    compactMetadata: { trigger: 'auto', preTokens: 155000 },
  }),
  compactSummary: (text: string): ClaudeLine => ({
    type: 'user',
    isCompactSummary: true,
    message: {
      role: 'user',
      content: `This session is being continued from a previous conversation that ran out of context. ${text}`,
    },
  }),
  title: (summary: string, leafUuid: string): ClaudeLine => ({ type: 'summary', summary, leafUuid }),
  snapshot: (): ClaudeLine => ({
    type: 'file-history-snapshot',
    messageId: 'm1',
    snapshot: { trackedFileBackups: {} },
  }),
};

export interface ClaudeTranscript {
  projects: string;
  sessionId: string;
  cwd: string;
  lines: ClaudeLine[];
  /** Text of a last line still being written: no newline after it. */
  partial?: string;
  /** A subagent's transcript: `<session>/subagents/agent-<id>.jsonl`, every line a sidechain. */
  agentId?: string;
  version?: string;
}

/** Writes a transcript where Claude Code would and returns its path. Message lines get the common fields. */
export function writeClaudeTranscript(t: ClaudeTranscript): string {
  const projectDir = join(t.projects, t.cwd.replace(/[^A-Za-z0-9]/g, '-'));
  const path =
    t.agentId === undefined
      ? join(projectDir, `${t.sessionId}.jsonl`)
      : join(projectDir, t.sessionId, 'subagents', `agent-${t.agentId}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, claudeText(t));
  return path;
}

export function claudeText(t: ClaudeTranscript, from = 0): string {
  let parent: string | null = null;
  const out: string[] = [];
  t.lines.forEach((line, i) => {
    if (line.type === 'summary' || line.type === 'file-history-snapshot') {
      out.push(JSON.stringify(line));
      return;
    }
    const uuid = `${t.agentId ?? t.sessionId}-line-${from + i}`;
    out.push(
      JSON.stringify({
        parentUuid: parent,
        isSidechain: t.agentId !== undefined,
        userType: 'external',
        cwd: t.cwd,
        sessionId: t.sessionId,
        version: t.version ?? '2.0.29',
        gitBranch: 'main',
        ...(t.agentId === undefined ? {} : { agentId: t.agentId }),
        uuid,
        timestamp: new Date(Date.UTC(2025, 10, 1, 9, 0, from + i)).toISOString(),
        ...line,
      }),
    );
    parent = uuid;
  });
  return `${out.join('\n')}\n${t.partial ?? ''}`;
}

/** Appends lines (and optionally a new unfinished tail) to a transcript, as a live session does. */
export function appendClaude(path: string, t: ClaudeTranscript, from: number): void {
  appendFileSync(path, claudeText(t, from));
}

// --- Codex ---------------------------------------------------------------------------------------------------

export type CodexLine = { type: string; payload: Record<string, unknown> };

export const cx = {
  sessionMeta: (id: string, cwd: string, repositoryUrl?: string): CodexLine => ({
    type: 'session_meta',
    payload: {
      id,
      timestamp: '2025-11-01T09:00:00.000Z',
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.50.0',
      instructions: 'Always reply in French.',
      ...(repositoryUrl === undefined
        ? {}
        : { git: { commit_hash: 'abc123', branch: 'main', repository_url: repositoryUrl } }),
    },
  }),
  turnContext: (cwd: string): CodexLine => ({
    type: 'turn_context',
    payload: {
      cwd,
      approval_policy: 'on-request',
      sandbox_policy: { mode: 'workspace-write' },
      model: 'gpt-5-codex',
      summary: 'auto',
    },
  }),
  /** What the person typed: Codex records a user-role item (with injected context) and a user_message event. */
  user: (text: string): CodexLine[] => [
    {
      type: 'response_item',
      payload: {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: '<environment_context>\n  <cwd>/x</cwd>\n</environment_context>' },
          { type: 'input_text', text: '<user_instructions>Never use tabs in YAML.</user_instructions>' },
          { type: 'input_text', text },
        ],
      },
    },
    { type: 'event_msg', payload: { type: 'user_message', message: text, images: [] } },
  ],
  assistant: (text: string): CodexLine[] => [
    {
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    },
    { type: 'event_msg', payload: { type: 'agent_message', message: text } },
  ],
  shell: (callId: string, command: string, output: string, exitCode: number): CodexLine[] => [
    {
      type: 'response_item',
      payload: {
        type: 'function_call',
        name: 'shell',
        arguments: JSON.stringify({ command: ['bash', '-lc', command] }),
        call_id: callId,
      },
    },
    {
      type: 'response_item',
      payload: {
        type: 'function_call_output',
        call_id: callId,
        output: JSON.stringify({ output, metadata: { exit_code: exitCode, duration_seconds: 0.4 } }),
      },
    },
  ],
  reasoning: (): CodexLine => ({
    type: 'response_item',
    payload: { type: 'reasoning', summary: [{ type: 'summary_text', text: 'We always deploy on Fridays.' }] },
  }),
  tokens: (): CodexLine => ({ type: 'event_msg', payload: { type: 'token_count', info: null } }),
  compacted: (message: string): CodexLine => ({ type: 'compacted', payload: { message } }),
};

export interface CodexRollout {
  sessions: string;
  id: string;
  lines: (CodexLine | CodexLine[])[];
  partial?: string;
}

/** `sessions/2025/11/01/rollout-2025-11-01T09-00-00-<id>.jsonl`, one `{timestamp,type,payload}` per line. */
export function writeRollout(r: CodexRollout): string {
  const path = join(r.sessions, '2025', '11', '01', `rollout-2025-11-01T09-00-00-${r.id}.jsonl`);
  mkdirSync(dirname(path), { recursive: true });
  const lines = r.lines
    .flat()
    .map((l, i) =>
      JSON.stringify({ timestamp: new Date(Date.UTC(2025, 10, 1, 9, 0, i)).toISOString(), ...l }),
    );
  writeFileSync(path, `${lines.join('\n')}\n${r.partial ?? ''}`);
  return path;
}
