/**
 * A unified line diff of one file's text before and after an edit, for `install --dry-run`: what would change,
 * not only which file. Edits to agents' settings are local (a few lines in a long file such as ~/.claude.json), so
 * the common head and tail are cut before the line-by-line comparison, which then stays small.
 */
import { diffSteps } from '../model/lcs.ts';

/** Beyond this many line pairs in the changed middle, it is shown whole (all removed, then all added). */
const MAX_CELLS = 4_000_000;
const CONTEXT = 2;

type Line = { kind: ' ' | '-' | '+'; text: string };

/**
 * @example
 * unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', '.mcp.json')
 * // '--- .mcp.json\n+++ .mcp.json\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n'
 */
export function unifiedDiff(before: string | null, after: string | null, label: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const lines = diffLines(a, b);
  const hunks = toHunks(lines);
  const head = `--- ${before === null ? '/dev/null' : label}\n+++ ${after === null ? '/dev/null' : label}\n`;
  return head + hunks.join('');
}

function splitLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function diffLines(a: string[], b: string[]): Line[] {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const same = (text: string): Line => ({ kind: ' ', text });
  return [
    ...a.slice(0, start).map(same),
    ...middle(a.slice(start, endA), b.slice(start, endB)),
    ...a.slice(endA).map(same),
  ];
}

const MARK = { same: ' ', removed: '-', added: '+' } as const;

/** The changed middle, line by line (the longest common subsequence). */
function middle(a: string[], b: string[]): Line[] {
  return diffSteps(a, b, MAX_CELLS).map(([step, text]) => ({ kind: MARK[step], text }));
}

/** Changed lines with CONTEXT lines around them, in `@@ -l,n +l,n @@` hunks. */
function toHunks(lines: Line[]): string[] {
  const changed = lines.map((l, i) => (l.kind === ' ' ? -1 : i)).filter((i) => i >= 0);
  const hunks: string[] = [];
  let k = 0;
  while (k < changed.length) {
    const from = Math.max(0, changed[k]! - CONTEXT);
    let to = changed[k]! + CONTEXT;
    while (k + 1 < changed.length && changed[k + 1]! - CONTEXT <= to + 1) to = changed[++k]! + CONTEXT;
    to = Math.min(lines.length - 1, to);
    k++;
    const slice = lines.slice(from, to + 1);
    const before = lines.slice(0, from);
    const oldStart = before.filter((l) => l.kind !== '+').length + 1;
    const newStart = before.filter((l) => l.kind !== '-').length + 1;
    const oldCount = slice.filter((l) => l.kind !== '+').length;
    const newCount = slice.filter((l) => l.kind !== '-').length;
    const range = (start: number, count: number) => `${count === 0 ? start - 1 : start},${count}`;
    hunks.push(
      `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@\n${slice.map((l) => `${l.kind}${l.text}\n`).join('')}`,
    );
  }
  return hunks;
}
