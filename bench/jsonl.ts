/**
 * The import file: written once per run, then streamed by both sides of the bulk-import benchmark, so
 * generating data is never inside a measurement and both sides read the same bytes.
 */
import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';

const FLUSH_BYTES = 4 << 20;

/**
 * Writes lines `line(0) .. line(count - 1)` to `path`, newline-terminated. Yields to the event loop between
 * chunks, so Ctrl-C during a long generation still reaches the handler that deletes the temp directory.
 */
export async function writeLines(
  path: string,
  count: number,
  line: (i: number) => string,
  onProgress?: (done: number) => void,
): Promise<number> {
  const fd = openSync(path, 'w');
  let bytes = 0;
  try {
    let chunk: string[] = [];
    let size = 0;
    for (let i = 0; i < count; i++) {
      const text = `${line(i)}\n`;
      chunk.push(text);
      size += text.length;
      if (size >= FLUSH_BYTES) {
        bytes += writeAll(fd, chunk.join(''));
        chunk = [];
        size = 0;
        onProgress?.(i + 1);
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    if (chunk.length > 0) bytes += writeAll(fd, chunk.join(''));
  } finally {
    closeSync(fd);
  }
  return bytes;
}

/** Streams the lines of a file, without their newlines, reading large chunks. */
export async function* readLines(path: string): AsyncGenerator<string> {
  let rest = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 1 << 20 })) {
    const text = rest + (chunk as string);
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      yield text.slice(start, nl);
      start = nl + 1;
    }
    rest = text.slice(start);
  }
  if (rest !== '') yield rest;
}

/** writeSync may write less than asked; loop until the whole buffer is down. */
function writeAll(fd: number, text: string): number {
  const buffer = Buffer.from(text, 'utf8');
  for (let off = 0; off < buffer.length; ) off += writeSync(fd, buffer, off);
  return buffer.length;
}
