/**
 * Turning stored snapshot bytes back into a SQLite file: decompress (streaming, stopped at a
 * cap, so a zstd bomb fills nothing past it), write, `quick_check`; on failure, salvage every readable table
 * into a fresh database. Runs in the child process of restore-child.ts; reports table names and counts only.
 */
import {
  closeSync,
  createReadStream,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { createZstdDecompress } from 'node:zlib';

export interface RestoreRequest {
  /** The compressed snapshot. */
  input: string;
  /** Where the restored (or salvaged) database goes. */
  output: string;
  /** Decompressed bytes allowed; past it the snapshot is a bomb. */
  maxBytes: number;
}

export type RestoreReport =
  | { outcome: 'restored'; tables: number }
  | { outcome: 'salvaged'; reason: string; tables: { name: string; rows: number }[]; lost: number }
  | { outcome: 'reset'; reason: string };

export async function restore(request: RestoreRequest): Promise<RestoreReport> {
  const raw = `${request.output}.raw`;
  try {
    const decompressed = await decompress(request, raw);
    if (decompressed === 'too_large') return { outcome: 'reset', reason: 'larger than the decompressed cap' };
    const checked = check(raw);
    if (checked.ok) {
      renameSync(raw, request.output);
      return { outcome: 'restored', tables: checked.tables };
    }
    const reason = decompressed === 'truncated' ? 'truncated or corrupt compressed data' : checked.reason;
    return salvage(raw, request.output, reason);
  } finally {
    for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(raw + suffix, { force: true });
  }
}

/**
 * Streams the snapshot out to `raw`, counting bytes. Writes are synchronous, so a stream error (a truncated
 * frame) still leaves on disk everything that decoded before it, for the salvage.
 */
async function decompress(request: RestoreRequest, raw: string): Promise<'ok' | 'too_large' | 'truncated'> {
  let total = 0;
  let tooLarge = false;
  const fd = openSync(raw, 'w');
  // 1 MB output chunks: a 50 MB file in some 50 writes, not 3,200 of the default 16 KB.
  const unzip = createZstdDecompress({ chunkSize: 1024 * 1024 });
  unzip.on('data', (chunk: Buffer) => {
    if (tooLarge) return;
    total += chunk.byteLength;
    if (total > request.maxBytes) {
      tooLarge = true;
      unzip.destroy(new Error('cap'));
      return;
    }
    writeSync(fd, chunk);
  });
  // The decoder's own 'end' or 'error' settles it: every chunk has been written by then.
  const done = new Promise<'ok' | 'truncated'>((resolve) => {
    unzip.on('end', () => resolve('ok'));
    unzip.on('error', () => resolve('truncated'));
  });
  const input = createReadStream(request.input);
  input.on('error', () => unzip.destroy(new Error('unreadable input')));
  input.pipe(unzip);
  try {
    const result = await done;
    return tooLarge ? 'too_large' : result;
  } finally {
    input.destroy();
    closeSync(fd);
  }
}

function check(path: string): { ok: true; tables: number } | { ok: false; reason: string } {
  let db: DatabaseSync | undefined;
  try {
    db = new DatabaseSync(path);
    const rows = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    if (rows.length !== 1 || rows[0]!.quick_check !== 'ok') {
      return { ok: false, reason: `quick_check found ${rows.length} problem(s)` };
    }
    const { n } = db
      .prepare("SELECT count(*) AS n FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .get() as { n: number };
    return { ok: true, tables: Number(n) };
  } catch {
    return { ok: false, reason: 'not a readable SQLite database' };
  } finally {
    db?.close();
  }
}

/**
 * Copies every table whose definition and rows can still be read into a fresh database (rows up to the first
 * unreadable one), then its indexes, views and triggers where they still apply. Nothing readable: a reset.
 */
function salvage(raw: string, output: string, reason: string): RestoreReport {
  let from: DatabaseSync | undefined;
  let to: DatabaseSync | undefined;
  const tables: { name: string; rows: number }[] = [];
  let lost = 0;
  try {
    rmSync(output, { force: true });
    fitHeaderToFile(raw);
    from = new DatabaseSync(raw, { readOnly: true });
    const schema = from
      .prepare("SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")
      .all() as { type: string; name: string; sql: string }[];
    to = new DatabaseSync(output);
    for (const t of schema.filter((s) => s.type === 'table' && !s.name.startsWith('__'))) {
      const copied = copyTable(from, to, t.name, t.sql);
      if (copied === null) lost++;
      else tables.push({ name: t.name, rows: copied });
    }
    for (const s of schema.filter((x) => x.type !== 'table')) {
      try {
        to.exec(s.sql);
      } catch {
        // an index on a table that did not survive, or a view naming one: the data is what matters
      }
    }
  } catch {
    // the schema itself is unreadable: below, nothing was saved
  } finally {
    from?.close();
    to?.close();
  }
  if (tables.length === 0) {
    rmSync(output, { force: true });
    return { outcome: 'reset', reason };
  }
  return { outcome: 'salvaged', reason, tables, lost };
}

/**
 * A truncated file is shorter than the page count its header declares, and SQLite then calls every read
 * malformed: cut the file to whole pages and make the header declare what is there, so the pages that did
 * decode can be read.
 */
function fitHeaderToFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    const header = Buffer.alloc(100);
    if (readSync(fd, header, 0, 100, 0) < 100 || header.toString('latin1', 0, 16) !== 'SQLite format 3\0')
      return;
    const declared = header.readUInt16BE(16);
    const pageSize = declared === 1 ? 65536 : declared;
    const pages = Math.floor(fstatSync(fd).size / pageSize);
    if (pageSize < 512 || pages < 1 || header.readUInt32BE(28) <= pages) return;
    ftruncateSync(fd, pages * pageSize);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(pages);
    writeSync(fd, count, 0, 4, 28);
  } finally {
    closeSync(fd);
  }
}

/** Rows copied, or null when not even the table could be made; stops at the first row that cannot be read. */
function copyTable(from: DatabaseSync, to: DatabaseSync, name: string, sql: string): number | null {
  try {
    to.exec(sql);
  } catch {
    return null;
  }
  const quoted = `"${name.replaceAll('"', '""')}"`;
  let rows = 0;
  to.exec('BEGIN');
  try {
    const read = from.prepare(`SELECT * FROM ${quoted}`);
    read.setReturnArrays(true);
    let insert: ReturnType<DatabaseSync['prepare']> | undefined;
    for (const row of read.iterate() as Iterable<unknown[]>) {
      insert ??= to.prepare(`INSERT INTO ${quoted} VALUES (${row.map(() => '?').join(', ')})`);
      insert.run(...(row as never[]));
      rows++;
    }
  } catch {
    // a damaged page: keep what was read before it
  }
  to.exec('COMMIT');
  return rows;
}
