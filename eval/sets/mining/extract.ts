/**
 * Cuts the public transcript excerpts of the mining set out of their repositories' files:
 * `node eval/sets/mining/extract.ts SPOTTER_CHECKOUT CODEMIE_CHECKOUT` writes ./public-excerpts.json.
 * Each excerpt keeps only the lines the feed reads (user, assistant, tool output, session metadata), with text
 * blocks and tool output cut to a few hundred characters and thinking, usage and tool inputs left out, so the
 * set holds fragments, never whole sessions. The sources are named in ./public.ts beside their labels.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { CLAUDE_WINDOWS, CODEX_WINDOWS } from './windows.ts';

const [spotter, codemie] = process.argv.slice(2);
if (spotter === undefined || codemie === undefined) {
  process.stderr.write('usage: node eval/sets/mining/extract.ts SPOTTER_GIT_DIR CODEMIE_GIT_DIR\n');
  process.exit(2);
}
const CUT = 700;
const HEAD = 600;
const TAIL = 500;

const show = (gitDir: string, commit: string, path: string): Record<string, unknown>[] =>
  execFileSync('git', ['--git-dir', gitDir, 'show', `${commit}:${path}`], { maxBuffer: 64 << 20 })
    .toString('utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

const cut = (s: string): string => (s.length <= CUT ? s : `${s.slice(0, CUT)}…`);
/** Tool output keeps its head and its tail: a failure usually names itself in the last lines. */
const cutOutput = (s: string): string =>
  s.length <= HEAD + TAIL ? s : `${s.slice(0, HEAD)}\n…\n${s.slice(s.length - TAIL)}`;

function claudeLine(l: Record<string, unknown>): Record<string, unknown> | null {
  if (l.type !== 'user' && l.type !== 'assistant') return null;
  const message = l.message as { role: string; content: unknown };
  const content =
    typeof message.content === 'string'
      ? cut(message.content)
      : (message.content as Record<string, unknown>[])
          .filter((b) => b.type === 'text' || b.type === 'tool_result')
          .map((b) =>
            b.type === 'text'
              ? { type: 'text', text: cut(String(b.text)) }
              : {
                  type: 'tool_result',
                  tool_use_id: b.tool_use_id,
                  content: cutOutput(
                    typeof b.content === 'string'
                      ? b.content
                      : (b.content as { text?: string }[]).map((c) => c.text ?? '').join('\n'),
                  ),
                  ...(b.is_error === true ? { is_error: true } : {}),
                },
          );
  if (Array.isArray(content) && content.length === 0) return null;
  const keep = ['type', 'uuid', 'parentUuid', 'sessionId', 'timestamp', 'version', 'isSidechain', 'isMeta'];
  const out: Record<string, unknown> = {};
  for (const k of keep) if (l[k] !== undefined) out[k] = l[k];
  out.message = { role: message.role, content };
  return out;
}

function codexLine(l: Record<string, unknown>): Record<string, unknown> {
  const p = l.payload as Record<string, unknown>;
  if (l.type === 'session_meta')
    return { ...l, payload: { id: p.id, cwd: p.cwd, cli_version: p.cli_version } };
  if (l.type === 'event_msg') return { ...l, payload: { ...p, message: cut(String(p.message)) } };
  if (p.type === 'message')
    return {
      ...l,
      payload: {
        type: 'message',
        role: p.role,
        content: (p.content as { type: string; text: string }[]).map((c) => ({ ...c, text: cut(c.text) })),
      },
    };
  return { ...l, payload: { type: p.type, call_id: p.call_id, output: cutOutput(String(p.output)) } };
}

const out: Record<string, Record<string, unknown>[]> = {};
for (const w of CLAUDE_WINDOWS) {
  const lines = show(spotter, w.commit, w.path);
  const from = lines.findIndex((l) => l.uuid === w.from);
  const to = lines.findIndex((l) => l.uuid === w.to);
  if (from < 0 || to < from) throw new Error(`${w.id}: window not found`);
  out[w.id] = lines
    .slice(from, to + 1)
    .map(claudeLine)
    .filter((l) => l !== null);
}
for (const w of CODEX_WINDOWS) {
  const lines = show(codemie, w.commit, w.path);
  out[w.id] = w.lines.map((i) => codexLine(lines[i]!));
}
writeFileSync(new URL('./public-excerpts.json', import.meta.url), `${JSON.stringify(out, null, 1)}\n`);
