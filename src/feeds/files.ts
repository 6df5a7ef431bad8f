/**
 * Reading sources on disk: finding the files under a feed's root, and reading an append-only JSONL file from a
 * byte offset up to its last complete line. A line still being written (no newline yet) is left for next time.
 */
import { createHash } from 'node:crypto';
import { closeSync, type Dirent, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { MemoryError } from '../model/errors.ts';

const MAX_DEPTH = 10;
/** Folders of tools, dependencies and builds: never anyone's notes or transcripts, and often huge. */
const SKIP_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  'node_modules',
  'bower_components',
  'vendor',
  'dist',
  'build',
  'target',
  'coverage',
  '.venv',
  'venv',
  '__pycache__',
  '.next',
  '.cache',
]);
/** Bytes read per batch: a big transcript commits its checkpoint every few megabytes, not once at the end. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
/** The head fingerprint covers at most this many bytes of what was already read. */
const HEAD_BYTES = 1024;

/**
 * Files under `root` whose name `accept`s, sorted, as paths relative to root. A root that does not exist holds no
 * files (the tool was never used); an unreadable directory is an error, so a sync says so instead of reading less.
 * Symbolic links are not followed (a link loop cannot hang a sync), nor dependency and build folders.
 */
export function listFiles(root: string, accept: (name: string) => boolean): string[] {
  const out: string[] = [];
  const visit = (dir: string, depth: number) => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (dir === root && code === 'ENOENT') return;
      throw new MemoryError('upstream', `cannot read ${dir}: ${(error as Error).message}`, { cause: error });
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH && !SKIP_DIRS.has(e.name)) visit(path, depth + 1);
      else if (e.isFile() && accept(e.name)) out.push(relative(root, path).split(sep).join('/'));
    }
  };
  visit(root, 0);
  return out.sort();
}

export interface Chunk {
  /** Complete lines, each with the byte offset it starts at. */
  lines: { text: string; offset: number }[];
  /** Where the next read starts: just after the last complete line. */
  next: number;
  /** The file's first bytes' hash up to `next`, to recognise the same file next time. */
  head: string;
  /** Lines longer than a chunk, skipped whole (a pasted image). */
  oversized: number;
  /** More complete lines may follow after `next`. */
  more: boolean;
}

/**
 * Reads complete lines from `offset`. When the file is shorter than the offset or its head changed (rewritten,
 * rotated), reading starts again from 0: items already recorded are recognised by id, so nothing lands twice.
 */
export function readLines(path: string, offset: number, head: string | undefined): Chunk {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new MemoryError('upstream', `cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
  try {
    const size = fstatSync(fd).size;
    let start = offset;
    if (start > size || (start > 0 && head !== undefined && headHash(fd, start) !== head)) start = 0;
    let oversized = 0;
    for (;;) {
      const length = Math.min(CHUNK_BYTES, size - start);
      if (length <= 0) return { lines: [], next: start, head: headHash(fd, start), oversized, more: false };
      const buffer = Buffer.alloc(length);
      const got = readSync(fd, buffer, 0, length, start);
      const last = buffer.lastIndexOf(0x0a, got - 1);
      if (last === -1) {
        // No newline in a whole chunk: a line bigger than a chunk (skip past it) or a line still being written.
        if (start + got >= size)
          return { lines: [], next: start, head: headHash(fd, start), oversized, more: false };
        const end = findNewline(fd, start + got, size);
        if (end === -1) return { lines: [], next: start, head: headHash(fd, start), oversized, more: false };
        start = end + 1;
        oversized++;
        continue;
      }
      const lines: { text: string; offset: number }[] = [];
      let from = 0;
      while (from <= last) {
        const nl = buffer.indexOf(0x0a, from);
        const text = buffer.toString('utf8', from, nl).replace(/\r$/, '');
        if (text.trim() !== '') lines.push({ text, offset: start + from });
        from = nl + 1;
      }
      const next = start + last + 1;
      return { lines, next, head: headHash(fd, next), oversized, more: next < size };
    }
  } finally {
    closeSync(fd);
  }
}

/** A whole file's hash (notes are rewritten in place, not appended). */
export function hashText(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The first bytes of a file, up to what was read, hashed. */
function headHash(fd: number, upTo: number): string {
  const length = Math.min(HEAD_BYTES, upTo);
  const buffer = Buffer.alloc(length);
  const got = length === 0 ? 0 : readSync(fd, buffer, 0, length, 0);
  return createHash('sha256').update(buffer.subarray(0, got)).digest('hex').slice(0, 32);
}

function findNewline(fd: number, from: number, size: number): number {
  const buffer = Buffer.alloc(64 * 1024);
  for (let at = from; at < size; at += buffer.length) {
    const got = readSync(fd, buffer, 0, Math.min(buffer.length, size - at), at);
    const i = buffer.subarray(0, got).indexOf(0x0a);
    if (i !== -1) return at + i;
  }
  return -1;
}
