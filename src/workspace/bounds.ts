/**
 * Results bounded for the model: at most `maxRows` rows and `maxResultBytes` of JSON per statement; a long cell
 * keeps its head and tail with the omitted byte count between; blobs are shown as their size; a query without
 * LIMIT that returned many rows gets a hint.
 */
import type { StatementSync } from 'node:sqlite';
import type { WorkspaceLimits } from './config.ts';

/** How many rows past the shown ones are counted before the count says "at least". */
const COUNT_PAST = 1000;

export interface StatementResult {
  index: number;
  columns: string[];
  /** Rows as arrays in `columns` order. */
  rows: unknown[][];
  /** Rows the statement produced, counted up to the shown rows plus 1,000 (`rowsAtLeast` says when more). */
  rowCount: number;
  rowsAtLeast: boolean;
  /** Rows changed by an INSERT, UPDATE or DELETE. */
  changes: number;
  truncated: boolean;
  note?: string;
}

/** A cell as the model sees it. */
export function cell(value: unknown, maxChars: number): unknown {
  if (value instanceof Uint8Array) return `[blob ${value.byteLength} bytes]`;
  if (typeof value === 'bigint') return value.toString();
  if (typeof value !== 'string' || value.length <= maxChars) return value;
  const keep = Math.floor((maxChars - 40) / 2);
  const head = value.slice(0, keep);
  const tail = value.slice(value.length - keep);
  const omitted = Buffer.byteLength(value) - Buffer.byteLength(head) - Buffer.byteLength(tail);
  return `${head}…[${omitted} bytes omitted]…${tail}`;
}

/** Steps a row-returning statement, keeping what fits and counting the rest. */
export function boundedRows(
  stmt: StatementSync,
  index: number,
  params: Record<string, unknown>,
  sql: string,
  limits: Pick<WorkspaceLimits, 'maxRows' | 'maxResultBytes' | 'maxCellChars'>,
): StatementResult {
  const columns = stmt.columns().map((col) => col.name);
  const rows: unknown[][] = [];
  let bytes = 2;
  let count = 0;
  let truncated = false;
  stmt.setReturnArrays(true);
  for (const raw of stmt.iterate(params as never) as Iterable<unknown[]>) {
    count++;
    if (!truncated) {
      const row = raw.map((v) => cell(v, limits.maxCellChars));
      const size = Buffer.byteLength(JSON.stringify(row)) + 1;
      if (rows.length < limits.maxRows && bytes + size <= limits.maxResultBytes) {
        rows.push(row);
        bytes += size;
      } else truncated = true;
    }
    if (count >= limits.maxRows + COUNT_PAST) break;
  }
  const atLeast = count >= limits.maxRows + COUNT_PAST;
  const result: StatementResult = {
    index,
    columns,
    rows,
    rowCount: count,
    rowsAtLeast: atLeast,
    changes: 0,
    truncated,
  };
  if (truncated) {
    const why =
      rows.length >= limits.maxRows ? `${limits.maxRows} rows` : `${limits.maxResultBytes} bytes of JSON`;
    const total = atLeast ? `at least ${count}` : String(count);
    result.note = `showing ${rows.length} of ${total} rows (at most ${why} per statement)`;
    if (!/\blimit\b/i.test(sql))
      result.note += '; add LIMIT, a WHERE or an aggregate (count, group by) to see what matters';
  }
  return result;
}
