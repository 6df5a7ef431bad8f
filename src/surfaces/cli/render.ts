/** Human rendering for the CLI: tables, one-line text, times and sizes, all safe to print to a terminal. */

/** The width tables aim for: a terminal-ish line that still reads in a log or a pull request. */
export const WIDTH = 100;

// C0 and C1 controls (except newline and tab, handled apart) and bidirectional overrides: stored text is data,
// and printed raw they could move the cursor, recolour the terminal or reorder a line (I11, for the eyes).
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Replaces characters that would act on the terminal with a visible placeholder. Keeps newlines when asked. */
export function clean(text: string, multiline = false): string {
  const safe = text.replace(/\t/g, '  ').replace(UNSAFE, '\ufffd');
  return multiline ? safe.replace(/\r\n?/g, '\n') : safe.replace(/[\r\n]+/g, ' ');
}

/** One line of text: whitespace runs collapsed, terminal controls replaced. */
export const oneLine = (text: string): string => clean(text).replace(/\s+/g, ' ').trim();

/** Cuts text to `width` characters (code points, so an emoji is never split), ending with `…` when cut. */
export function truncate(text: string, width: number): string {
  const chars = [...text];
  if (chars.length <= width) return text;
  return width <= 1 ? '…'.slice(0, width) : `${chars.slice(0, width - 1).join('')}…`;
}

const length = (text: string): number => [...text].length;
const pad = (text: string, width: number, right = false): string => {
  const gap = ' '.repeat(Math.max(0, width - length(text)));
  return right ? gap + text : text + gap;
};

export interface Column {
  header: string;
  /** Right-align (numbers). */
  right?: boolean;
  /** The column that takes what is left of the width and is cut to fit (a body). At most one. */
  flex?: boolean;
}

/**
 * A plain-text table: a header, then one line per row, columns two spaces apart, cut to `width`.
 * @example table([{ header: 'id' }, { header: 'body', flex: true }], [['mem_…', 'Acme is on Pro']])
 */
export function table(columns: Column[], rows: string[][], width = WIDTH): string {
  const cells = rows.map((row) => row.map((cell) => oneLine(cell)));
  const widths = columns.map((c, i) => Math.max(length(c.header), ...cells.map((r) => length(r[i] ?? ''))));
  const flex = columns.findIndex((c) => c.flex === true);
  if (flex >= 0) {
    const fixed = widths.reduce((sum, w, i) => (i === flex ? sum : sum + w), 0) + 2 * (columns.length - 1);
    widths[flex] = Math.max(length(columns[flex]!.header), Math.min(widths[flex]!, width - fixed), 12);
  }
  const line = (row: string[]) =>
    columns
      .map((c, i) => {
        const cell = truncate(row[i] ?? '', widths[i]!);
        return i === columns.length - 1 && c.right !== true ? cell : pad(cell, widths[i]!, c.right);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((c) => c.header)), ...cells.map(line)].join('\n');
}

/** Aligned `label  value` lines; empty values are left out. */
export function fields(pairs: [string, string | null | undefined][], indent = '  '): string {
  const shown = pairs.filter(
    (p): p is [string, string] => p[1] !== null && p[1] !== undefined && p[1] !== '',
  );
  const width = Math.max(0, ...shown.map(([label]) => label.length));
  return shown
    .map(([label, value]) => {
      const lines = clean(value, true).split('\n');
      const rest = lines.slice(1).map((l) => `${indent}${' '.repeat(width + 2)}${l}`);
      return [`${indent}${label.padEnd(width)}  ${lines[0]}`, ...rest].join('\n');
    })
    .join('\n');
}

/** `2025-06-01 14:03:22Z`: the stored UTC time, easier to read than ISO and still unambiguous. */
export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined || iso === '') return '';
  return iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

/** `2025-06-01 14:03`: minutes are enough in a table. */
export const shortTime = (iso: string | null | undefined): string => formatTime(iso).slice(0, 16);

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** `1 memory`, `3 memories`. */
export const plural = (count: number, one: string, many = `${one}s`): string =>
  `${count} ${count === 1 ? one : many}`;

/** A memory's body for a table cell: erased bodies say so instead of printing nothing. */
export const bodyCell = (memory: { body: string; state: string }): string =>
  memory.state === 'erased' ? '(erased)' : oneLine(memory.body);

/** Indents every line of a block. */
export const indent = (text: string, by = '  '): string =>
  text
    .split('\n')
    .map((l) => (l === '' ? l : by + l))
    .join('\n');
