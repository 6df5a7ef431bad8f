/**
 * Errors that teach: a failed statement's SQLite message plus what the model needs to fix it: the real columns
 * of the tables it named, the tables there are, and the SQLite form of common dialect slips.
 */
import type { DatabaseSync } from 'node:sqlite';
import { wordsOf } from './sql-text.ts';

const SLIPS: { test: RegExp; hint: string }[] = [
  {
    test: /\bilike\b/i,
    hint: 'SQLite has no ILIKE: LIKE is already case-insensitive for ASCII (or lower(x) LIKE lower(:p))',
  },
  { test: /\bselect\s+top\s+\d+/i, hint: 'SQLite has no TOP n: put LIMIT n at the end of the SELECT' },
  { test: /::\s*[a-z]/i, hint: 'SQLite has no :: casts: write CAST(x AS INTEGER) (or TEXT, REAL)' },
  { test: /===|!==/, hint: 'use = and <> (or != ) to compare in SQL' },
  { test: /==/, hint: 'SQLite compares with = (== also works, === does not)' },
  { test: /\bnow\s*\(\s*\)/i, hint: "SQLite has no NOW(): use datetime('now') or CURRENT_TIMESTAMP (UTC)" },
  { test: /\bconcat\s*\(/i, hint: "concatenate with || (a || ' ' || b) or concat(a, b)" },
  { test: /\bauto_increment\b|\bserial\b/i, hint: 'use INTEGER PRIMARY KEY for an auto-numbered id' },
  {
    test: /^\s*(show\s+tables|describe\b|desc\s)/i,
    hint: 'read workspace_schema, or SELECT name FROM sqlite_schema',
  },
  { test: /\btrue\b|\bfalse\b/i, hint: 'booleans are 1 and 0' },
  { test: /\binterval\b/i, hint: "date arithmetic: datetime('now', '-7 days'), date(d, '+1 month')" },
  { test: /\bextract\s*\(/i, hint: "SQLite has no EXTRACT: strftime('%Y', d), strftime('%m', d)" },
  {
    test: /\bdate_trunc\s*\(/i,
    hint: "SQLite has no date_trunc: strftime('%Y-%m-01', d), date(d, 'start of month')",
  },
];

/** The teaching part of an error: names and vocabulary only, never a row's value. */
export function teach(db: DatabaseSync, sql: string, message: string): string[] {
  const hints: string[] = [];
  if (/no such column|has no column named/i.test(message)) {
    const tables = namedTables(db, sql);
    for (const t of tables.slice(0, 4)) hints.push(`${t} has columns: ${columnsOf(db, t).join(', ')}`);
    if (tables.length === 0) hints.push(`tables: ${allTables(db).slice(0, 30).join(', ') || '(none yet)'}`);
  }
  if (/no such table/i.test(message)) {
    hints.push(`tables: ${allTables(db).slice(0, 30).join(', ') || '(none yet)'}`);
  }
  if (/no such function/i.test(message)) {
    hints.push(
      'SQLite core functions, json_*, math, date/time, and regexp, regexp_replace, regexp_substr, split_part, left, right, starts_with, ends_with, lpad, rpad',
    );
  }
  if (/syntax error|no such function|no such column|unrecognized token/i.test(message)) {
    for (const slip of SLIPS) if (slip.test.test(sql)) hints.push(slip.hint);
  }
  return [...new Set(hints)].slice(0, 6);
}

/** Tables (main and mounts) whose names appear in the statement. */
function namedTables(db: DatabaseSync, sql: string): string[] {
  const words = new Set(wordsOf(sql).map((w) => w.toLowerCase()));
  return allTables(db).filter((t) => words.has(t.toLowerCase()));
}

function allTables(db: DatabaseSync): string[] {
  const rows = db
    .prepare(
      `SELECT name FROM sqlite_temp_schema WHERE type IN ('table','view')
       UNION ALL SELECT name FROM sqlite_schema WHERE type IN ('table','view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name NOT LIKE '\\_workspace\\_%' ESCAPE '\\'`,
    )
    .all() as { name: string }[];
  return rows.map((r) => r.name);
}

export function columnsOf(db: DatabaseSync, table: string): string[] {
  const rows = db.prepare('SELECT name, type FROM pragma_table_info(?)').all(table) as {
    name: string;
    type: string;
  }[];
  return rows.map((r) => (r.type === '' ? r.name : `${r.name} ${r.type}`));
}
