/**
 * The YAML front matter of a Markdown note, in the subset notes use (Basic Memory, Obsidian): `key: value`,
 * quoted strings, inline lists `[a, b]`, block lists of `- item`, comments. Nested maps and multi-line strings
 * are kept as their raw text: a reader only looks at a few scalar and list fields.
 */
import { malformed } from './io.ts';

export type FrontValue = string | string[];

export interface FrontMatter {
  fields: Map<string, FrontValue>;
  /** Lines the front matter took, closing fence included (0 without front matter). */
  lines: number;
}

/** Parses a note's front matter; an opening fence without its closing one is malformed (`file:1`). */
export function frontMatter(lines: string[], file: string): FrontMatter {
  const fields = new Map<string, FrontValue>();
  if (lines[0]?.trim() !== '---') return { fields, lines: 0 };
  const end = lines.findIndex((l, n) => n > 0 && /^(---|\.\.\.)\s*$/.test(l));
  if (end === -1) throw malformed(`${file}:1`, 'front matter opened with --- is never closed');
  let last: string | null = null;
  for (let n = 1; n < end; n++) {
    const line = lines[n]!;
    if (line.trim() === '' || line.trim().startsWith('#')) continue;
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (item !== null && last !== null) {
      const current = fields.get(last);
      fields.set(last, [...(Array.isArray(current) ? current : []), scalar(item[1]!)]);
      continue;
    }
    if (/^\s/.test(line)) continue; // a nested map's or a folded string's continuation
    const pair = /^([A-Za-z_][\w.-]*)\s*:(?:\s+(.*))?$/.exec(line.replace(/\s+$/, ''));
    if (pair === null) throw malformed(`${file}:${n + 1}`, 'front matter line is not "name: value"');
    last = pair[1]!;
    const raw = withoutComment(pair[2] ?? '');
    fields.set(last, raw.startsWith('[') && raw.endsWith(']') ? inlineList(raw) : scalar(raw));
  }
  return { fields, lines: end + 1 };
}

/** A field as one string (a list's first item), or undefined. */
export function field(fm: FrontMatter, name: string): string | undefined {
  const v = fm.fields.get(name);
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === '' ? undefined : s;
}

/** A field as a list: a YAML list, or a comma-separated string (`tags: a, b`). */
export function listField(fm: FrontMatter, name: string): string[] {
  const v = fm.fields.get(name);
  if (v === undefined) return [];
  const items = Array.isArray(v) ? v : v.split(',');
  return items.map((s) => s.trim().replace(/^#/, '')).filter((s) => s !== '');
}

function inlineList(raw: string): string[] {
  return raw
    .slice(1, -1)
    .split(',')
    .map((s) => scalar(s.trim()))
    .filter((s) => s !== '');
}

function scalar(raw: string): string {
  const s = raw.trim();
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'") && s.endsWith(s[0]!)) return s.slice(1, -1);
  return withoutComment(s);
}

/** YAML comments start with ` #`; a `#` inside a word (`C#`) is text. */
function withoutComment(s: string): string {
  if (s.startsWith('"') || s.startsWith("'")) return s;
  return s.replace(/\s+#.*$/, '').trim();
}
