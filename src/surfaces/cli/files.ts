/** Files the CLI reads and writes for the user: line streams in, atomic writes out, and fs errors as classes. */
import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { asMemoryError, MemoryError } from '../../model/errors.ts';

/**
 * Writes chunks to `path` through a temporary file in the same directory, then renames it into place, so a
 * failed or interrupted write never leaves a half file where the old one (or nothing) was.
 */
export async function writeFileAtomically(path: string, chunks: AsyncIterable<string>): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    // Owner-only: an export holds every memory the caller may read.
    handle = await open(temp, 'wx', 0o600);
    for await (const chunk of chunks) await handle.write(chunk);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(temp, path);
  } catch (error) {
    await handle?.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw fileError(error, `write ${path}`);
  }
}

/** The lines of a file, or of stdin for `-`, read as a stream so a large import never sits in memory whole. */
export async function readLines(path: string, stdin: NodeJS.ReadableStream): Promise<AsyncIterable<string>> {
  if (path === '-') return createInterface({ input: stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
    // Opening a directory succeeds; reading it fails later, so ask now for a clear message.
    if ((await handle.stat()).isDirectory()) {
      await handle.close();
      throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    }
  } catch (error) {
    throw fileError(error, `read ${path}`);
  }
  return createInterface({ input: handle.createReadStream(), crlfDelay: Number.POSITIVE_INFINITY });
}

/** Batches lines into chunks of about 64 KiB, so a large export is not one write per line. */
export async function* chunked(lines: AsyncIterable<string>, size = 64 * 1024): AsyncGenerator<string> {
  let buffer = '';
  for await (const line of lines) {
    buffer += `${line}\n`;
    if (buffer.length >= size) {
      yield buffer;
      buffer = '';
    }
  }
  if (buffer !== '') yield buffer;
}

/** Maps a file-system failure to the class a person acts on: a missing file, a permission, or the disk. */
export function fileError(error: unknown, what: string): MemoryError {
  const code = (error as NodeJS.ErrnoException).code;
  // Only the system's errors are the environment's; anything else thrown here is ours.
  if (error instanceof MemoryError || typeof code !== 'string') return asMemoryError(error);
  // Node's message ends with the syscall and path (`, open '/x/.y.tmp'`): the temporary's name helps no one.
  const message = `cannot ${what}: ${(error as Error).message.replace(/, \w+ '.*'$/s, '')}`;
  if (code === 'ENOENT' || code === 'ENOTDIR') return new MemoryError('not_found', message, { cause: error });
  if (code === 'EACCES' || code === 'EPERM') return new MemoryError('permission', message, { cause: error });
  if (code === 'EISDIR' || code === 'ENAMETOOLONG' || code === 'EINVAL' || code === 'EEXIST') {
    return new MemoryError('invalid_input', message, { cause: error });
  }
  return new MemoryError('upstream', message, { cause: error });
}
