/**
 * The schema prompt the model reads before it decides where to put something: at most `schemaTables` tables and
 * `schemaBytes` bytes, built line by line and never cutting one; the mounts first with their mortality notes,
 * then the tables used most recently, then the rest alternately oldest and newest; per table its one-line DDL,
 * row count, three sample rows (first, middle, last) and a column profile. The last line says what was left out.
 */
import type { DatabaseSync } from 'node:sqlite';
import { USAGE_TABLE, type WorkspaceLimits } from './config.ts';
import type { MountData } from './mount-data.ts';
import type { OpenWorkspace } from './open.ts';
import { profileColumn } from './profile.ts';

const SAMPLE_COLUMNS = 8;
const SAMPLE_CHARS = 60;
const PROFILE_ROWS = 200;

export interface SchemaPrompt {
  prompt: string;
  /** Tables described, and tables left out by the budget. */
  tables: number;
  omitted: number;
  bytes: number;
}

interface TableInfo {
  name: string;
  sql: string;
  note?: string;
  schema: 'main' | 'temp';
}

/** Builds the prompt inside a read transaction with the mounts present; the caller rolls it back. */
export function schemaPrompt(
  ws: OpenWorkspace,
  mounts: readonly MountData[],
  limits: Pick<WorkspaceLimits, 'schemaTables' | 'schemaBytes'>,
): SchemaPrompt {
  const { db } = ws;
  const ordered = order(db, mounts, ws.usage);
  const header = [
    'Your workspace: an SQLite database only you (and admins) can reach. Tables starting with __ are mounted from',
    'the ledger for this call only: read-only, never saved. Every table you create needs a subject column',
    '(who the row is about, e.g. person:alice@example.com; NULL for rows about nobody).',
    '',
  ];
  const lines: string[] = [];
  let bytes = 0;
  const fits = (more: string[], reserve: number) =>
    bytes + more.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0) + reserve <= limits.schemaBytes;
  const reserve = 200;
  const add = (more: string[]) => {
    lines.push(...more);
    bytes += more.reduce((n, l) => n + Buffer.byteLength(l) + 1, 0);
  };
  if (fits(header, reserve)) add(header);
  let described = 0;
  const left: string[] = [];
  for (const t of ordered) {
    if (described >= limits.schemaTables) {
      left.push(t.name);
      continue;
    }
    const block = describe(db, t);
    if (!fits(block, reserve)) {
      left.push(t.name);
      continue;
    }
    add(block);
    described++;
  }
  const views = (
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'view' ORDER BY name").all() as {
      name: string;
    }[]
  ).map((r) => r.name);
  if (views.length > 0) {
    const line = `views: ${views.join(', ')}`;
    if (fits([line], reserve)) add([line]);
  }
  if (left.length > 0) {
    let last = `(${left.length} more table${left.length === 1 ? '' : 's'} not shown: ${left.join(', ')})`;
    if (Buffer.byteLength(last) > reserve - 2)
      last = `(${left.length} more tables not shown; SELECT name FROM sqlite_schema lists them)`;
    add([last]);
  } else add(['(every table is shown)']);
  const prompt = lines.join('\n');
  return { prompt, tables: described, omitted: left.length, bytes: Buffer.byteLength(prompt) };
}

/** Mounts, then recently used, then the rest alternately oldest and newest (by creation order). */
function order(db: DatabaseSync, mounts: readonly MountData[], usage: Map<string, number>): TableInfo[] {
  const out: TableInfo[] = [];
  for (const m of mounts) {
    const row = db.prepare('SELECT sql FROM sqlite_temp_schema WHERE name = ?').get(m.name) as
      | { sql: string }
      | undefined;
    out.push({ name: m.name, sql: row?.sql ?? '', note: m.note, schema: 'temp' });
  }
  const tables = db
    .prepare(
      `SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
         AND name <> '${USAGE_TABLE}' ORDER BY rowid`,
    )
    .all() as { name: string; sql: string }[];
  const used = new Map<string, number>(storedUsage(db));
  for (const [k, v] of usage) used.set(k, Math.max(v, used.get(k) ?? 0));
  const recent = tables.filter((t) => used.has(t.name)).sort((a, b) => used.get(b.name)! - used.get(a.name)!);
  const rest = tables.filter((t) => !used.has(t.name));
  const alternating: typeof rest = [];
  for (let i = 0, j = rest.length - 1; i <= j; i++, j--) {
    alternating.push(rest[i]!);
    if (j !== i) alternating.push(rest[j]!);
  }
  for (const t of [...recent, ...alternating]) out.push({ name: t.name, sql: t.sql, schema: 'main' });
  return out;
}

function storedUsage(db: DatabaseSync): [string, number][] {
  const has = db.prepare('SELECT 1 FROM sqlite_schema WHERE name = ?').get(USAGE_TABLE);
  if (has === undefined) return [];
  return (
    db.prepare(`SELECT name, used_at FROM ${USAGE_TABLE}`).all() as { name: string; used_at: number }[]
  ).map((r) => [r.name, Number(r.used_at)]);
}

function describe(db: DatabaseSync, t: TableInfo): string[] {
  const q = `${t.schema}."${t.name.replace(/"/g, '""')}"`;
  const count = Number((db.prepare(`SELECT count(*) AS n FROM ${q}`).get() as { n: number }).n);
  const lines = [
    `## ${t.name} (${count} row${count === 1 ? '' : 's'})${t.note === undefined ? '' : ` - ${t.note}`}`,
  ];
  lines.push(t.sql.replace(/\s+/g, ' ').trim());
  const cols = (
    db.prepare(`SELECT name FROM pragma_table_info(?, ?)`).all(t.name, t.schema) as { name: string }[]
  ).map((r) => r.name);
  const shown = cols.slice(0, SAMPLE_COLUMNS);
  if (count > 0) {
    const offsets = [...new Set([0, Math.floor(count / 2), count - 1])];
    const list = shown.map((c) => `"${c.replace(/"/g, '""')}"`).join(', ');
    const sample = db.prepare(`SELECT ${list} FROM ${q} LIMIT 1 OFFSET ?`);
    sample.setReturnArrays(true);
    const rows = offsets.map((o) => (sample.get(o) as unknown as unknown[]).map(sampleCell));
    for (const r of rows)
      lines.push(`  ${JSON.stringify(Object.fromEntries(shown.map((c, i) => [c, r[i]])))}`);
    const profile = db.prepare(`SELECT ${list} FROM ${q} LIMIT ${PROFILE_ROWS}`);
    profile.setReturnArrays(true);
    const values = profile.all() as unknown as unknown[][];
    lines.push(
      `  profile: ${shown.map((c, i) => `${c}: ${profileColumn(values.map((v) => v[i]))}`).join('; ')}`,
    );
  }
  return lines;
}

/** Strings cut at 60 characters, blobs as their size. */
function sampleCell(v: unknown): unknown {
  if (v instanceof Uint8Array) return `[blob ${v.byteLength} bytes]`;
  if (typeof v === 'string' && v.length > SAMPLE_CHARS) return `${v.slice(0, SAMPLE_CHARS)}…`;
  return v;
}
