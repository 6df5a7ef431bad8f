/**
 * Erasure by subject inside agent workspaces (I9, issue 11): every durable table has a `subject` column, so the
 * rows about S are found by it; rows whose text columns mention the subject's identifier are found too (an agent
 * that filed "alice@example.com" under another subject). Erasing deletes both, rewrites the file so no free page
 * keeps them, stores it as a new snapshot (the old one's bytes are replaced), drops quarantined copies and every
 * stale local copy, so no workspace file keeps the text.
 */
import { DatabaseSync } from 'node:sqlite';
import { MemoryError } from '../model/errors.ts';
import type { SnapshotFiles } from './snapshots.ts';

/** Rows of one table that an erasure of the subject takes: counts only, never the rows. */
export interface WorkspaceErasureMatch {
  workspace: string;
  table: string;
  /** Rows whose `subject` column is the subject. */
  bySubject: number;
  /** Other rows with a text column containing the subject's identifier. */
  byText: number;
}

export interface WorkspaceErasure {
  /** Rows deleted, over every workspace. */
  rows: number;
  /** Workspaces re-snapshotted. */
  workspaces: number;
  /** Quarantined copies dropped: they failed to restore, so nobody can search them for the subject. */
  quarantined: number;
}

/** What erasing `subject` would delete from every workspace, read from each one's current snapshot. */
export async function findInWorkspaces(
  files: SnapshotFiles,
  subject: string,
): Promise<WorkspaceErasureMatch[]> {
  const found: WorkspaceErasureMatch[] = [];
  for (const { agent } of await files.store.list()) {
    // Never beside a batch of this process on the same file: its open transaction would lock the read out.
    await files.working(agent, async () => {
      const co = await files.checkout(agent);
      const db = new DatabaseSync(co.path, { readOnly: true });
      try {
        for (const t of targets(db)) {
          const m = counts(db, t, subject);
          if (m.bySubject + m.byText > 0) found.push({ workspace: agent, table: t.name, ...m });
        }
      } finally {
        db.close();
      }
    });
  }
  return found;
}

/** Deletes the subject's rows from every workspace and leaves their text in no workspace file. */
export async function eraseFromWorkspaces(
  files: SnapshotFiles,
  subject: string,
  by: string,
): Promise<WorkspaceErasure> {
  let rows = 0;
  let workspaces = 0;
  let quarantined = 0;
  for (const { agent } of await files.store.list()) {
    // After any batch of this process on the same file, whose write lock would fail the deletes (busy).
    const deleted = await files.working(agent, () => scrub(files, agent, subject, by));
    rows += deleted;
    if (deleted > 0) workspaces++;
  }
  for (const { agent } of await files.store.list()) {
    if (await files.store.dropQuarantine(agent)) quarantined++;
    // Other processes' copies may be of older versions that held the rows: they restore the new one instead.
    files.dropLocal(agent, false);
  }
  return { rows, workspaces, quarantined };
}

/** One workspace: delete, rewrite, store; a writer that got in first means the newer snapshot is scrubbed again. */
async function scrub(files: SnapshotFiles, agent: string, subject: string, by: string): Promise<number> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const co = await files.checkout(agent);
    const db = new DatabaseSync(co.path);
    let deleted = 0;
    try {
      db.exec('PRAGMA secure_delete = ON');
      db.exec('BEGIN IMMEDIATE');
      for (const t of targets(db)) {
        const { where, params } = matching(t, subject);
        deleted += Number(db.prepare(`DELETE FROM ${quote(t.name)} WHERE ${where}`).run(...params).changes);
      }
      db.exec('COMMIT');
      // Deleted rows' bytes can stay in free pages and in the journal: VACUUM rebuilds the file without them.
      if (deleted > 0) db.exec('VACUUM');
    } catch (error) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw error;
    } finally {
      db.close();
    }
    if (deleted === 0) return 0;
    try {
      await files.commit(agent, co.path, co.version, by);
      return deleted;
    } catch (error) {
      if (!(error instanceof MemoryError && error.class === 'conflict')) throw error;
    }
  }
  throw new MemoryError(
    'conflict',
    `the workspace of ${agent} kept changing during the erasure; run it again`,
  );
}

interface Target {
  name: string;
  columns: string[];
  hasSubject: boolean;
}

/** The agent's durable tables (no `__` mount, no SQLite table, no shadow table of a virtual one). */
function targets(db: DatabaseSync): Target[] {
  const tables = db
    .prepare(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'",
    )
    .all() as { name: string; sql: string | null }[];
  const virtual = tables.filter((t) => /^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? '')).map((t) => t.name);
  return tables
    .filter((t) => !t.name.startsWith('__') && !virtual.some((v) => t.name.startsWith(`${v}_`)))
    .map((t) => {
      const columns = (
        db.prepare(`SELECT name FROM pragma_table_info(?)`).all(t.name) as { name: string }[]
      ).map((c) => c.name);
      return { name: t.name, columns, hasSubject: columns.includes('subject') };
    });
}

/** The subject itself and, when it has one, the identifier after its kind (`person:alice@x` → `alice@x`). */
function needles(subject: string): string[] {
  const id = subject.slice(subject.indexOf(':') + 1);
  return [...new Set([subject, id].filter((n) => n.length >= 3).map((n) => n.toLowerCase()))];
}

function matching(t: Target, subject: string): { where: string; params: string[] } {
  const texts = t.columns.flatMap((c) =>
    needles(subject).map((n) => ({
      sql: `(typeof(${quote(c)}) = 'text' AND instr(lower(${quote(c)}), ?) > 0)`,
      n,
    })),
  );
  const parts = [...(t.hasSubject ? ['subject = ?'] : []), ...texts.map((x) => x.sql)];
  const params = [...(t.hasSubject ? [subject] : []), ...texts.map((x) => x.n)];
  return { where: parts.length === 0 ? '0' : parts.join(' OR '), params };
}

function counts(db: DatabaseSync, t: Target, subject: string): { bySubject: number; byText: number } {
  const { where, params } = matching(t, subject);
  const all = (
    db.prepare(`SELECT count(*) AS n FROM ${quote(t.name)} WHERE ${where}`).get(...params) as { n: number }
  ).n;
  const bySubject = t.hasSubject
    ? (
        db.prepare(`SELECT count(*) AS n FROM ${quote(t.name)} WHERE subject = ?`).get(subject) as {
          n: number;
        }
      ).n
    : 0;
  return { bySubject: Number(bySubject), byText: Number(all) - Number(bySubject) };
}

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;
