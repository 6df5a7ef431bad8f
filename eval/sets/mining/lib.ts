/** Helpers that write transcript lines in Claude Code's and Codex's real shapes, for the written fragments. */
import { createHash } from 'node:crypto';
import type { Expected, FragmentInput } from '../../mining/format.ts';

type Line = FragmentInput['lines'][number];
type Keep = Expected | Expected[] | undefined;

const keeps = (k: Keep): { keep?: Expected[] } =>
  k === undefined ? {} : { keep: Array.isArray(k) ? k : [k] };

/** A stable uuid-shaped id from a fragment id and a line number. */
export function uuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export const fact = (body: string): Expected => ({ body, kind: 'fact' });
export const note = (body: string): Expected => ({ body, kind: 'note' });
export const preference = (body: string): Expected => ({ body, kind: 'preference' });
export const decision = (body: string): Expected => ({ body, kind: 'decision' });

/** Claude Code lines for one session: `~/.claude/projects/<project>/<session>.jsonl`. */
export function claude(fragment: string) {
  const sessionId = uuid(`${fragment}:session`);
  let n = 0;
  const base = (type: string, extra: Record<string, unknown> = {}) => ({
    type,
    uuid: uuid(`${fragment}:${n++}`),
    sessionId,
    timestamp: new Date(Date.UTC(2025, 5, 2, 9, 0, n)).toISOString(),
    cwd: '/home/dev/src/acme-api',
    version: '2.0.14',
    isSidechain: false,
    ...extra,
  });
  return {
    user: (text: string, keep?: Keep, why?: string): Line => ({
      record: { ...base('user'), message: { role: 'user', content: text } },
      ...keeps(keep),
      ...(why === undefined ? {} : { why }),
    }),
    assistant: (text: string, keep?: Keep, why?: string): Line => ({
      record: {
        ...base('assistant'),
        message: { role: 'assistant', type: 'message', content: [{ type: 'text', text }] },
      },
      ...keeps(keep),
      ...(why === undefined ? {} : { why }),
    }),
    /** A tool's output, which Claude Code stores in a user line. */
    tool: (text: string, isError: boolean, why?: string): Line => ({
      record: {
        ...base('user'),
        message: {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: `toolu_${n}`,
              content: text,
              ...(isError ? { is_error: true } : {}),
            },
          ],
        },
      },
      ...(why === undefined ? {} : { why }),
    }),
    /** The summary Claude Code writes after compaction. */
    summary: (text: string, why?: string): Line => ({
      record: { ...base('user'), isCompactSummary: true, message: { role: 'user', content: text } },
      ...(why === undefined ? {} : { why }),
    }),
    /** A subagent's task prompt: a user-role line the parent agent wrote. */
    sidechain: (text: string, why?: string): Line => ({
      record: {
        ...base('user', { isSidechain: true, agentId: 'a1b2c3d' }),
        message: { role: 'user', content: text },
      },
      ...(why === undefined ? {} : { why }),
    }),
  };
}

/** Codex rollout lines: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`. */
export function codex(fragment: string) {
  const id = uuid(`${fragment}:session`);
  let n = 0;
  const at = () => new Date(Date.UTC(2025, 6, 8, 14, 0, n++)).toISOString();
  return {
    meta: (): Line => ({
      record: {
        timestamp: at(),
        type: 'session_meta',
        payload: { id, cwd: '/home/dev/src/acme-api', cli_version: '0.46.0' },
      },
    }),
    user: (text: string, keep?: Keep, why?: string): Line => ({
      record: {
        timestamp: at(),
        type: 'event_msg',
        payload: { type: 'user_message', message: text, kind: 'plain' },
      },
      ...keeps(keep),
      ...(why === undefined ? {} : { why }),
    }),
    /** The user-role item Codex sends the model, with the context it adds (not the person's words). */
    context: (text: string, why?: string): Line => ({
      record: {
        timestamp: at(),
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
      },
      ...(why === undefined ? {} : { why }),
    }),
    assistant: (text: string, keep?: Keep, why?: string): Line => ({
      record: {
        timestamp: at(),
        type: 'response_item',
        payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
      },
      ...keeps(keep),
      ...(why === undefined ? {} : { why }),
    }),
    output: (text: string, exitCode: number, why?: string): Line => ({
      record: {
        timestamp: at(),
        type: 'response_item',
        payload: {
          type: 'function_call_output',
          call_id: `call_${n}`,
          output: JSON.stringify({ output: text, metadata: { exit_code: exitCode, duration_seconds: 1.2 } }),
        },
      },
      ...(why === undefined ? {} : { why }),
    }),
  };
}

/** Note lines: each string is one line of the Markdown file; a [text, keep] pair labels it. */
export function notes(...lines: (string | [string, Keep] | [string, Keep, string])[]): Line[] {
  return lines.map((l) =>
    typeof l === 'string'
      ? { text: l }
      : { text: l[0], ...keeps(l[1]), ...(l[2] === undefined ? {} : { why: l[2] }) },
  );
}
