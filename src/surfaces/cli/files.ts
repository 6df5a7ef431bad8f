/** Files the CLI reads and writes for the user: line streams in, atomic writes out, and fs errors as classes. */
import { randomBytes } from 'node:crypto';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { type LineEvent, LineSplitter, MAX_LINE_BYTES } from '../../guard/lines.ts';
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

/** A line the reader refused, reported beside the import's own failures with its number. */
export interface RefusedLine {
  line: number;
  class: 'invalid_input';
  message: string;
}

/**
 * The lines of a file or of stdin, as text, for `import`. Streamed, and no line is held whole past
 * `maxBytes`: a longer line, or one that is not UTF-8, is refused as that line (`refused`; an empty line takes
 * its place so the numbering of the rest holds) and reading goes on with the next. A line that passes the
 * limit with NUL bytes in it and no end (`/dev/zero`, a binary file) stops the reading (`stopped`): no
 * JSONL text holds a raw NUL, and such input may never end.
 */
export class ImportLines implements AsyncIterable<string> {
  readonly refused: RefusedLine[] = [];
  stopped: RefusedLine | undefined;
  readonly #source: NodeJS.ReadableStream;
  readonly #maxBytes: number;
  readonly #decoder = new TextDecoder('utf-8', { fatal: true });
  #closed = false;

  constructor(source: NodeJS.ReadableStream, maxBytes: number = MAX_LINE_BYTES) {
    this.#source = source;
    this.#maxBytes = maxBytes;
  }

  /**
   * Stops reading: a read waiting on a pipe or a terminal ends at once, and the lines end there (an import's
   * Ctrl-C, which must not wait for input that may never come).
   */
  close(): void {
    this.#closed = true;
    (this.#source as { destroy?: () => void }).destroy?.();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<string> {
    const splitter = new LineSplitter(this.#maxBytes);
    try {
      for await (const chunk of this.#source) {
        for (const line of this.#texts(splitter.push(toBuffer(chunk)))) {
          // Leaving the loop destroys the stream, which closes the file: /dev/zero is not read on.
          if (line === STOP) return;
          yield line;
        }
      }
    } catch (error) {
      // A stream destroyed by close() ends its iteration with a premature-close error: that is the end asked for.
      if (this.#closed) return;
      throw error;
    }
    if (this.#closed) return;
    for (const line of this.#texts(splitter.end())) if (line !== STOP) yield line;
  }

  *#texts(events: LineEvent[]): Generator<string | typeof STOP> {
    const limit = sizeText(this.#maxBytes);
    for (const e of events) {
      if (e.type === 'line') {
        try {
          yield this.#decoder.decode(e.bytes);
        } catch {
          this.refused.push(refusal(e.number, `line ${e.number} is not UTF-8 text`));
          yield '';
        }
      } else if (e.type === 'long') {
        const size = `${e.bytes} bytes, over the ${limit} limit of a line`;
        this.refused.push(refusal(e.number, `line ${e.number} is ${size}; it was skipped unread`));
        yield '';
      } else if (e.binary) {
        this.stopped = refusal(
          e.number,
          `line ${e.number} is binary data (NUL bytes) with no line end in its first ${limit}: the input is not JSONL, so reading stopped there`,
        );
        yield STOP;
        return;
      }
    }
  }
}

/** Opens a file (or stdin for `-`) as ImportLines; a missing file or a directory fails here, before any line. */
export async function readLines(path: string, stdin: NodeJS.ReadableStream): Promise<ImportLines> {
  if (path === '-') return new ImportLines(stdin);
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
  return new ImportLines(handle.createReadStream());
}

const STOP = Symbol('stop');

const refusal = (line: number, message: string): RefusedLine => ({ line, class: 'invalid_input', message });

const sizeText = (bytes: number): string =>
  bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes}-byte`;

const toBuffer = (chunk: string | Buffer | Uint8Array): Buffer =>
  typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);

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
